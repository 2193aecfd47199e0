import type { FetchAttemptReport } from '@canteen-meals/adapters-outbound';
import { FeedSourceError, type CancelSignal } from '@canteen-meals/domain';
import type { FeedSource } from '@canteen-meals/domain/ports';

export interface OutboundFeedSourceOptions {
  readonly allowPrivateNetworks: boolean;
  readonly retryBaseMs: number;
  /**
   * One fetch, its retries included, ends within this: a manual fetch then answers before the HTTP connection's idle
   * timeout, and a hanging host holds a slot of the scheduler for this long at most.
   */
  readonly deadlineMs: number;
  /** Aborted when the service stops: every fetch under way ends at once (a failure is recorded). */
  readonly stopping?: AbortSignal;
  readonly onAttempt?: (report: FetchAttemptReport) => void;
}

/** Feeds fetched through adapters-outbound: its limits, its retries, its refusal of private addresses. */
export function outboundFeedSource(options: OutboundFeedSourceOptions): FeedSource {
  return {
    async fetch(url, { etag, lastModified }, { signal } = {}) {
      // The HTTP clients are loaded by the first fetch, not by every start.
      const { FeedFetchError, fetchFeed } = await import('@canteen-meals/adapters-outbound');
      const ended = endedBy(signal, options);
      try {
        const fetched = await fetchFeed(url, {
          allowPrivateNetworks: options.allowPrivateNetworks,
          retryBaseMs: options.retryBaseMs,
          signal: ended.signal,
          ...(etag === null ? {} : { etag }),
          ...(lastModified === null ? {} : { lastModified }),
          ...(options.onAttempt === undefined ? {} : { onAttempt: options.onAttempt }),
        });
        return fetched.status === 'not_modified'
          ? { status: 'not_modified', httpStatus: 304 }
          : {
              status: 'fetched',
              body: fetched.body,
              httpStatus: fetched.httpStatus,
              etag: fetched.etag,
              lastModified: fetched.lastModified,
            };
      } catch (error) {
        if (error instanceof FeedFetchError) throw new FeedSourceError(error.message, error.httpStatus);
        throw error;
      } finally {
        ended.release();
      }
    },
  };
}

/**
 * One AbortSignal for the three ends of a fetch: its own deadline, the caller's (a scheduled run's deadline), and the
 * service stopping. Its reason, a string, becomes the failure's text.
 */
function endedBy(caller: CancelSignal | undefined, { deadlineMs, stopping }: OutboundFeedSourceOptions) {
  const controller = new AbortController();
  const end = (reason: string) => () => controller.abort(reason);
  const timer = setTimeout(
    end(`no complete answer within the fetch's deadline of ${deadlineMs} ms (retries included)`),
    deadlineMs,
  );
  const runEnded = end("the scheduled run's deadline passed");
  const serviceStops = end('the service is stopping');
  if (caller?.aborted) runEnded();
  caller?.addEventListener('abort', runEnded, { once: true });
  if (stopping?.aborted) serviceStops();
  stopping?.addEventListener('abort', serviceStops, { once: true });
  return {
    signal: controller.signal,
    release: () => {
      clearTimeout(timer);
      caller?.removeEventListener('abort', runEnded);
      stopping?.removeEventListener('abort', serviceStops);
    },
  };
}
