/** Why a fetch failed: a closed set, so a caller can switch over it and a new kind is a compile error there. */
export type FeedFetchErrorKind =
  | 'invalid_url'
  | 'forbidden_address'
  | 'timeout'
  | 'too_large'
  | 'http_status'
  | 'network'
  | 'too_many_redirects';

/**
 * A failed fetch. The message holds the URL and the reason, nothing more: no resolved address, no response body, no
 * underlying error (its text names addresses), because callers log it and may show it to whoever configured the URL.
 */
export class FeedFetchError extends Error {
  override readonly name = 'FeedFetchError';

  constructor(
    readonly kind: FeedFetchErrorKind,
    readonly url: string,
    /** What failed, without the URL: for a log that names the URL elsewhere (a webhook's delivery log). */
    readonly reason: string,
    /** The HTTP status of the answer that failed, when there was one (kind `http_status`). */
    readonly httpStatus: number | null = null,
  ) {
    super(`${url}: ${reason}`);
  }
}

/** Whether another attempt may succeed: the network or the server failed, not the request or the answer's content. */
export const isTransient = (error: FeedFetchError): boolean =>
  error.kind === 'network' || error.kind === 'timeout' || (error.kind === 'http_status' && (error.httpStatus ?? 0) >= 500);
