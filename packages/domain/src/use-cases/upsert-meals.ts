import type { MealCatalog } from '../meal/meal-catalog.js';
import type { Meal } from '../meal/meal.js';
import { assertValidMeals } from '../meal/meal-validation.js';

/** Admin import: every meal or none. An existing meal keeps its ratings and markings. */
export class UpsertMeals {
  constructor(private readonly deps: { readonly meals: MealCatalog }) {}

  async execute(meals: readonly Meal[]): Promise<{ readonly upserted: number }> {
    assertValidMeals(meals);
    return { upserted: await this.deps.meals.upsertMany(meals) };
  }
}
