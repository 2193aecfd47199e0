import type { Canteen } from '../canteen/canteen.js';
import type { CanteenRepository } from '../canteen/canteen-repository.js';
import { hostOfHttpUrl, neverFetched, type CanteenFeed, type FeedState } from '../feed/canteen-feed.js';
import type { CancelSignal, FeedStateRepository, NextRun } from '../feed/feed-ports.js';
import { CancelSwitch } from '../feed/cancel-switch.js';
import { nextFeedAttemptAt } from '../feed/feed-retry.js';
import { BoundedRunner, settleAll, type RunBounds } from '../shared/bounded-runs.js';
import type { Clock } from '../shared/clock.js';
import { type RunFeed, listsFeed } from './run-feed.js';

/** How many feeds are fetched at once: in all, and from one host (4 and 1 unless configured). */
export const defaultFeedRunBounds: RunBounds = { concurrency: 4, perKey: 1 };

/** A scheduled fetch under way this long after its start is ended (FEED_RUN_DEADLINE_S unless configured). */
export const defaultScheduledFetchDeadlineMs = 300_000;

/**
 * Every feed that is due (its schedule fired since its last attempt, its retry after a failure came, or it was never
 * fetched), fetched a few at a time: a hanging host holds its own slot, not every other canteen's feeds. The bounds
 * hold across runs: a run takes the due feeds that this process is not already fetching or holding for a slot, so a
 * run under way never holds back the next one, and a feed added while a host hangs is fetched at the next run.
 */
export class RunDueFeeds {
  private readonly runner: BoundedRunner;
  /** The feeds (canteen, name and URL) that a run of this process fetches or holds for a slot now. */
  private readonly taken = new Set<string>();
  /** The fetches under way, with their starts: each run ends those past their deadline. */
  private readonly underWay = new Set<{ readonly startedAt: number; readonly cancel: CancelSwitch }>();

  constructor(
    private readonly deps: {
      readonly canteens: CanteenRepository;
      readonly feedStates: FeedStateRepository;
      readonly runFeed: RunFeed;
      readonly nextRun: NextRun;
      readonly clock: Clock;
      readonly bounds?: RunBounds;
      /** Counted from each fetch's start on the clock; a feed waiting for a slot has no deadline (nor claim) yet. */
      readonly deadlineMs?: number;
    },
  ) {
    this.runner = new BoundedRunner(deps.bounds ?? defaultFeedRunBounds);
  }

  /**
   * Ends the fetches past their deadline, then takes the feeds that are due and not taken yet. `signal`: the service
   * stops; every fetch a run started then ends as a failure, and feeds not started stay due (unclaimed). Answers when
   * the feeds this run took have ended (not those an earlier run still fetches).
   */
  async execute({ signal }: { readonly signal?: CancelSignal } = {}): Promise<readonly FeedState[]> {
    const now = this.deps.clock.now();
    this.endOverdue(now);
    const due = (await this.dueFeeds(now)).filter((entry) => !this.taken.has(takenKey(entry)));
    return settleAll(
      due.map((entry) => {
        const key = takenKey(entry);
        this.taken.add(key);
        return this.runner
          .schedule(hostOfHttpUrl(entry.feed.url), () => this.claimAndRun(entry, signal))
          .finally(() => this.taken.delete(key));
      }),
    );
  }

  /** Checked at every run, on the clock: a deadline is kept to within one check interval. */
  private endOverdue(now: Date): void {
    const deadlineMs = this.deps.deadlineMs ?? defaultScheduledFetchDeadlineMs;
    for (const fetch of this.underWay) if (now.getTime() - fetch.startedAt >= deadlineMs) fetch.cancel.cancel();
  }

  private async dueFeeds(now: Date): Promise<DueFeed[]> {
    const due: DueFeed[] = [];
    for (const canteen of await this.deps.canteens.list()) {
      if (canteen.feeds.length === 0) continue;
      const states = new Map((await this.deps.feedStates.list(canteen.id)).map((state) => [state.feedName, state]));
      for (const feed of canteen.feeds) {
        const state = states.get(feed.name) ?? neverFetched(canteen.id, feed.name);
        const next = nextFeedAttemptAt(feed, state, canteen.timeZone, this.deps.nextRun, now);
        if (next !== null && next <= now) due.push({ canteen, feed, lastAttemptAt: state.lastAttemptAt });
      }
    }
    return due;
  }

  /**
   * Claimed only when its turn comes, so a feed waiting for a slot stays due for another instance; its deadline counts
   * from then. A feed whose URL changed (or that was removed) while it waited is left: its claim would be the new
   * URL's, which would then wait for its schedule unfetched.
   */
  private async claimAndRun(
    { canteen, feed, lastAttemptAt }: DueFeed,
    stopping: CancelSignal | undefined,
  ): Promise<FeedState | undefined> {
    if (stopping?.aborted) return undefined;
    const current = await this.deps.canteens.find(canteen.id);
    if (current === undefined || !listsFeed(current, feed)) return undefined;
    const startedAt = this.deps.clock.now();
    // Another instance that found it due first runs it; this one leaves it.
    if (!(await this.deps.feedStates.claim(canteen.id, feed.name, lastAttemptAt, startedAt))) return undefined;
    const fetch = { startedAt: startedAt.getTime(), cancel: new CancelSwitch(stopping) };
    this.underWay.add(fetch);
    try {
      return await this.deps.runFeed.once(current, feed, startedAt, fetch.cancel);
    } finally {
      this.underWay.delete(fetch);
      fetch.cancel.release();
    }
  }
}

/** A feed whose URL changed is another fetch: the new URL does not wait for the old one's. */
const takenKey = ({ canteen, feed }: DueFeed) => `${canteen.id}\n${feed.name}\n${feed.url}`;

interface DueFeed {
  readonly canteen: Canteen;
  readonly feed: CanteenFeed;
  readonly lastAttemptAt: Date | null;
}
