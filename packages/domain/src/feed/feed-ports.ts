import type { Canteen } from '../canteen/canteen.js';
import type { MenuDayReading } from '../use-cases/get-menu-days.js';
import type { CanteenId } from '../canteen/canteen.js';
import type { MenuDay } from '../menu/menu.js';
import type { FeedState } from './canteen-feed.js';

/** Where feed states are kept. */
export interface FeedStateRepository {
  find(canteenId: CanteenId, feedName: string): Promise<FeedState | undefined>;
  /** The states of a canteen's feeds, by feed name. */
  list(canteenId: CanteenId): Promise<readonly FeedState[]>;
  /** Creates or replaces the state of one feed. */
  save(state: FeedState): Promise<void>;
  /**
   * Claims a scheduled run, atomically across every instance sharing the store: sets the feed's last attempt to `at`
   * if it still is `expected` (null: no attempt yet, or no state at all) and answers whether it did. Of N instances
   * that find a feed due at once, one claims it; the others find the claim taken and leave the fetch to it.
   */
  claim(canteenId: CanteenId, feedName: string, expected: Date | null, at: Date): Promise<boolean>;
  /** Forgets what is remembered of a feed (its URL changed): it is then due at once, with no validators to send. */
  forget(canteenId: CanteenId, feedName: string): Promise<void>;
}

/** What fetching a feed answered. */
export type FetchedFeed =
  | {
      readonly status: 'fetched';
      readonly body: Uint8Array;
      readonly httpStatus: number;
      readonly etag: string | null;
      readonly lastModified: string | null;
    }
  | { readonly status: 'not_modified'; readonly httpStatus: number };

/** A failed fetch: why, and the HTTP status when an answer came. */
export class FeedSourceError extends Error {
  override readonly name = 'FeedSourceError';

  constructor(
    message: string,
    readonly httpStatus: number | null = null,
  ) {
    super(message);
  }
}

/**
 * Ends a fetch under way (an AbortSignal will do; the domain knows no platform's): a deadline passed, or a shutdown.
 */
export interface CancelSignal {
  readonly aborted: boolean;
  addEventListener(type: 'abort', listener: () => void, options?: { readonly once?: boolean }): void;
  removeEventListener(type: 'abort', listener: () => void): void;
}

/** Fetches a feed over the network (an adapter: limits, retries, no private addresses); throws FeedSourceError. */
export interface FeedSource {
  fetch(
    url: string,
    validators: { readonly etag: string | null; readonly lastModified: string | null },
    options?: { readonly signal?: CancelSignal },
  ): Promise<FetchedFeed>;
}

/**
 * Reads a feed's bytes into menu days; throws (or rejects) with an Error naming every problem for a feed it cannot
 * take. A server reads off its request thread, within a budget, so it answers a promise.
 */
export interface MenuFeedReader {
  read(bytes: Uint8Array): MenuFeedReading | Promise<MenuFeedReading>;
}

export interface MenuFeedReading {
  readonly days: readonly MenuDay[];
}

/**
 * Writes a canteen's menu days as a feed (the menu's export), which a MenuFeedReader reads back as the same days:
 * closed days as closed, the others with their meals.
 */
export interface MenuFeedWriter {
  write(canteen: Pick<Canteen, 'name' | 'address' | 'city' | 'coordinates'>, days: readonly MenuDayReading[]): string;
}

/** When a cron schedule next fires after an instant, on the clocks of a time zone (null: never again). */
export type NextRun = (schedule: string, timeZone: string, after: Date) => Date | null;
