import type { AuditNote, DishId, DishMerge, DishMergeOutcome, DishMergeRefusal, Result } from '@canteen-meals/domain';
import type { DishMergeDecision, DishRepository } from '@canteen-meals/domain/ports';
import { InMemoryDatabase } from './in-memory-database.js';

export class InMemoryDishRepository implements DishRepository {
  constructor(private readonly db: InMemoryDatabase = new InMemoryDatabase()) {}

  async merge(
    target: DishId,
    from: readonly DishId[],
    decide: DishMergeDecision,
    audit?: AuditNote<DishMergeOutcome>,
  ): Promise<Result<DishMerge, DishMergeRefusal>> {
    // Read, decide and write run without an await in between, as in one transaction.
    const dishOf = (id: DishId) => {
      const dish = this.db.dishes.get(id);
      return dish === undefined ? undefined : { id: dish.id, canteenId: dish.canteenId, histogram: dish.histogram };
    };
    const decision = decide({
      target: dishOf(target),
      sources: [...new Set(from)].flatMap((id) => dishOf(id) ?? []),
    });
    if (!decision.ok) return decision;
    const merge = decision.value;
    const canteenId = this.db.dishes.get(merge.target)?.canteenId;
    if (canteenId !== undefined) this.db.appendAudit(audit?.({ ...merge, canteenId }) ?? []);
    const moved = new Set(merge.sources);
    for (const [mealId, dishId] of this.db.mealDishes)
      if (moved.has(dishId)) this.db.mealDishes.set(mealId, merge.target);
    for (const [key, name] of this.db.dishNames)
      if (moved.has(name.dishId)) this.db.dishNames.set(key, { ...name, dishId: merge.target });
    // Aversions follow their dish; one who avoided two merged dishes keeps the earliest instant.
    for (const mine of this.db.aversions.values()) {
      for (const source of moved) {
        const since = mine.get(source);
        if (since === undefined) continue;
        mine.delete(source);
        const kept = mine.get(merge.target);
        if (kept === undefined || since < kept) mine.set(merge.target, since);
      }
    }
    for (const id of moved) this.db.dishes.delete(id);
    const kept = this.db.dishes.get(merge.target)!;
    this.db.dishes.set(merge.target, { ...kept, histogram: merge.histogram });
    return decision;
  }
}
