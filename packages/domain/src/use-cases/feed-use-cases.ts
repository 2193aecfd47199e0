import type { Canteen, CanteenId } from '../canteen/canteen.js';
import type { CanteenRepository } from '../canteen/canteen-repository.js';
import {
  boundedFeedError,
  hostOfHttpUrl,
  neverFetched,
  type CanteenFeed,
  type FeedState,
} from '../feed/canteen-feed.js';
import {
  FeedSourceError,
  type CancelSignal,
  type FeedSource,
  type FeedStateRepository,
  type MenuFeedReader,
  type NextRun,
} from '../feed/feed-ports.js';
import { CancelSwitch } from '../feed/cancel-switch.js';
import { nextFeedAttemptAt } from '../feed/feed-retry.js';
import { BoundedRunner, settleAll, type RunBounds } from '../shared/bounded-runs.js';
import type { Clock } from '../shared/clock.js';
import { accept, refuse, type Result } from '../shared/refusal.js';
import type { ImportMenu } from './import-menu.js';

export const runFeedRefusals = ['canteen_not_found', 'feed_not_found'] as const;
type RunFeedRefusal = (typeof runFeedRefusals)[number];

/** A feed with what the service remembers of it, and when its schedule fires next. */
export interface FeedSummary {
  readonly feed: CanteenFeed;
  readonly state: FeedState;
  readonly nextRunAt: Date | null;
}

/**
 * Fetches one feed of a canteen and imports it, all or nothing, with the identity rules of every import (meal ids
 * stable across fetches, dishes by name, coming meals the feed no longer lists withdrawn). A fetch that fails, or a
 * feed that cannot be read, changes no menu; the outcome is remembered either way. One fetch of a feed at a time in
 * this process: a request while one runs waits for it and answers its outcome.
 */
export class RunFeed {
  private readonly running = new Map<string, Promise<FeedState>>();
  /** The latest scheduled run this process claimed, per feed: a run it joined must not take that claim for another's. */
  private readonly ownClaims = new Map<string, number>();

  constructor(
    private readonly deps: {
      readonly canteens: CanteenRepository;
      readonly feedStates: FeedStateRepository;
      readonly feedSource: FeedSource;
      readonly feedReader: MenuFeedReader;
      readonly importMenu: ImportMenu;
      readonly clock: Clock;
      /** Told every outcome, once it is saved. */
      readonly onRan?: (state: FeedState) => void;
    },
  ) {}

  /** `signal` ends the fetch (its deadline passed): the run then records a failure and answers it. */
  async execute({
    canteenId,
    feedName,
    signal,
  }: {
    readonly canteenId: CanteenId;
    readonly feedName: string;
    readonly signal?: CancelSignal;
  }): Promise<Result<FeedState, RunFeedRefusal>> {
    const canteen = await this.deps.canteens.find(canteenId);
    if (canteen === undefined) return refuse('canteen_not_found');
    const feed = canteen.feeds.find((candidate) => candidate.name === feedName);
    if (feed === undefined) return refuse('feed_not_found');
    return accept(await this.once(canteen, feed, undefined, signal));
  }

  /**
   * Runs the feed unless a run of it is under way, whose outcome it then answers. `claimedAt`: the scheduled run this
   * process claimed for it (see FeedStateRepository.claim).
   */
  once(canteen: Canteen, feed: CanteenFeed, claimedAt?: Date, signal?: CancelSignal): Promise<FeedState> {
    const key = `${canteen.id}\n${feed.name}`;
    if (claimedAt !== undefined) this.ownClaims.set(key, Math.max(this.ownClaims.get(key) ?? 0, claimedAt.getTime()));
    // A feed whose URL changed is another fetch: it does not join, nor wait for, the old URL's.
    const runKey = `${key}\n${feed.url}`;
    const under = this.running.get(runKey);
    if (under !== undefined) return under;
    const run = this.fetchAndImport(canteen, feed, claimedAt !== undefined, signal).finally(() =>
      this.running.delete(runKey),
    );
    this.running.set(runKey, run);
    return run;
  }

  private async stillListed(canteen: Canteen, feed: CanteenFeed): Promise<boolean> {
    return listsFeed(await this.deps.canteens.find(canteen.id), feed);
  }

