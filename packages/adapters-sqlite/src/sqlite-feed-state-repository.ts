import type { CanteenId, FeedState } from '@canteen-meals/domain';
import type { FeedStateRepository } from '@canteen-meals/domain/ports';
import type { Database, Statement } from 'better-sqlite3';
import type { SqliteStorageHealth } from './storage-health.js';

interface FeedStateRow {
  canteen_id: string;
  feed_name: string;
  last_attempt_at: number | null;
  last_success_at: number | null;
  http_status: number | null;
  duration_ms: number | null;
  outcome: FeedState['outcome'];
  added: number | null;
  changed: number | null;
  unchanged: number | null;
  withdrawn: number | null;
  last_error: string | null;
  failures: number;
  etag: string | null;
  last_modified: string | null;
}

const feedStateColumns = [
  'canteen_id',
  'feed_name',
  'last_attempt_at',
  'last_success_at',
  'http_status',
  'duration_ms',
  'outcome',
  'added',
  'changed',
  'unchanged',
  'withdrawn',
  'last_error',
  'failures',
  'etag',
  'last_modified',
] as const;

const columnList = feedStateColumns.join(', ');

export class SqliteFeedStateRepository implements FeedStateRepository {
  private readonly byKey: Statement<[CanteenId, string], FeedStateRow>;
  private readonly byCanteen: Statement<[CanteenId], FeedStateRow>;
  private readonly upsert: Statement<FeedStateRow>;
  private readonly claimFirst: Statement<[CanteenId, string, number]>;
  private readonly claimNext: Statement<[number, CanteenId, string, number]>;
  private readonly remove: Statement<[CanteenId, string]>;

  constructor(
    db: Database,
    private readonly health?: SqliteStorageHealth,
  ) {
    this.byKey = db.prepare(`SELECT ${columnList} FROM feed_states WHERE canteen_id = ? AND feed_name = ?`);
    // BINARY collation: the names' bytes, as the other adapters compare them.
    this.byCanteen = db.prepare(`SELECT ${columnList} FROM feed_states WHERE canteen_id = ? ORDER BY feed_name`);
    // A run saves its outcome with its own start; a later claim (another run) keeps its later last attempt.
    const replaced = feedStateColumns
      .slice(2)
      .map((column) =>
        column === 'last_attempt_at'
          ? 'last_attempt_at = max(coalesce(feed_states.last_attempt_at, excluded.last_attempt_at), coalesce(excluded.last_attempt_at, feed_states.last_attempt_at))'
          : `${column} = excluded.${column}`,
      );
    this.upsert = db.prepare(`INSERT INTO feed_states (${columnList})
      VALUES (${feedStateColumns.map((column) => `@${column}`).join(', ')})
      ON CONFLICT (canteen_id, feed_name) DO UPDATE SET ${replaced.join(', ')}`);
    // A feed without an attempt (or without a row) is claimed by whoever comes first; a later run by whoever still
    // finds the attempt it read.
    this.claimFirst = db.prepare(`INSERT INTO feed_states (canteen_id, feed_name, last_attempt_at) VALUES (?, ?, ?)
      ON CONFLICT (canteen_id, feed_name) DO UPDATE SET last_attempt_at = excluded.last_attempt_at
      WHERE feed_states.last_attempt_at IS NULL`);
    this.remove = db.prepare('DELETE FROM feed_states WHERE canteen_id = ? AND feed_name = ?');
    this.claimNext = db.prepare(
      'UPDATE feed_states SET last_attempt_at = ? WHERE canteen_id = ? AND feed_name = ? AND last_attempt_at = ?',
    );
  }

  async claim(canteenId: CanteenId, feedName: string, expected: Date | null, at: Date): Promise<boolean> {
    const write = () =>
      (expected === null
        ? this.claimFirst.run(canteenId, feedName, at.getTime())
        : this.claimNext.run(at.getTime(), canteenId, feedName, expected.getTime())
      ).changes === 1;
    return this.health === undefined ? write() : this.health.guard(write);
  }

  async find(canteenId: CanteenId, feedName: string): Promise<FeedState | undefined> {
    const row = this.byKey.get(canteenId, feedName);
    return row === undefined ? undefined : feedStateFromRow(row);
  }

  async list(canteenId: CanteenId): Promise<readonly FeedState[]> {
    return this.byCanteen.all(canteenId).map(feedStateFromRow);
  }

  async forget(canteenId: CanteenId, feedName: string): Promise<void> {
    const write = () => void this.remove.run(canteenId, feedName);
    if (this.health === undefined) write();
    else this.health.guard(write);
  }

  async save(state: FeedState): Promise<void> {
    const write = () => void this.upsert.run(rowOf(state));
    if (this.health === undefined) write();
    else this.health.guard(write);
  }
}

function rowOf(state: FeedState): FeedStateRow {
  const { counts } = state;
  return {
    canteen_id: state.canteenId,
    feed_name: state.feedName,
    last_attempt_at: state.lastAttemptAt?.getTime() ?? null,
    last_success_at: state.lastSuccessAt?.getTime() ?? null,
    http_status: state.httpStatus,
    duration_ms: state.durationMs,
    outcome: state.outcome,
    added: counts?.added ?? null,
    changed: counts?.changed ?? null,
    unchanged: counts?.unchanged ?? null,
    withdrawn: counts?.withdrawn ?? null,
    last_error: state.lastError,
    failures: state.failures,
    etag: state.etag,
    last_modified: state.lastModified,
  };
}

function feedStateFromRow(row: FeedStateRow): FeedState {
  const instant = (ms: number | null) => (ms === null ? null : new Date(ms));
  return {
    canteenId: row.canteen_id,
    feedName: row.feed_name,
    lastAttemptAt: instant(row.last_attempt_at),
    lastSuccessAt: instant(row.last_success_at),
    httpStatus: row.http_status,
    durationMs: row.duration_ms,
    outcome: row.outcome,
    // The table's CHECK keeps the four counts all set or all NULL.
    counts:
      row.added === null || row.changed === null || row.unchanged === null || row.withdrawn === null
        ? null
        : { added: row.added, changed: row.changed, unchanged: row.unchanged, withdrawn: row.withdrawn },
    lastError: row.last_error,
    failures: row.failures,
    etag: row.etag,
    lastModified: row.last_modified,
  };
}
