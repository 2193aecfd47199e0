import {
  availabilityChanged,
  availabilityChangedAt,
  availabilityEvent,
  initialAvailability,
  type AuditNote,
  type AvailabilityChange,
  type AvailabilityRefusal,
  type MealId,
  type Result,
} from '@canteen-meals/domain';
import type { AvailabilityDecision, AvailabilityRepository } from '@canteen-meals/domain/ports';
import { InMemoryDatabase } from './in-memory-database.js';

export class InMemoryAvailabilityRepository implements AvailabilityRepository {
  constructor(private readonly db: InMemoryDatabase = new InMemoryDatabase()) {}

  async change(
    mealId: MealId,
    decide: AvailabilityDecision,
    audit?: AuditNote<AvailabilityChange>,
  ): Promise<Result<AvailabilityChange, AvailabilityRefusal>> {
    // Read, decide and write run without an await in between: no other change can interleave.
    const meal = this.db.withdrawn.has(mealId) ? undefined : this.db.meals.get(mealId);
    const timeZone = meal === undefined ? undefined : this.db.timeZonesOf([meal.canteenId]).get(meal.canteenId);
    const decision = decide(
      meal === undefined || timeZone === undefined
        ? undefined
        : {
            mealId,
            canteenId: meal.canteenId,
            servedAt: new Date(meal.servedAt.getTime()),
            timeZone,
            availability: this.db.availability.get(mealId) ?? initialAvailability,
          },
    );
    if (!decision.ok || !availabilityChanged(decision.value)) return decision;
    // Asked before the first write: a note that throws leaves the store untouched, as a rolled back transaction would.
    const records = audit?.(decision.value) ?? [];
    this.db.appendAudit(records);
    this.db.availability.set(mealId, decision.value.next);
    this.db.recordEvents([availabilityEvent(decision.value)], availabilityChangedAt(decision.value));
    return decision;
  }
}
