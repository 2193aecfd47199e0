import type { CanteenId } from '../canteen/canteen.js';
import type { LocalDate } from '../menu/local-time.js';
import { mealReadingOf, type MealReading } from '../reading/meal-reading.js';
import type { PersonalState } from '../reading/meal-queries.js';
import type { UserId } from '../shared/user-id.js';
import { accept, type Result } from '../shared/refusal.js';
import { menuWindow, type GetMealsDeps, type GetMealsRefusal } from './get-meals.js';

/** The days `from` to `to`, both included, of one canteen: what a public menu and its personal overlay cover. */
export interface MenuDays {
  readonly canteenId: CanteenId;
  readonly from: LocalDate;
  readonly to: LocalDate;
}

/** The refusals of a menu read: the same as those of GetMeals for days. */
export const getMenuRefusals = ['canteen_not_found', 'invalid_menu_range'] as const;

export interface PublicMenu {
  readonly meals: readonly MealReading[];
  /** The instant the menu was read as of. */
  readonly asOf: Date;
}

/** A canteen's menu for some days as anyone sees it: every meal with its statistics, nothing personal. */
export class GetPublicMenu {
  constructor(private readonly deps: GetMealsDeps) {}

  async execute(days: MenuDays): Promise<Result<PublicMenu, GetMealsRefusal>> {
    const window = await menuWindow(this.deps.canteens, days);
    if (!window.ok) return window;
    const asOf = this.deps.clock.now();
    const views = await this.deps.queries.viewsServedIn(null, [window.value], asOf);
    return accept({ meals: views.map((view) => mealReadingOf(view, asOf)), asOf });
  }
}

/**
 * A user's own part of a canteen's menu for some days: the meals they have marked or rated, with their marking and
 * rating, in menu order. With the public menu it makes the personalized menu.
 */
export class GetPersonalStates {
  constructor(private readonly deps: GetMealsDeps) {}

  async execute(query: MenuDays & { readonly userId: UserId }): Promise<Result<readonly PersonalState[], GetMealsRefusal>> {
    const window = await menuWindow(this.deps.canteens, query);
    if (!window.ok) return window;
    return accept(await this.deps.queries.personalStatesServedIn(query.userId, [window.value]));
  }
}
