import { createMealsClient, type MealsClient } from '@canteen-meals/client';

/**
 * The API of the page's own origin, through the client package, as any app calls it. Each read revalidates
 * (`cache: 'no-cache'`: a 304 when unchanged): menus and rankings may be kept for seconds by caches, and the live
 * events the pages follow are newer than that.
 */
export function pageClient(getToken?: () => string | Promise<string>): MealsClient {
  const revalidating: typeof fetch = (input, init) => fetch(input, { ...init, cache: 'no-cache' });
  return getToken === undefined
    ? createMealsClient({ baseUrl: location.origin, fetch: revalidating })
    : createMealsClient({ baseUrl: location.origin, fetch: revalidating, getToken });
}

/** The message of a failed call, for a status line: the API's own message when it sent one. */
export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
