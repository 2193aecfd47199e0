import type { IncomingMessage } from 'node:http';
import { nonPublicRangeOf, type AddressPolicy } from './address-policy.js';
import { FeedFetchError, isTransient, loggableUrl } from './feed-fetch-error.js';
import {
  defaultOptions,
  type FetchAttemptReport,
  type FetchFeedOptions,
  type ResolvedOptions,
} from './fetch-feed-options.js';
import { acceptEncoding, readLimitedBody } from './read-limited-body.js';
import { requestOnce } from './request-once.js';

export type FeedFetchResult =
  | { readonly status: 'not_modified' }
  | {
      readonly status: 'fetched';
      /** Decoded (gunzipped) bytes. */
      readonly body: Buffer;
      readonly etag: string | null;
      readonly lastModified: string | null;
      readonly httpStatus: number;
      /** The URL that answered, after redirects. */
      readonly finalUrl: string;
    };

/**
 * GETs a feed over HTTP(S), with retries; throws a FeedFetchError when it cannot. The story of one call: check the
 * URL, try (following redirects, each hop checked again), and on a transient failure wait and try again.
 */
export function fetchFeed(url: string | URL, options: FetchFeedOptions = {}): Promise<FeedFetchResult> {
  return fetchFeedUnder(nonPublicRangeOf, url, options);
}

/** fetchFeed under another address policy: the tests' way to let the local test server pass for a public host. */
export async function fetchFeedUnder(
  policy: AddressPolicy,
  url: string | URL,
  options: FetchFeedOptions,
): Promise<FeedFetchResult> {
  const settings: ResolvedOptions = { ...defaultOptions, ...withoutUndefined(options) };
  const start = checkedUrl(String(url));
  for (let attempt = 1; ; attempt += 1) {
    if (settings.signal?.aborted) throw cancelled(start.href, settings.signal);
    const report = reporter(settings, attempt, loggableUrl(start.href));
    try {
      const result = await attemptOnce(start, settings, settings.allowPrivateNetworks ? null : policy);
      report({ outcome: result.status, httpStatus: result.status === 'fetched' ? result.httpStatus : 304 });
      return result;
    } catch (error) {
      if (!(error instanceof FeedFetchError)) throw error;
      const retryIndex = attempt - 1;
      const retryInMs = isTransient(error) && retryIndex < settings.maxRetries ? backoff(settings, retryIndex) : null;
      report({ outcome: 'failed', httpStatus: error.httpStatus, errorKind: error.kind, retryInMs });
      if (retryInMs === null) throw error;
      await untilAborted(settings.sleep(retryInMs), settings.signal);
    }
  }
}

/** The failure of a fetch its caller ended. */
const cancelled = (url: string, signal: AbortSignal) =>
  new FeedFetchError('cancelled', url, typeof signal.reason === 'string' ? signal.reason : 'cancelled by the caller');

/** A wait that ends early when the signal aborts (the next attempt then finds it aborted). */
function untilAborted(wait: Promise<void>, signal: AbortSignal | undefined): Promise<void> {
  if (signal === undefined) return wait;
  if (signal.aborted) return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      signal.removeEventListener('abort', done);
      resolve();
    };
    signal.addEventListener('abort', done, { once: true });
    void wait.then(done);
  });
}

/** Starts the clock of one attempt; the function it answers tells onAttempt how the attempt ended. */
function reporter(settings: ResolvedOptions, attempt: number, url: string) {
  const startedAt = settings.now();
  return (outcome: Pick<FetchAttemptReport, 'outcome' | 'httpStatus'> & Partial<FetchAttemptReport>) =>
    settings.onAttempt?.({
      attempt,
      url,
      errorKind: null,
      retryInMs: null,
      ...outcome,
      durationMs: settings.now() - startedAt,
    });
}

/** Exponential backoff with full jitter: uniform in [0, base * 2^n), so retries of many callers spread out. */
const backoff = (settings: ResolvedOptions, retryIndex: number) =>
  Math.floor(settings.random() * settings.retryBaseMs * 2 ** retryIndex);

