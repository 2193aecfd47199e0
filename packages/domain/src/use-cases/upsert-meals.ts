import { nobodyListens, type MenuChangeListener } from '../reading/menu-change.js';
import type { CanteenRepository } from '../canteen/canteen-repository.js';
import type { MealCatalog } from '../meal/meal-catalog.js';
import { defaultCanteenId } from '../canteen/canteen.js';
import type { Meal } from '../meal/meal.js';
import { validateMeals } from '../meal/meal-validation.js';
import { accept, refuse, type Result } from '../shared/refusal.js';

/** Every refusal UpsertMeals can answer. */
export const upsertMealsRefusals = ['invalid_meal', 'canteen_not_found'] as const;

type UpsertMealsRefusal = (typeof upsertMealsRefusals)[number];

/**
 * Admin import: every meal or none. An existing meal keeps its ratings and markings. A meal that names no canteen
 * goes to `default`; one without a position takes its place in the batch.
 */
export class UpsertMeals {
  constructor(
    private readonly deps: { readonly meals: MealCatalog; readonly canteens: CanteenRepository; readonly announce?: MenuChangeListener },
  ) {}

  async execute(meals: readonly Meal[]): Promise<Result<{ readonly upserted: number }, UpsertMealsRefusal>> {
    const valid = validateMeals(meals);
    if (!valid.ok) return valid;
    const placed = meals.map((meal, index) => ({
      ...meal,
      canteenId: meal.canteenId ?? defaultCanteenId,
      position: meal.position ?? index,
    }));
    for (const canteenId of new Set(placed.map((meal) => meal.canteenId))) {
      if ((await this.deps.canteens.find(canteenId)) === undefined) {
        return refuse('canteen_not_found', `The canteen "${canteenId}" does not exist.`);
      }
    }
    const upserted = await this.deps.meals.upsertMany(placed);
    (this.deps.announce ?? nobodyListens)({ kind: 'menus' });
    return accept({ upserted });
  }
}
