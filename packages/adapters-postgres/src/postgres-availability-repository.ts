import {
  availabilityChanged,
  availabilityChangedAt,
  availabilityEvent,
  type AuditNote,
  type AvailabilityChange,
  type AvailabilityRefusal,
  type CanteenId,
  type MealId,
  type Result,
} from '@canteen-meals/domain';
import type { AvailabilityDecision, AvailabilityRepository } from '@canteen-meals/domain/ports';
import { appendAuditRecords } from './postgres-audit-log.js';
import { availabilityFromRow, type AvailabilityRow } from './meal-views.js';
import { fromEpochMs } from './meal-rows.js';
import { recordEvents } from './outbox-records.js';
import type { TransactionRunner } from './transaction.js';

type SnapshotRow = AvailabilityRow & { canteen_id: CanteenId; served_at: Date; time_zone: string };

export class PostgresAvailabilityRepository implements AvailabilityRepository {
  constructor(private readonly transactions: TransactionRunner) {}

  /**
   * One transaction: the meal's row is locked as it is read (of two changes at once, the second waits and then decides
   * on what the first wrote), the decision is asked, and a change of status is written with its event.
   */
  async change(
    mealId: MealId,
    decide: AvailabilityDecision,
    audit?: AuditNote<AvailabilityChange>,
  ): Promise<Result<AvailabilityChange, AvailabilityRefusal>> {
    return this.transactions.run(async (client) => {
      const { rows } = await client.query<SnapshotRow>(
        `SELECT meals.canteen_id, meals.served_at, meals.availability, meals.availability_changed_at, canteens.time_zone
         FROM meals JOIN canteens ON canteens.canteen_id = meals.canteen_id
         WHERE meals.meal_id = $1 AND meals.withdrawn_at IS NULL
         FOR UPDATE OF meals`,
        [mealId],
      );
      const row = rows[0];
      const decision = decide(
        row === undefined
          ? undefined
          : {
              mealId,
              canteenId: row.canteen_id,
              servedAt: row.served_at,
              timeZone: row.time_zone,
              availability: availabilityFromRow(row),
            },
      );
      if (!decision.ok || !availabilityChanged(decision.value)) return decision;
      const at = availabilityChangedAt(decision.value);
      await client.query(
        `UPDATE meals SET availability = $1, availability_changed_at = ${fromEpochMs('$2')} WHERE meal_id = $3`,
        [decision.value.next.status, at.getTime(), mealId],
      );
      await recordEvents(client, [availabilityEvent(decision.value)], at);
      if (audit !== undefined) await appendAuditRecords(client, audit(decision.value));
      return decision;
    });
  }
}
