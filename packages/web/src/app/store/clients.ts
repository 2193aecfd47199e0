// The API as the app calls it, through the client package: public reads without a token (the answers caches may keep:
// the menu with its filters, the ranking, the canteens, the labels), the person's own calls with one. A read the
// service worker answered from its copy (offline) says so with `X-Meals-Kept`, and its `Date` is when it was fetched.
import { createMealsClient, MealsApiError, type MealsClient } from '@canteen-meals/client';
import { keptHeader, keptCache } from '../service-worker/kept.js';

/** Told about every public read: the time its data is from when it came from the kept copy, else null (fresh). */
export type FreshnessListener = (keptAt: Date | null) => void;

export function publicClient(onFreshness: FreshnessListener): MealsClient {
  const reading: typeof fetch = async (input, init) => {
    // The live stream never ends: at low priority, it holds back nothing the page loads.
    const live = String(input instanceof Request ? input.url : input).includes('/api/v1/live');
    const response = await fetch(input, { ...init, cache: 'no-cache', ...(live ? { priority: 'low' as const } : {}) });
    const kept = response.headers.get(keptHeader) !== null;
    onFreshness(kept ? new Date(response.headers.get('date') ?? Date.now()) : null);
    return response;
  };
  return createMealsClient({ baseUrl: location.origin, fetch: reading });
}

/** The person's calls, with their token (never kept by the worker: it passes every request with a token through). */
export function personalClient(getToken: () => Promise<string>): MealsClient {
  return createMealsClient({
    baseUrl: location.origin,
    fetch: (input, init) => fetch(input, { ...init, cache: 'no-store' }),
    getToken,
  });
}

/**
 * The same reads answered only from the worker's copy, without any network: what the app paints at once on a repeat
 * visit, before the network answers. Rejects when nothing is kept (or there is no cache: a first visit, an old
 * browser).
 */
export function keptClient(): MealsClient {
  const fromCache: typeof fetch = async (input) => {
    if (typeof caches === 'undefined') throw new TypeError('no cache');
    const cache = await caches.open(keptCache);
    const kept = await cache.match(String(input instanceof Request ? input.url : input), { ignoreVary: true });
    if (kept === undefined) throw new TypeError('not kept');
    return kept;
  };
  return createMealsClient({ baseUrl: location.origin, fetch: fromCache });
}

/** Whether a failed call got no answer (offline, the connection dropped): worth keeping to send later. */
export const isNetworkFailure = (error: unknown) => error instanceof MealsApiError && error.source === 'network';
