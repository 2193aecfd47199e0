import type { FeedFetchErrorKind } from './feed-fetch-error.js';
import { systemLookup, type HostLookup } from './guarded-lookup.js';

export interface FetchFeedOptions {
  /** The ETag of the copy the caller holds: sent as If-None-Match. */
  readonly etag?: string | null;
  /** The Last-Modified of the copy the caller holds: sent as If-Modified-Since. */
  readonly lastModified?: string | null;
  /** Lets hosts on loopback, private and other non-public addresses be reached (OUTBOUND_ALLOW_PRIVATE_NETWORKS=1). */
  readonly allowPrivateNetworks?: boolean;
  /** Time to open the connection (DNS, TCP, TLS) of each hop. */
  readonly connectTimeoutMs?: number;
  /** Time for one attempt: every redirect hop and the whole body. */
  readonly totalTimeoutMs?: number;
  /** Largest body accepted, counted on the wire and again after decoding. */
  readonly maxBodyBytes?: number;
  readonly maxRedirects?: number;
  /** Retries after a network error, a timeout or a 5xx; none after anything else. */
  readonly maxRetries?: number;
  /** Backoff before retry n (from 0): a random delay in [0, retryBaseMs * 2^n) ("full jitter"). */
  readonly retryBaseMs?: number;
  readonly userAgent?: string;
  /** Told of every attempt and its outcome (for logs and metrics); it must not throw. */
  readonly onAttempt?: (report: FetchAttemptReport) => void;
  /** Time is a port: tests pass a sleep that returns at once and a fixed random() and clock. */
  readonly sleep?: (ms: number) => Promise<void>;
  readonly random?: () => number;
  /** Milliseconds on a monotonic clock, for the durations reported. */
  readonly now?: () => number;
  /**
   * Ends the fetch, its retries included, when aborted (a run's deadline, a shutdown): it then fails with kind
   * `cancelled`, and the abort reason, when it is a string, as its reason.
   */
  readonly signal?: AbortSignal;
  /** Host name resolution (default: the system's, as dns.lookup). Every address it gives is checked before use. */
  readonly lookup?: HostLookup;
}

export interface FetchAttemptReport {
  /** 1 for the first attempt. */
  readonly attempt: number;
  /** The URL asked for (the hops of redirects are not reported one by one). */
  readonly url: string;
  readonly outcome: 'fetched' | 'not_modified' | 'failed';
  readonly httpStatus: number | null;
  readonly errorKind: FeedFetchErrorKind | null;
  readonly durationMs: number;
  /** The backoff before the next attempt, or null when none follows. */
  readonly retryInMs: number | null;
}

export type ResolvedOptions = Required<Omit<FetchFeedOptions, 'etag' | 'lastModified' | 'onAttempt' | 'signal'>> &
  Pick<FetchFeedOptions, 'etag' | 'lastModified' | 'onAttempt' | 'signal'>;

export const defaultOptions = {
  allowPrivateNetworks: false,
  connectTimeoutMs: 5_000,
  totalTimeoutMs: 30_000,
  maxBodyBytes: 5 * 1024 * 1024,
  maxRedirects: 3,
  maxRetries: 3,
  retryBaseMs: 2_000,
  userAgent: 'canteen-meals-outbound/0.1 (+https://github.com/canteen-meals/meals)',
  sleep: (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)),
  random: Math.random,
  now: () => performance.now(),
  lookup: systemLookup,
} satisfies Omit<ResolvedOptions, 'etag' | 'lastModified' | 'onAttempt' | 'signal'>;