const redirectStatuses = new Set([301, 302, 303, 307, 308]);

/** One attempt: the hops of its redirects and the body, all within totalTimeoutMs. */
async function attemptOnce(
  start: URL,
  settings: ResolvedOptions,
  policy: AddressPolicy | null,
): Promise<FeedFetchResult> {
  const controller = new AbortController();
  const abort = (reason: FeedFetchError) => controller.abort(reason);
  let url = start;
  const deadline = setTimeout(
    () => abort(new FeedFetchError('timeout', url.href, `no complete answer within ${settings.totalTimeoutMs} ms`)),
    settings.totalTimeoutMs,
  );
  const callerEnded = () => abort(cancelled(url.href, settings.signal!));
  settings.signal?.addEventListener('abort', callerEnded, { once: true });
  let response: IncomingMessage | null = null;
  try {
    for (let redirects = 0; ; redirects += 1) {
      response = await requestOnce({
        url,
        headers: requestHeaders(settings),
        lookup: settings.lookup,
        policy,
        connectTimeoutMs: settings.connectTimeoutMs,
        signal: controller.signal,
        abort,
      });
      const status = response.statusCode ?? 0;
      const location = response.headers.location;
      if (!redirectStatuses.has(status) || location === undefined) break;
      response.destroy();
      if (redirects >= settings.maxRedirects) {
        throw new FeedFetchError('too_many_redirects', url.href, `more than ${settings.maxRedirects} redirects`);
      }
      url = checkedUrl(location, url);
    }

    const status = response.statusCode ?? 0;
    if (status === 304) {
      response.destroy();
      return { status: 'not_modified' };
    }
    if (status < 200 || status > 299) {
      response.destroy();
      throw new FeedFetchError('http_status', url.href, `HTTP ${status}`, status);
    }
    const body = await readLimitedBody(response, url.href, settings.maxBodyBytes).catch((error: unknown) => {
      // A body refused after a 2xx (too large, undecodable) still reports the status that came.
      throw error instanceof FeedFetchError ? new FeedFetchError(error.kind, error.url, error.reason, status) : error;
    });
    return {
      status: 'fetched',
      body,
      etag: response.headers.etag ?? null,
      lastModified: response.headers['last-modified'] ?? null,
      httpStatus: status,
      finalUrl: url.href,
    };
  } catch (error) {
    response?.destroy();
    // Whatever failed once the time was up failed because of it.
    if (controller.signal.aborted) throw controller.signal.reason;
    throw error;
  } finally {
    clearTimeout(deadline);
    settings.signal?.removeEventListener('abort', callerEnded);
  }
}

function requestHeaders(settings: ResolvedOptions): Record<string, string> {
  return {
    'user-agent': settings.userAgent,
    accept: '*/*',
    'accept-encoding': acceptEncoding,
    ...(settings.etag ? { 'if-none-match': settings.etag } : {}),
    ...(settings.lastModified ? { 'if-modified-since': settings.lastModified } : {}),
  };
}

/** An absolute http(s) URL without credentials (they would end up in logs), resolved against the hop it came from. */
export function checkedUrl(text: string, base?: URL): URL {
  let url: URL;
  try {
    url = new URL(text, base);
  } catch {
    throw new FeedFetchError('invalid_url', text, 'not a valid URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new FeedFetchError(
      'invalid_url',
      url.href,
      `the scheme ${url.protocol} is not allowed (http and https only)`,
    );
  }
  if (url.username || url.password) {
    throw new FeedFetchError(
      'invalid_url',
      `${url.protocol}//${url.host}${url.pathname}`,
      'credentials in the URL are not allowed',
    );
  }
  return url;
}

function withoutUndefined<T extends object>(options: T): Partial<T> {
  return Object.fromEntries(Object.entries(options).filter(([, value]) => value !== undefined)) as Partial<T>;
}
