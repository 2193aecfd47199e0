import type { AuditNote, CanteenId, LocalDate } from '@canteen-meals/domain';
import type { ClosedDayRepository, DayClosure } from '@canteen-meals/domain/ports';
import type { InMemoryDatabase } from './in-memory-database.js';

export class InMemoryClosedDayRepository implements ClosedDayRepository {
  constructor(private readonly db: InMemoryDatabase) {}

  async record(
    canteenId: CanteenId,
    days: readonly DayClosure[],
    audit?: AuditNote<readonly DayClosure[]>,
  ): Promise<void> {
    if (!this.db.canteens.has(canteenId)) throw new Error(`no canteen "${canteenId}"`);
    this.db.appendAudit(audit?.(days) ?? []);
    for (const { date, closed } of days) {
      if (closed) this.db.closedDays.add(`${canteenId} ${date}`);
      else this.db.closedDays.delete(`${canteenId} ${date}`);
    }
  }

  async closedIn(canteenId: CanteenId, from: LocalDate, to: LocalDate): Promise<readonly LocalDate[]> {
    const prefix = `${canteenId} `;
    return [...this.db.closedDays]
      .filter((key) => key.startsWith(prefix))
      .map((key) => key.slice(prefix.length))
      .filter((date) => date >= from && date <= to)
      .sort();
  }
}
