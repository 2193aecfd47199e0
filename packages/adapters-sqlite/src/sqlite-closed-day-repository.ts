import type { AuditNote, CanteenId, LocalDate } from '@canteen-meals/domain';
import type { ClosedDayRepository, DayClosure } from '@canteen-meals/domain/ports';
import type { Database, Statement, Transaction } from 'better-sqlite3';
import { SqliteAuditWriter } from './sqlite-audit-log.js';
import type { SqliteStorageHealth } from './storage-health.js';

export class SqliteClosedDayRepository implements ClosedDayRepository {
  private readonly between: Statement<[CanteenId, LocalDate, LocalDate], LocalDate>;
  private readonly recordAll: Transaction<
    (canteenId: CanteenId, days: readonly DayClosure[], audit: AuditNote<readonly DayClosure[]> | undefined) => void
  >;

  constructor(
    db: Database,
    private readonly health?: SqliteStorageHealth,
  ) {
    this.between = db
      .prepare<[CanteenId, LocalDate, LocalDate], LocalDate>(
        'SELECT day FROM closed_days WHERE canteen_id = ? AND day BETWEEN ? AND ? ORDER BY day',
      )
      .pluck();
    const close = db.prepare<[CanteenId, LocalDate]>(
      'INSERT OR IGNORE INTO closed_days (canteen_id, day) VALUES (?, ?)',
    );
    const open = db.prepare<[CanteenId, LocalDate]>('DELETE FROM closed_days WHERE canteen_id = ? AND day = ?');
    const auditLog = new SqliteAuditWriter(db);
    this.recordAll = db.transaction(
      (canteenId: CanteenId, days: readonly DayClosure[], audit: AuditNote<readonly DayClosure[]> | undefined) => {
        for (const { date, closed } of days) (closed ? close : open).run(canteenId, date);
        if (audit !== undefined) auditLog.append(audit(days));
      },
    );
  }

  async record(
    canteenId: CanteenId,
    days: readonly DayClosure[],
    audit?: AuditNote<readonly DayClosure[]>,
  ): Promise<void> {
    const write = () => this.recordAll.immediate(canteenId, days, audit);
    return this.health === undefined ? write() : this.health.guard(write);
  }

  async closedIn(canteenId: CanteenId, from: LocalDate, to: LocalDate): Promise<readonly LocalDate[]> {
    return this.between.all(canteenId, from, to);
  }
}