  private async fetchAndImport(
    canteen: Canteen,
    feed: CanteenFeed,
    claimed: boolean,
    signal: CancelSignal | undefined,
  ): Promise<FeedState> {
    const { feedStates, feedSource, feedReader, importMenu, clock } = this.deps;
    const key = `${canteen.id}\n${feed.name}`;
    const before = (await feedStates.find(canteen.id, feed.name)) ?? neverFetched(canteen.id, feed.name);
    const startedAt = clock.now();
    // The attempt is stored before the fetch (a scheduled run's claim already is): a feed whose run killed the process
    // then waits for its next due time after a restart instead of being fetched again at once. Never moved back.
    const later = before.lastAttemptAt === null || startedAt > before.lastAttemptAt;
    if (!claimed && later && (await feedStates.claim(canteen.id, feed.name, before.lastAttemptAt, startedAt))) {
      this.ownClaims.set(key, Math.max(this.ownClaims.get(key) ?? 0, startedAt.getTime()));
    }
    const took = () => Math.max(0, clock.now().getTime() - startedAt.getTime());
    let after: FeedState;
    /** A failure of the service itself: recorded without its message, then passed on to be logged. */
    let internal: Error | undefined;
    /** The status of the answer once one came: a feed refused after a 200 still reports it. */
    let answered: number | null = null;
    try {
      const validators = { etag: before.etag, lastModified: before.lastModified };
      const fetched = await feedSource.fetch(feed.url, validators, signal === undefined ? {} : { signal });
      answered = fetched.httpStatus;
      if (fetched.status === 'not_modified') {
        after = {
          ...before,
          lastAttemptAt: startedAt,
          lastSuccessAt: startedAt,
          httpStatus: fetched.httpStatus,
          durationMs: took(),
          outcome: 'not_modified',
          lastError: null,
          failures: 0,
        };
      } else {
        // A run that outlived its claim (another instance claimed a later run meanwhile) commits nothing: the later
        // run imports the newer feed. The check and the import are two steps; the window between them is one query.
        const current = await feedStates.find(canteen.id, feed.name);
        const ours = Math.max(before.lastAttemptAt?.getTime() ?? 0, this.ownClaims.get(key) ?? 0);
        if ((current?.lastAttemptAt?.getTime() ?? 0) > ours) return current!;
        if (!(await this.stillListed(canteen, feed))) return current ?? before;
        const { days } = await readableFeed(async () => feedReader.read(fetched.body));
        // Every feed of a canteen (full, today) names the same meals: the canteen is the source of their keys.
        const imported = await importMenu.execute({
          source: canteen.id,
          days,
          rateable: true,
          canteenId: canteen.id,
          cause: 'feed',
        });
        if (!imported.ok) throw new ReportableError(imported.refusal.message);
        const plan = imported.value;
        after = {
          ...before,
          lastAttemptAt: startedAt,
          lastSuccessAt: startedAt,
          httpStatus: fetched.httpStatus,
          durationMs: took(),
          outcome: 'imported',
          counts: {
            added: plan.added.length,
            changed: plan.updated.length,
            unchanged: plan.unchanged.length,
            withdrawn: plan.withdrawn.length,
          },
          lastError: null,
          failures: 0,
          etag: fetched.etag,
          lastModified: fetched.lastModified,
        };
      }
    } catch (error) {
      if (!(error instanceof Error)) throw error;
      // What went wrong with the feed is for the admin to read; a failure of the service itself (its database) is not.
      const reportable = error instanceof FeedSourceError || error instanceof ReportableError;
      if (!reportable) internal = error;
      after = {
        ...before,
        lastAttemptAt: startedAt,
        httpStatus: error instanceof FeedSourceError ? error.httpStatus : answered,
        durationMs: took(),
        outcome: 'failed',
        // A hostile feed's text (a 4 MB attribute quoted in a message) stays out of the store, the API and the log.
        lastError: reportable
          ? boundedFeedError(error.message)
          : 'the import failed inside the service; its log says why',
        failures: before.failures + 1,
      };
    }
    // The feed's URL changed (or it was removed) while this fetch ran: its state now belongs to the new URL.
    if (await this.stillListed(canteen, feed)) {
      await feedStates.save(after);
      this.deps.onRan?.(after);
    }
    if (internal !== undefined) throw internal;
    return after;
  }
}

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

/** Whether the canteen, as stored now, still lists the feed at the same URL (a PUT may have moved or removed it). */
function listsFeed(canteen: Canteen | undefined, feed: CanteenFeed): boolean {
  return canteen?.feeds.some((listed) => listed.name === feed.name && listed.url === feed.url) ?? false;
}

/** A feed whose URL changed is another fetch: the new URL does not wait for the old one's. */
const takenKey = ({ canteen, feed }: DueFeed) => `${canteen.id}\n${feed.name}\n${feed.url}`;

interface DueFeed {
  readonly canteen: Canteen;
  readonly feed: CanteenFeed;
  readonly lastAttemptAt: Date | null;
}

export const listFeedsRefusals = ['canteen_not_found'] as const;

/** A canteen's feeds with their last outcomes and next runs (admin). */
export class ListFeeds {
  constructor(
    private readonly deps: {
      readonly canteens: CanteenRepository;
      readonly feedStates: FeedStateRepository;
      readonly nextRun: NextRun;
      readonly clock: Clock;
    },
  ) {}

  async execute({
    canteenId,
  }: {
    readonly canteenId: CanteenId;
  }): Promise<Result<readonly FeedSummary[], 'canteen_not_found'>> {
    const canteen = await this.deps.canteens.find(canteenId);
    if (canteen === undefined) return refuse('canteen_not_found');
    const states = new Map((await this.deps.feedStates.list(canteenId)).map((state) => [state.feedName, state]));
    const now = this.deps.clock.now();
    return accept(
      canteen.feeds.map((feed) => {
        const state = states.get(feed.name) ?? neverFetched(canteen.id, feed.name);
        return { feed, state, nextRunAt: nextFeedAttemptAt(feed, state, canteen.timeZone, this.deps.nextRun, now) };
      }),
    );
  }
}

/** A failure of the feed (it cannot be read, or its menu was refused): its message goes to the admin. */
class ReportableError extends Error {}

async function readableFeed<T>(read: () => Promise<T>): Promise<T> {
  try {
    return await read();
  } catch (error) {
    throw error instanceof Error ? new ReportableError(error.message) : error;
  }
}
