import type { CanteenFeed, FeedState } from './canteen-feed.js';
import type { NextRun } from './feed-ports.js';

/** The first retry of a failed feed waits this long; each further one twice as long, up to the schedule's interval. */
export const firstFeedRetryMs = 30_000;

/**
 * When a feed is next due: at once when it was never tried; after a failure, at its retry unless the schedule fires
 * first; else when its schedule next fires after the last attempt (null: never again).
 */
export function nextFeedAttemptAt(
  feed: CanteenFeed,
  state: FeedState,
  timeZone: string,
  nextRun: NextRun,
  now: Date,
): Date | null {
  const last = state.lastAttemptAt;
  if (last === null) return now;
  const scheduled = nextRun(feed.schedule, timeZone, last);
  if (state.outcome !== 'failed' || state.failures === 0) return scheduled;
  const retry = new Date(
    last.getTime() + feedRetryDelayMs(state.failures, scheduleIntervalMs(feed, timeZone, nextRun, scheduled)),
  );
  return scheduled === null || retry < scheduled ? retry : scheduled;
}

/** 30 s after the first failure, doubling with each further one, never longer than the schedule's interval. */
export function feedRetryDelayMs(failures: number, intervalMs: number): number {
  return Math.min(firstFeedRetryMs * 2 ** Math.max(0, failures - 1), intervalMs);
}

/** The time between the schedule's next two firings (a schedule that fires once more has none: Infinity). */
function scheduleIntervalMs(feed: CanteenFeed, timeZone: string, nextRun: NextRun, scheduled: Date | null): number {
  if (scheduled === null) return Infinity;
  const following = nextRun(feed.schedule, timeZone, scheduled);
  return following === null ? Infinity : following.getTime() - scheduled.getTime();
}
