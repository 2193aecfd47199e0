import {
  changesAnything,
  emptyHistogram,
  type MealId,
  type RatingChange,
  type RatingRefusal,
  type Result,
  type UserId,
} from '@canteen-meals/domain';
import type { RatingDecision, RatingRepository } from '@canteen-meals/domain/ports';
import { InMemoryDatabase } from './in-memory-database.js';

export class InMemoryRatingRepository implements RatingRepository {
  constructor(private readonly db: InMemoryDatabase = new InMemoryDatabase()) {}

  async change(userId: UserId, mealId: MealId, decide: RatingDecision): Promise<Result<RatingChange, RatingRefusal>> {
    // Read, decide and write run without an await in between: no other change can interleave.
    const byUser = this.db.ratings.get(mealId);
    // A withdrawn meal is no meal to rate.
    const meal = this.db.withdrawn.has(mealId) ? undefined : this.db.meals.get(mealId);
    const dish = meal === undefined ? undefined : this.db.dishes.get(this.db.mealDishes.get(mealId)!);
    const decision = decide({
      meal,
      current: meal === undefined ? null : (byUser?.get(userId) ?? null),
      histogram: meal === undefined ? emptyHistogram : (this.db.histograms.get(mealId) ?? emptyHistogram),
      dish: dish === undefined ? undefined : { id: dish.id, histogram: dish.histogram },
    });
    if (!decision.ok || !changesAnything(decision.value)) return decision;
    const change = decision.value;

    if (change.next === null) {
      byUser?.delete(userId);
    } else if (byUser === undefined) {
      this.db.ratings.set(mealId, new Map([[userId, change.next]]));
    } else {
      byUser.set(userId, change.next);
    }
    this.db.histograms.set(mealId, change.histogram);
    if (change.dish !== null) {
      const stored = this.db.dishes.get(change.dish.id)!;
      this.db.dishes.set(stored.id, { ...stored, histogram: change.dish.histogram });
    }
    return decision;
  }
}
