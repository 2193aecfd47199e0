import type { Meal, MealId } from './meal.js';

/** What a withdrawal found: no meal, or the meal with the instant it was withdrawn at (the first time). */
export type Withdrawal = { readonly found: false } | { readonly found: true; readonly withdrawnAt: Date };

export interface MealCatalog {
  /**
   * Inserts or updates every meal atomically: all of them or none. Ratings and markings stay attached; a withdrawn
   * meal that is written again is served again. Each meal lands in its dish (see DishRepository).
   */
  upsertMany(meals: readonly Meal[]): Promise<number>;
  count(): Promise<number>;
  /**
   * Withdraws the meal (a menu correction) at `at`: it leaves the menus and the reads, cannot be marked or rated, and
   * keeps its markings and ratings (they stay in the user's data and in its dish's statistics). Idempotent: a meal
   * withdrawn before keeps its first instant.
   */
  withdraw(mealId: MealId, at: Date): Promise<Withdrawal>;
}
