import type { CanteenId, FeedState } from '@canteen-meals/domain';
import type { FeedStateRepository } from '@canteen-meals/domain/ports';
import type { Pool } from 'pg';
import type { PostgresStorageHealth } from './storage-health.js';

interface FeedStateRow {
  canteen_id: string;
  feed_name: string;
  /** timestamptz arrives as a Date; microseconds never occur, as only milliseconds are written. */
  last_attempt_at: Date | null;
  last_success_at: Date | null;
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

/** One statement: insert the state, or replace every field of the one stored. */
const upsert = `INSERT INTO feed_states (${columnList})
  VALUES (${feedStateColumns.map((_, index) => `$${index + 1}`).join(', ')})
  ON CONFLICT (canteen_id, feed_name) DO UPDATE SET
    ${feedStateColumns
      .slice(2)
      .map((column) =>
        // A run saves its outcome with its own start; a later claim (another run) keeps its later last attempt.
        column === 'last_attempt_at'
          ? 'last_attempt_at = GREATEST(feed_states.last_attempt_at, excluded.last_attempt_at)'
          : `${column} = excluded.${column}`,
      )
      .join(', ')}`;

export class PostgresFeedStateRepository implements FeedStateRepository {
  constructor(
    private readonly pool: Pool,
    private readonly health?: PostgresStorageHealth,
  ) {}

  async find(canteenId: CanteenId, feedName: string): Promise<FeedState | undefined> {
    const { rows } = await this.pool.query<FeedStateRow>(
      `SELECT ${columnList} FROM feed_states WHERE canteen_id = $1 AND feed_name = $2`,
      [canteenId, feedName],
    );
    return rows[0] === undefined ? undefined : feedStateFromRow(rows[0]);
  }

  /** By the names' bytes (COLLATE "C"), as the other adapters compare them, whatever the database's collation. */
  async list(canteenId: CanteenId): Promise<readonly FeedState[]> {
    const { rows } = await this.pool.query<FeedStateRow>(
      `SELECT ${columnList} FROM feed_states WHERE canteen_id = $1 ORDER BY feed_name COLLATE "C"`,
      [canteenId],
    );
    return rows.map(feedStateFromRow);
  }

  async claim(canteenId: CanteenId, feedName: string, expected: Date | null, at: Date): Promise<boolean> {
    // One statement, atomic across instances: the row is inserted (no attempt yet) or its attempt moved only while it
    // still is the one this instance read.
    const claim = () =>
      expected === null
        ? this.pool.query(
            `INSERT INTO feed_states (canteen_id, feed_name, last_attempt_at) VALUES ($1, $2, $3)
             ON CONFLICT (canteen_id, feed_name) DO UPDATE SET last_attempt_at = excluded.last_attempt_at
             WHERE feed_states.last_attempt_at IS NULL`,
            [canteenId, feedName, at],
          )
        : this.pool.query(
            'UPDATE feed_states SET last_attempt_at = $1 WHERE canteen_id = $2 AND feed_name = $3 AND last_attempt_at = $4',
            [at, canteenId, feedName, expected],
          );
    const { rowCount } = await (this.health === undefined ? claim() : this.health.guard(claim));
    return rowCount === 1;
  }

  async forget(canteenId: CanteenId, feedName: string): Promise<void> {
    const remove = () =>
      this.pool.query('DELETE FROM feed_states WHERE canteen_id = $1 AND feed_name = $2', [canteenId, feedName]);
    await (this.health === undefined ? remove() : this.health.guard(remove));
  }

  async save(state: FeedState): Promise<void> {
    const { counts } = state;
    const write = () =>
      this.pool.query(upsert, [
        state.canteenId,
        state.feedName,
        state.lastAttemptAt,
        state.lastSuccessAt,
        state.httpStatus,
        state.durationMs,
        state.outcome,
        counts?.added ?? null,
        counts?.changed ?? null,
        counts?.unchanged ?? null,
        counts?.withdrawn ?? null,
        state.lastError,
        state.failures,
        state.etag,
        state.lastModified,
      ]);
    await (this.health === undefined ? write() : this.health.guard(write));
  }
}

function feedStateFromRow(row: FeedStateRow): FeedState {
  return {
    canteenId: row.canteen_id,
    feedName: row.feed_name,
    lastAttemptAt: row.last_attempt_at,
    lastSuccessAt: row.last_success_at,
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
