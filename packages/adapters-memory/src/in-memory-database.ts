import type { DetailedMeal, LocalDate, MealId, MealSourceKey, RatingHistogram, RatingValue, UserId } from '@canteen-meals/domain';

/** The state every in-memory adapter shares, as one database would be shared by the SQL adapters. */
export class InMemoryDatabase {
  readonly meals = new Map<MealId, DetailedMeal>();
  readonly histograms = new Map<MealId, RatingHistogram>();
  /** mealId -> userId -> rating */
  readonly ratings = new Map<MealId, Map<UserId, RatingValue>>();
  /** userId -> marked meal ids */
  readonly markings = new Map<UserId, Set<MealId>>();
  /** Imported meals by source key: which meal each key names, for which source and day. */
  readonly mealSources = new Map<MealSourceKey, { mealId: MealId; source: string; servedOn: LocalDate }>();
}
