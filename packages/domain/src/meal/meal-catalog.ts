import type { Meal, MealId } from './meal.js';

export interface MealCatalog {
  findById(id: MealId): Promise<Meal | undefined>;
  /** Inserts or updates every meal atomically: all of them or none. Ratings and markings stay attached. */
  upsertMany(meals: readonly Meal[]): Promise<number>;
  count(): Promise<number>;
}
