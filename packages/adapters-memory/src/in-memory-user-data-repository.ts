import {
  subjectOf,
  withMealDetails,
  applyRatingChange,
  emptyHistogram,
  type ErasedUserData,
  type DetailedMeal,
  type UserData,
  type UserId,
} from '@canteen-meals/domain';
import type { UserDataRepository } from '@canteen-meals/domain/ports';
import { InMemoryDatabase } from './in-memory-database.js';

export class InMemoryUserDataRepository implements UserDataRepository {
  constructor(private readonly db: InMemoryDatabase = new InMemoryDatabase()) {}

  async exportAll(userId: UserId): Promise<UserData> {
    const mealOf = (id: number): DetailedMeal => withMealDetails(this.db.meals.get(id)!);
    const markedIds = [...(this.db.markings.get(userId) ?? [])].sort((a, b) => a - b);
    const ratings = [...this.db.ratings]
      .flatMap(([mealId, byUser]) => {
        const rating = byUser.get(userId);
        return rating === undefined ? [] : [{ meal: mealOf(mealId), rating }];
      })
      .sort((a, b) => a.meal.id - b.meal.id);
    return { markings: markedIds.map(mealOf), ratings };
  }

  async eraseAll(userId: UserId): Promise<ErasedUserData> {
    // Nothing awaits from here to the end: no rating change can interleave, as in one transaction.
    const markings = this.db.markings.get(userId)?.size ?? 0;
    this.db.markings.delete(userId);
    let ratings = 0;
    const erasedFrom: number[] = [];
    for (const [mealId, byUser] of this.db.ratings) {
      const rating = byUser.get(userId);
      if (rating === undefined) continue;
      const histogram = this.db.histograms.get(mealId) ?? emptyHistogram;
      this.db.histograms.set(mealId, applyRatingChange(histogram, rating, null));
      const dish = this.db.dishes.get(this.db.mealDishes.get(mealId)!)!;
      this.db.dishes.set(dish.id, { ...dish, histogram: applyRatingChange(dish.histogram, rating, null) });
      byUser.delete(userId);
      ratings += 1;
      erasedFrom.push(mealId);
    }
    for (const [key, delivery] of this.db.deliveries)
      if (subjectOf(delivery.event) === userId) this.db.deliveries.delete(key);
    // Read after every change: two of the meals may share a dish.
    const meals = erasedFrom
      .sort((a, b) => a - b)
      .map((mealId) => {
        const dish = this.db.dishes.get(this.db.mealDishes.get(mealId)!)!;
        return {
          mealId,
          histogram: this.db.histograms.get(mealId) ?? emptyHistogram,
          dish: { id: dish.id, histogram: dish.histogram },
        };
      });
    return { markings, ratings, meals };
  }
}
