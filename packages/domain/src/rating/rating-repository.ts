import type { MealId } from '../meal/meal.js';
import type { UserId } from '../shared/user-id.js';
import type { RatingHistogram } from './rating-histogram.js';
import type { RatingChange, RatingSnapshot } from './rating-transition.js';
import type { RatingValue } from './rating.js';

/** Synchronous on purpose: an embedded database cannot hold a transaction open across an await. */
export type RatingDecision = (snapshot: RatingSnapshot) => RatingChange;

export interface RatingRepository {
  /**
   * One unit of work: read the meal, the user's rating and the meal's histogram, call `decide`, and write what it
   * returns (the rating row and the histogram) atomically. When `decide` throws, nothing is written and the error
   * propagates. Concurrent changes never lose an update and a user never holds two ratings of one meal.
   */
  change(userId: UserId, mealId: MealId, decide: RatingDecision): Promise<RatingChange>;
  findRating(userId: UserId, mealId: MealId): Promise<RatingValue | null>;
  histogram(mealId: MealId): Promise<RatingHistogram>;
}
