import type { MealId } from '../meal/meal.js';
import type { UserId } from '../shared/user-id.js';

export interface MarkingRepository {
  /** Idempotent: setting the state a marking already has changes nothing. */
  setMarked(userId: UserId, mealId: MealId, marked: boolean): Promise<void>;
  isMarked(userId: UserId, mealId: MealId): Promise<boolean>;
}
