import type { RunDueFeeds } from '@canteen-meals/domain';

export interface FeedScheduler {
  /** Runs the feeds that are due now; what the timer calls, and what tests call with a clock they move. */
  tick(): Promise<void>;
  /** Ends the timer and waits for a tick under way (its fetch and import), so the database can close after it. */
  stop(): Promise<void>;
}

/**
 * Checks every `intervalMs` which feeds are due and fetches them, one tick at a time (a tick that is still running when
 * the next is due lets it pass). The timer does not keep the process alive; `stop` ends it on shutdown.
 */
export function startFeedScheduler(
  runDueFeeds: RunDueFeeds,
  { intervalMs, onError }: { readonly intervalMs: number; readonly onError: (error: unknown) => void },
): FeedScheduler {
  let running: Promise<void> | null = null;
  const tick = async () => {
    if (running !== null) return running;
    running = runDueFeeds
      .execute()
      .then(() => undefined, onError)
      .finally(() => {
        running = null;
      });
    return running;
  };
  const timer = intervalMs > 0 ? setInterval(() => void tick(), intervalMs) : undefined;
  timer?.unref();
  return {
    tick,
    stop: async () => {
      clearInterval(timer);
      await running;
    },
  };
}
