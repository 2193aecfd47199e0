import type { RunDueFeeds } from '@canteen-meals/domain';

export interface FeedScheduler {
  /**
   * Ends the scheduled fetches past their deadline, fetches the feeds that are due now and not already being fetched,
   * and answers when those have ended. What the timer calls, and what tests call with a clock they move.
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
  readonly onError: (error: unknown) => void;
}

/**
 * Checks every `intervalMs` which feeds are due and fetches them. Every tick runs, whatever an earlier tick still
 * fetches: the feeds that one holds are skipped, and the bounds (in all, per host) are shared, so a hanging host
 * delays its own feeds only, and a feed added meanwhile is fetched at the next tick. Deadlines are per fetch, kept by
 * RunDueFeeds on its clock at each tick. The timer does not keep the process alive; `stop` ends it on shutdown.
 */
export function startFeedScheduler(
  runDueFeeds: RunDueFeeds,
  { intervalMs, onError }: FeedSchedulerOptions,
): FeedScheduler {
  const stopping = new AbortController();
  const underWay = new Set<Promise<void>>();
  const tick = async () => {
    if (stopping.signal.aborted) return;
    const run = runDueFeeds.execute({ signal: stopping.signal }).then(() => undefined, onError);
    underWay.add(run);
    await run;
    underWay.delete(run);
  };
  const timer = intervalMs > 0 ? setInterval(() => void tick(), intervalMs) : undefined;
  timer?.unref();
  return {
    tick,
    stop: async () => {
      clearInterval(timer);
      stopping.abort();
      await Promise.all([...underWay]);
    },
  };
}
