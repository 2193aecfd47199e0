import type { Canteen, CanteenId } from '../canteen/canteen.js';
import type { CanteenRepository } from '../canteen/canteen-repository.js';
import { boundedFeedError, neverFetched, type CanteenFeed, type FeedState } from '../feed/canteen-feed.js';
import {
  FeedSourceError,
  type CancelSignal,
  type FeedSource,
  type FeedStateRepository,
  type MenuFeedReader,
} from '../feed/feed-ports.js';
import type { AuditActor } from '../audit/audit-entry.js';
import { feedFetchAuditRecord } from '../audit/audit-notes.js';
import type { AuditLog } from '../audit/audit-log.js';
import type { Clock } from '../shared/clock.js';
import { accept, refuse, type Result } from '../shared/refusal.js';
import type { ImportMenu } from './import-menu.js';

export const runFeedRefusals = ['canteen_not_found', 'feed_not_found'] as const;

type RunFeedRefusal = (typeof runFeedRefusals)[number];

/**
 * Fetches one feed of a canteen and imports it, all or nothing, with the identity rules of every import (meal ids
 * stable across fetches, dishes by name, coming meals the feed no longer lists withdrawn). A fetch that fails, or a
 * feed that cannot be read, changes no menu; the outcome is remembered either way. One fetch of a feed at a time in
 * this process: a request while one runs waits for it and answers its outcome.
 */
export class RunFeed {
  private readonly running = new Map<string, Promise<FeedState>>();
  /**
   * The latest scheduled run this process claimed, per feed: a run it joined must not take that claim for another's.
   */
  private readonly ownClaims = new Map<string, number>();

  constructor(
    private readonly deps: {
      readonly canteens: CanteenRepository;
      readonly feedStates: FeedStateRepository;
      readonly feedSource: FeedSource;
      readonly feedReader: MenuFeedReader;
      readonly importMenu: ImportMenu;
      readonly clock: Clock;
      /** Where a fetch by hand is recorded; absent: nowhere. */
      readonly audit?: AuditLog;
      /** Told every outcome, once it is saved. */
      readonly onRan?: (state: FeedState) => void;
    },
  ) {}

  /** `signal` ends the fetch (its deadline passed): the run then records a failure and answers it. */
  async execute({
    canteenId,
    feedName,
    signal,
    by,
  }: {
    readonly canteenId: CanteenId;
    readonly feedName: string;
    readonly signal?: CancelSignal;
    /** Who fetches it by hand: the fetch and its outcome are recorded in the audit trail. */
    readonly by?: AuditActor | undefined;
  }): Promise<Result<FeedState, RunFeedRefusal>> {
    const canteen = await this.deps.canteens.find(canteenId);
    if (canteen === undefined) return refuse('canteen_not_found');
    const feed = canteen.feeds.find((candidate) => candidate.name === feedName);
    if (feed === undefined) return refuse('feed_not_found');
    const at = this.deps.clock.now();
    const state = await this.once(canteen, feed, undefined, signal);
    // A fetch changes the menu through an import of its own (the feed's), not in one unit of work with this entry.
    if (by !== undefined) {
      const ok = state.outcome !== 'failed';
      await this.deps.audit?.append([
        feedFetchAuditRecord(by, at, canteenId, feedName, { ok, httpStatus: state.httpStatus }),
      ]);
    }
    return accept(state);
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

/** Whether the canteen, as stored now, still lists the feed at the same URL (a PUT may have moved or removed it). */
export function listsFeed(canteen: Canteen | undefined, feed: CanteenFeed): boolean {
  return canteen?.feeds.some((listed) => listed.name === feed.name && listed.url === feed.url) ?? false;
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
