import type { MealId } from '../meal/meal.js';
import type { Result } from '../shared/refusal.js';
import type { GetMealsRefusal } from '../use-cases/get-meals.js';
import type { MenuDays } from '../use-cases/get-public-menu.js';
import type { MenuSelection } from './menu-selection.js';

/** A public menu of some days with the meals of one selection, in whatever form a reader keeps it (JSON, bytes). */
export interface SelectedMenu {
  /** The meals it shows, in menu order. */
  readonly mealIds: readonly MealId[];
}

/**
 * Port: the public menu of some days and a selection (adapters keep these answers between reads). Equal selections
 * (see menuSelectionKey) answer the same menu.
 */
export interface SelectedMenus<A extends SelectedMenu> {
  answer(days: MenuDays, selection: MenuSelection): Promise<Result<A, GetMealsRefusal>>;
}
