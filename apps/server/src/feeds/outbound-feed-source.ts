import { FeedFetchError, fetchFeed, type FetchAttemptReport } from '@canteen-meals/adapters-outbound';
import { FeedSourceError, type FeedSource } from '@canteen-meals/domain';

export interface OutboundFeedSourceOptions {
  readonly allowPrivateNetworks: boolean;
  readonly retryBaseMs: number;
  readonly onAttempt?: (report: FetchAttemptReport) => void;
}

/** Feeds fetched through adapters-outbound: its limits, its retries, its refusal of private addresses. */
export function outboundFeedSource(options: OutboundFeedSourceOptions): FeedSource {
  return {
    async fetch(url, { etag, lastModified }) {
      try {
        const fetched = await fetchFeed(url, {
          allowPrivateNetworks: options.allowPrivateNetworks,
          retryBaseMs: options.retryBaseMs,
          ...(etag === null ? {} : { etag }),
          ...(lastModified === null ? {} : { lastModified }),
          ...(options.onAttempt === undefined ? {} : { onAttempt: options.onAttempt }),
        });
        return fetched.status === 'not_modified'
          ? { status: 'not_modified', httpStatus: 304 }
          : { status: 'fetched', body: fetched.body, httpStatus: fetched.httpStatus, etag: fetched.etag, lastModified: fetched.lastModified };
      } catch (error) {
        if (error instanceof FeedFetchError) throw new FeedSourceError(error.message, error.httpStatus);
        throw error;
      }
    },
  };
}
