import type { DetailedMeal, Meal, MealId } from './meal.js';

export interface MealCatalog {
  /** The meal with every detail filled in (absent ones as their defaults). */
  findById(id: MealId): Promise<DetailedMeal | undefined>;
  /** Inserts or updates every meal atomically: all of them or none. Ratings and markings stay attached. */
  upsertMany(meals: readonly Meal[]): Promise<number>;
  count(): Promise<number>;
}
