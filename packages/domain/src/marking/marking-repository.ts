import type { MealId } from '../meal/meal.js';
import type { UserId } from '../shared/user-id.js';

export interface MarkingRepository {
  /**
   * Sets the user's marking of the meal, in one step with checking that the meal exists: answers false, and writes
   * nothing, when it does not. Idempotent: setting the state a marking already has changes nothing.
   */
  setMarked(userId: UserId, mealId: MealId, marked: boolean): Promise<boolean>;
}
