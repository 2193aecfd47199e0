import {
  changesAnything,
  emptyHistogram,
  type MealId,
  type RatingChange,
  type RatingDecision,
  type RatingHistogram,
  type RatingRepository,
  type RatingValue,
  type UserId,
} from '@canteen-meals/domain';
import { InMemoryDatabase } from './in-memory-database.js';

export class InMemoryRatingRepository implements RatingRepository {
  constructor(private readonly db: InMemoryDatabase = new InMemoryDatabase()) {}

  async change(userId: UserId, mealId: MealId, decide: RatingDecision): Promise<RatingChange> {
    // Read, decide and write run without an await in between: no other change can interleave.
    const byUser = this.db.ratings.get(mealId);
    const change = decide({
      meal: this.db.meals.get(mealId),
      current: byUser?.get(userId) ?? null,
      histogram: this.db.histograms.get(mealId) ?? emptyHistogram,
    });
    if (!changesAnything(change)) return change;

    if (change.next === null) {
      byUser?.delete(userId);
    } else if (byUser === undefined) {
      this.db.ratings.set(mealId, new Map([[userId, change.next]]));
    } else {
      byUser.set(userId, change.next);
    }
    this.db.histograms.set(mealId, change.histogram);
    return change;
  }

  async findRating(userId: UserId, mealId: MealId): Promise<RatingValue | null> {
    return this.db.ratings.get(mealId)?.get(userId) ?? null;
  }

  async histogram(mealId: MealId): Promise<RatingHistogram> {
    return this.db.histograms.get(mealId) ?? emptyHistogram;
  }
}
