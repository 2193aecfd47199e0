import type { Meal, MealId, RatingHistogram, RatingValue, UserId } from '@meals/domain';

/** The state every in-memory adapter shares, as one database would be shared by the SQL adapters. */
export class InMemoryDatabase {
  readonly meals = new Map<MealId, Meal>();
  readonly histograms = new Map<MealId, RatingHistogram>();
  /** mealId -> userId -> rating */
  readonly ratings = new Map<MealId, Map<UserId, RatingValue>>();
  /** userId -> marked meal ids */
  readonly markings = new Map<UserId, Set<MealId>>();
}
