import type { RunDueFeeds } from '@canteen-meals/domain';

export interface FeedScheduler {
  /** Runs the feeds that are due now; what the timer calls, and what tests call with a clock they move. */
  tick(): Promise<void>;
  /**
   * Ends the timer, ends the fetches of a tick under way (each records its failure) and waits for that tick, so the
   * database can close after it: a hanging feed host cannot hold up a shutdown.
   */
  stop(): Promise<void>;
}

export interface FeedSchedulerOptions {
  readonly intervalMs: number;
  /** One deadline per tick: its fetches under way end then, and feeds it has not started wait for the next tick. */
  readonly runDeadlineMs: number;
  readonly onError: (error: unknown) => void;
}

/**
 * Checks every `intervalMs` which feeds are due and fetches them, one tick at a time (a tick that is still running when
 * the next is due lets it pass). The timer does not keep the process alive; `stop` ends it on shutdown.
 */
export function startFeedScheduler(runDueFeeds: RunDueFeeds, { intervalMs, runDeadlineMs, onError }: FeedSchedulerOptions): FeedScheduler {
  let running: { readonly done: Promise<void>; readonly controller: AbortController } | null = null;
  let stopped = false;
  const tick = async () => {
    if (running !== null) return running.done;
    if (stopped) return;
    const controller = new AbortController();
    const deadline = setTimeout(() => controller.abort(), runDeadlineMs);
    deadline.unref();
    const done = runDueFeeds
      .execute({ signal: controller.signal })
      .then(() => undefined, onError)
      .finally(() => {
        clearTimeout(deadline);
        running = null;
      });
    running = { done, controller };
    return done;
  };
  const timer = intervalMs > 0 ? setInterval(() => void tick(), intervalMs) : undefined;
  timer?.unref();
  return {
    tick,
    stop: async () => {
      stopped = true;
      clearInterval(timer);
      running?.controller.abort();
      await running?.done;
    },
  };
}
