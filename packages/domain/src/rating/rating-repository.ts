import type { MealId } from '../meal/meal.js';
import type { Result } from '../shared/refusal.js';
import type { UserId } from '../shared/user-id.js';
import type { RatingRefusal } from './rating-rules.js';
import type { RatingChange, RatingSnapshot } from './rating-transition.js';

/**
 * Synchronous on purpose: an embedded database cannot hold a transaction open across an await. Pure: an adapter may
 * also ask it about the ratings the user could hold before it has read which one is stored (PostgreSQL decides ahead
 * of its read, see its README), but it answers the decision on the stored state.
 */
export type RatingDecision = (snapshot: RatingSnapshot) => Result<RatingChange, RatingRefusal>;

export interface RatingRepository {
  /**
   * One unit of work: read the meal, the user's rating and the meal's histogram, call `decide`, and write what it
   * accepts (the rating row and the histogram) atomically, answering the decision. When `decide` refuses, nothing is
   * written and the refusal is answered; when it throws, nothing is written and the error propagates. Concurrent
   * changes never lose an update and a user never holds two ratings of one meal.
   */
  change(userId: UserId, mealId: MealId, decide: RatingDecision): Promise<Result<RatingChange, RatingRefusal>>;
}
