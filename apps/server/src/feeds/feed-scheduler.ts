import type { RunDueFeeds } from '@canteen-meals/domain';

export interface FeedScheduler {
  /**
   * Fetches the feeds that are due now and not already being fetched; answers when those have ended. What the timer
   * calls, and what tests call with a clock they move.
   */
  tick(): Promise<void>;
  /**
   * Ends the timer, ends the fetches of every tick under way (each records its failure) and waits for them, so the
   * database can close after it: a hanging feed host cannot hold up a shutdown.
   */
  stop(): Promise<void>;
}

export interface FeedSchedulerOptions {
  readonly intervalMs: number;
  /** One deadline per tick: its fetches under way end then, and feeds it has not started wait for a later tick. */
  readonly runDeadlineMs: number;
  readonly onError: (error: unknown) => void;
}

/**
 * Checks every `intervalMs` which feeds are due and fetches them. Every tick runs, whatever an earlier tick still
 * fetches: the feeds that one holds are skipped, and the bounds (in all, per host) are shared, so a hanging host
 * delays its own feeds only, and a feed added meanwhile is fetched at the next tick. The timer does not keep the process
 * alive; `stop` ends it on shutdown.
 */
export function startFeedScheduler(runDueFeeds: RunDueFeeds, { intervalMs, runDeadlineMs, onError }: FeedSchedulerOptions): FeedScheduler {
  const underWay = new Set<{ readonly done: Promise<void>; readonly controller: AbortController }>();
  let stopped = false;
  const tick = async () => {
    if (stopped) return;
    const controller = new AbortController();
    const deadline = setTimeout(() => controller.abort(), runDeadlineMs);
    deadline.unref();
    const run = {
      controller,
      done: runDueFeeds
        .execute({ signal: controller.signal })
        .then(() => undefined, onError)
        .finally(() => {
          clearTimeout(deadline);
          underWay.delete(run);
        }),
    };
    underWay.add(run);
    return run.done;
  };
  const timer = intervalMs > 0 ? setInterval(() => void tick(), intervalMs) : undefined;
  timer?.unref();
  return {
    tick,
    stop: async () => {
      stopped = true;
      clearInterval(timer);
      const runs = [...underWay];
      for (const run of runs) run.controller.abort();
      await Promise.all(runs.map((run) => run.done));
    },
  };
}
