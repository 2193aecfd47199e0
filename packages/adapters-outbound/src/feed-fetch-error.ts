/** Why a fetch failed: a closed set, so a caller can switch over it and a new kind is a compile error there. */
export type FeedFetchErrorKind =
  | 'invalid_url'
  | 'forbidden_address'
  | 'timeout'
  | 'too_large'
  | 'http_status'
  | 'network'
  | 'too_many_redirects'
  /** The caller gave up (its deadline passed, the service stops): not retried. */
  | 'cancelled';

/**
 * A failed fetch. The message holds the URL and the reason, nothing more: no resolved address, no response body, no
 * underlying error (its text names addresses), because callers log it and may show it to whoever configured the URL.
 * The URL is kept without its query and fragment (feed URLs carry API keys there) and cut to a bound.
 */
export class FeedFetchError extends Error {
  override readonly name = 'FeedFetchError';

  /** The URL as it may be logged: scheme, host and path. */
  readonly url: string;

  constructor(
    readonly kind: FeedFetchErrorKind,
    url: string,
    /** What failed, without the URL: for a log that names the URL elsewhere (a webhook's delivery log). */
    readonly reason: string,
    /** The HTTP status of the answer that failed, when there was one (kind `http_status`). */
    readonly httpStatus: number | null = null,
  ) {
    const loggable = loggableUrl(url);
    super(`${loggable}: ${reason}`);
    this.url = loggable;
  }
}

const maxLoggedUrlLength = 200;

/**
 * A URL as logs and error texts may show it: without credentials, query and fragment (where API keys go), and at most
 * 200 characters. Text that is no URL keeps what comes before any `?` or `#`.
 */
export function loggableUrl(text: string): string {
  let shown: string;
  try {
    const url = new URL(text);
    url.username = '';
    url.password = '';
    url.search = '';
    url.hash = '';
    shown = url.href;
  } catch {
    shown = text.replace(/[?#][\s\S]*$/, '');
  }
  return shown.length > maxLoggedUrlLength ? `${shown.slice(0, maxLoggedUrlLength - 1)}…` : shown;
}

/** Whether another attempt may succeed: the network or the server failed, not the request or the answer's content. */
export const isTransient = (error: FeedFetchError): boolean =>
  error.kind === 'network' ||
  error.kind === 'timeout' ||
  (error.kind === 'http_status' && (error.httpStatus ?? 0) >= 500);
