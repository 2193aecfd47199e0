import { neverFetched, type CanteenId, type FeedState } from '@canteen-meals/domain';
import type { FeedStateRepository } from '@canteen-meals/domain/ports';
import { InMemoryDatabase } from './in-memory-database.js';

export class InMemoryFeedStateRepository implements FeedStateRepository {
  constructor(private readonly db: InMemoryDatabase = new InMemoryDatabase()) {}

  async find(canteenId: CanteenId, feedName: string): Promise<FeedState | undefined> {
    const state = this.db.feedStates.get(`${canteenId}\n${feedName}`);
    return state === undefined ? undefined : copyOf(state);
  }

  async list(canteenId: CanteenId): Promise<readonly FeedState[]> {
    return [...this.db.feedStates.values()]
      .filter((state) => state.canteenId === canteenId)
      .sort((a, b) => (a.feedName < b.feedName ? -1 : a.feedName > b.feedName ? 1 : 0))
      .map(copyOf);
  }

  async save(state: FeedState): Promise<void> {
    const key = `${state.canteenId}\n${state.feedName}`;
    const stored = this.db.feedStates.get(key)?.lastAttemptAt ?? null;
    // A run saves its outcome with its own start; a later claim (another run) keeps its later last attempt.
    const lastAttemptAt =
      stored !== null && (state.lastAttemptAt === null || stored > state.lastAttemptAt) ? stored : state.lastAttemptAt;
    this.db.feedStates.set(key, copyOf({ ...state, lastAttemptAt }));
  }

  async forget(canteenId: CanteenId, feedName: string): Promise<void> {
    this.db.feedStates.delete(`${canteenId}\n${feedName}`);
  }

  async claim(canteenId: CanteenId, feedName: string, expected: Date | null, at: Date): Promise<boolean> {
    const key = `${canteenId}\n${feedName}`;
    const state = this.db.feedStates.get(key) ?? neverFetched(canteenId, feedName);
    if ((state.lastAttemptAt?.getTime() ?? null) !== (expected?.getTime() ?? null)) return false;
    this.db.feedStates.set(key, { ...copyOf(state), lastAttemptAt: new Date(at.getTime()) });
    return true;
  }
}

function copyOf(state: FeedState): FeedState {
  const instant = (date: Date | null) => (date === null ? null : new Date(date.getTime()));
  return {
    ...state,
    lastAttemptAt: instant(state.lastAttemptAt),
    lastSuccessAt: instant(state.lastSuccessAt),
    counts: state.counts === null ? null : { ...state.counts },
  };
}
