import type { CanteenId } from '../canteen/canteen.js';
import type { MealCatalog } from '../meal/meal-catalog.js';
import type { MealId } from '../meal/meal.js';

/**
 * Where meals belong, for the access policy: the canteens of the meals among `mealIds` that exist, withdrawn ones and
 * those of an archived canteen included (an upsert that serves one again touches its canteen), each canteen once.
 */
export class LocateMeals {
  constructor(private readonly deps: { readonly meals: MealCatalog }) {}

  async execute(mealIds: readonly MealId[]): Promise<CanteenId[]> {
    if (mealIds.length === 0) return [];
    return [...new Set((await this.deps.meals.canteensOf(mealIds)).values())];
  }
}
