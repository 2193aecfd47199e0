import {
  availabilityChanged,
  availabilityChangedAt,
  availabilityEvent,
  type AuditNote,
  type AvailabilityChange,
  type AvailabilityRefusal,
  type AvailabilityStatus,
  type CanteenId,
  type MealId,
  type Result,
} from '@canteen-meals/domain';
import type { AvailabilityDecision, AvailabilityRepository } from '@canteen-meals/domain/ports';
import type { Database, Statement, Transaction } from 'better-sqlite3';
import { SqliteAuditWriter } from './sqlite-audit-log.js';
import { SqliteOutboxRecorder } from './sqlite-outbox-recorder.js';
import { availabilityFromRow, type AvailabilityRow } from './sqlite-meal-view.js';
import type { SqliteStorageHealth } from './storage-health.js';

type SnapshotRow = AvailabilityRow & { canteen_id: CanteenId; served_at: number; time_zone: string };

export class SqliteAvailabilityRepository implements AvailabilityRepository {
  private readonly selectSnapshot: Statement<[MealId], SnapshotRow>;
  private readonly update: Statement<[AvailabilityStatus, number, MealId]>;
  private readonly changeOnce: Transaction<
    (
      mealId: MealId,
      decide: AvailabilityDecision,
      audit: AuditNote<AvailabilityChange> | undefined,
    ) => Result<AvailabilityChange, AvailabilityRefusal>
  >;

  constructor(
    db: Database,
    private readonly health?: SqliteStorageHealth,
  ) {
    // A withdrawn meal reads as no meal.
    this.selectSnapshot =
      db.prepare(`SELECT meals.canteen_id, meals.served_at, meals.availability, meals.availability_changed_at,
        canteens.time_zone
      FROM meals JOIN canteens ON canteens.canteen_id = meals.canteen_id
      WHERE meals.meal_id = ? AND meals.withdrawn_at IS NULL`);
    this.update = db.prepare('UPDATE meals SET availability = ?, availability_changed_at = ? WHERE meal_id = ?');
    const outbox = new SqliteOutboxRecorder(db);
    const auditLog = new SqliteAuditWriter(db);
    this.changeOnce = db.transaction(
      (mealId: MealId, decide: AvailabilityDecision, audit: AuditNote<AvailabilityChange> | undefined) => {
        const row = this.selectSnapshot.get(mealId);
        const decision = decide(
          row === undefined
            ? undefined
            : {
                mealId,
                canteenId: row.canteen_id,
                servedAt: new Date(row.served_at),
                timeZone: row.time_zone,
                availability: availabilityFromRow(row),
              },
        );
        if (!decision.ok || !availabilityChanged(decision.value)) return decision;
        const at = availabilityChangedAt(decision.value);
        this.update.run(decision.value.next.status, at.getTime(), mealId);
        outbox.record([availabilityEvent(decision.value)], at);
        if (audit !== undefined) auditLog.append(audit(decision.value));
        return decision;
      },
    );
  }

  async change(
    mealId: MealId,
    decide: AvailabilityDecision,
    audit?: AuditNote<AvailabilityChange>,
  ): Promise<Result<AvailabilityChange, AvailabilityRefusal>> {
    // IMMEDIATE: the read and the write of one change are never split by another connection's change of the meal.
    const change = () => this.changeOnce.immediate(mealId, decide, audit);
    return this.health === undefined ? change() : this.health.guard(change);
  }
}
