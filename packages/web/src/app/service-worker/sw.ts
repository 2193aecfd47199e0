// The students' app's service worker (built by build.mjs to /sw.js, its precache list written in at build time):
// - the app itself (its page, scripts, style sheet, icons, manifests) precached at install, answered from the cache:
//   the app starts offline, and without waiting for the network when online;
// - the public API reads the app made (menus, rankings, canteens, labels) kept, each revalidated with its ETag on every
//   read (a 304 keeps the copy); offline, the copy answers, marked with X-Meals-Kept;
// - everything else (the person's calls with a token, the live stream, the other pages) passes by untouched.
// A new version installs beside the old one and waits: it takes over when no tab of the app is open any more (the
// next start), never in the middle of use.
import { keptCache, keptHeader, keptPaths } from './kept.js';

declare const __PRECACHE__: readonly string[];
declare const __VERSION__: string;

/** The little of the worker's global scope used here (the page's TypeScript has the DOM's types, not a worker's). */
interface WorkerScope {
  readonly location: Location;
  readonly clients: {
    claim(): Promise<void>;
    matchAll(options: { type: 'window'; includeUncontrolled: boolean }): Promise<readonly WindowClientLike[]>;
    openWindow(url: string): Promise<unknown>;
  };
  readonly registration: {
    showNotification(title: string, options: NotificationOptions & { data?: unknown }): Promise<void>;
  };
  addEventListener(type: 'install' | 'activate', listener: (event: ExtendableEvent) => void): void;
  addEventListener(type: 'fetch', listener: (event: FetchEvent) => void): void;
  addEventListener(
    type: 'push',
    listener: (event: ExtendableEvent & { readonly data: { json(): unknown } | null }) => void,
  ): void;
  addEventListener(
    type: 'notificationclick',
    listener: (event: ExtendableEvent & { readonly notification: Notification }) => void,
  ): void;
}
interface WindowClientLike {
  readonly url: string;
  focus(): Promise<unknown>;
  navigate(url: string): Promise<unknown>;
}
interface ExtendableEvent extends Event {
  waitUntil(work: Promise<unknown>): void;
}
interface FetchEvent extends ExtendableEvent {
  readonly request: Request;
  respondWith(answer: Promise<Response> | Response): void;
}

const worker = self as unknown as WorkerScope;
const appCache = `canteen-meals-app-${__VERSION__}`;

worker.addEventListener('install', (event) => {
  // Every file or none: a half-filled cache would start an app that breaks offline.
  event.waitUntil(
    caches
      .open(appCache)
      .then((cache) => cache.addAll(__PRECACHE__.map((url) => new Request(url, { cache: 'reload' })))),
  );
});

worker.addEventListener('activate', (event) => {
  event.waitUntil(
    (async () => {
      for (const name of await caches.keys()) {
        if (name.startsWith('canteen-meals-app-') && name !== appCache) await caches.delete(name);
      }
      // The first version controls the tab that installed it (so that its reads are kept from the start); a later
      // one activates only once no tab runs the old one, so this takes nothing from anyone.
      await worker.clients.claim();
    })(),
  );
});

worker.addEventListener('fetch', (event) => {
  const request = event.request;
  if (request.method !== 'GET') return;
  const url = new URL(request.url);
  if (url.origin !== worker.location.origin) return;
  if (request.mode === 'navigate') {
    // The app's page only (the console and the dashboard are not the app's): from the cache, whatever the query.
    if (url.pathname === '/') event.respondWith(fromAppCache(request, '/'));
    return;
  }
  if (__PRECACHE__.includes(url.pathname)) {
    event.respondWith(fromAppCache(request, url.pathname));
    return;
  }
  if (keptPaths.includes(url.pathname) && !request.headers.has('authorization')) event.respondWith(keptRead(request));
});

async function fromAppCache(request: Request, key: string): Promise<Response> {
  const cached = await caches.match(key, { cacheName: appCache, ignoreSearch: true });
  return cached ?? fetch(request);
}

/**
 * A public read: the network, asked with the kept copy's ETag (a 304 answers the copy); a 200 replaces the copy.
 * Without an answer, the copy, marked as such; without a copy, the network's failure.
 */
async function keptRead(request: Request): Promise<Response> {
  const cache = await caches.open(keptCache);
  const kept = await cache.match(request, { ignoreVary: true });
  const etag = kept?.headers.get('etag');
  const headers = new Headers(request.headers);
  if (etag !== null && etag !== undefined) headers.set('if-none-match', etag);
  let answer: Response;
  try {
    answer = await fetch(request.url, { headers, cache: 'no-store', credentials: 'same-origin' });
  } catch (error) {
    if (kept === undefined) throw error;
    const marked = new Headers(kept.headers);
    marked.set(keptHeader, '1');
    return new Response(kept.body, { status: kept.status, statusText: kept.statusText, headers: marked });
  }
  if (answer.status === 304 && kept !== undefined) return kept;
  if (answer.ok) await cache.put(request.url, answer.clone());
  return answer;
}

// Web Push: the server's notification `{title, body, url, tag}` shown as it comes (a new one with the same
// tag replaces the last: one per person and day); a tap focuses the app at its `url`, or opens it there.
worker.addEventListener('push', (event) => {
  const message = (event.data?.json() ?? {}) as { title?: string; body?: string; url?: string; tag?: string };
  const url = new URL(message.url ?? '/', worker.location.origin);
  const safeUrl = url.origin === worker.location.origin ? url.href : worker.location.origin;
  event.waitUntil(
    worker.registration.showNotification(message.title ?? 'Canteen meals', {
      body: message.body ?? '',
      tag: message.tag ?? 'meals',
      data: { url: safeUrl },
      icon: iconUrl,
    }),
  );
});

worker.addEventListener('notificationclick', (event) => {
  event.notification.close();
  const url = (event.notification.data as { url?: string } | null)?.url ?? worker.location.origin;
  event.waitUntil(
    (async () => {
      const open = await worker.clients.matchAll({ type: 'window', includeUncontrolled: true });
      const app = open.find((client) => new URL(client.url).pathname === '/');
      if (app === undefined) return worker.clients.openWindow(url);
      await app.navigate(url);
      return app.focus();
    })(),
  );
});

/** The app's icon for its notifications: the first icon it precaches. */
const iconUrl = __PRECACHE__.find((url) => url.endsWith('.png')) ?? '/';
