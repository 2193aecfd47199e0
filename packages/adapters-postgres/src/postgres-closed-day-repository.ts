import type { AuditNote, CanteenId, LocalDate } from '@canteen-meals/domain';
import type { ClosedDayRepository, DayClosure } from '@canteen-meals/domain/ports';
import type { Pool } from 'pg';
import { appendAuditRecords } from './postgres-audit-log.js';
import type { PostgresStorageHealth } from './storage-health.js';
import type { TransactionRunner } from './transaction.js';

// One statement per write: the days to close are inserted and the days to open deleted together, atomically.
const record = `WITH given AS (SELECT * FROM unnest($2::date[], $3::boolean[]) AS g (day, closed)),
  opened AS (DELETE FROM closed_days AS c USING given WHERE c.canteen_id = $1 AND c.day = given.day AND NOT given.closed)
  INSERT INTO closed_days (canteen_id, day) SELECT $1, day FROM given WHERE closed ON CONFLICT DO NOTHING`;

export class PostgresClosedDayRepository implements ClosedDayRepository {
  constructor(
    private readonly pool: Pool,
    private readonly health?: PostgresStorageHealth,
    /** Where a write with an audit note runs: the days and their entries in one transaction. */
    private readonly transactions?: TransactionRunner,
  ) {}

  async record(
    canteenId: CanteenId,
    days: readonly DayClosure[],
    audit?: AuditNote<readonly DayClosure[]>,
  ): Promise<void> {
    if (days.length === 0) return;
    const params = [canteenId, days.map((day) => day.date), days.map((day) => day.closed)];
    if (audit !== undefined && this.transactions !== undefined) {
      await this.transactions.run(async (client) => {
        await client.query(record, params);
        await appendAuditRecords(client, audit(days));
      });
      return;
    }
    const write = () => this.pool.query(record, params);
    await (this.health === undefined ? write() : this.health.guard(write));
  }

  async closedIn(canteenId: CanteenId, from: LocalDate, to: LocalDate): Promise<readonly LocalDate[]> {
    const { rows } = await this.pool.query<{ day: string }>(
      `SELECT to_char(day, 'YYYY-MM-DD') AS day FROM closed_days WHERE canteen_id = $1 AND day BETWEEN $2 AND $3 ORDER BY day`,
      [canteenId, from, to],
    );
    return rows.map((row) => row.day);
  }
}
