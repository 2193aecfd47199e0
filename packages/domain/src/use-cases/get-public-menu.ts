import type { CanteenId } from '../canteen/canteen.js';
import type { LocalDate } from '../menu/local-time.js';
import type { ClosedDayRepository } from '../menu/closed-day-repository.js';
import { mealReadingOf, type MealReading } from '../reading/meal-reading.js';
import { accept, type Result } from '../shared/refusal.js';
import { menuReadSpan, menuWindow, type GetMealsDeps, type GetMealsRefusal, type MenuSpan } from './get-meals.js';

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
  /** The days of the menu that the canteen is closed on, ascending. */
  readonly closedDays: readonly LocalDate[];
  /** The instant the menu was read as of. */
  readonly asOf: Date;
}

/** A canteen's menu for some days as anyone sees it: every meal with its statistics, nothing personal. */
export class GetPublicMenu {
  /** Without `closedDays`, no day is known to be closed. */
  constructor(private readonly deps: GetMealsDeps & { readonly closedDays?: ClosedDayRepository }) {}

  /** `span`: how many days it may cover; a menu read's 14 unless a use case built on it allows more (rankings). */
  async execute(days: MenuDays, span: MenuSpan = menuReadSpan): Promise<Result<PublicMenu, GetMealsRefusal>> {
    const window = await menuWindow(this.deps.canteens, days, span);
    if (!window.ok) return window;
    const asOf = this.deps.clock.now();
    const [views, closedDays] = await Promise.all([
      this.deps.queries.viewsServedIn(null, [window.value], asOf),
      this.deps.closedDays?.closedIn(window.value.canteenId, days.from, days.to) ?? [],
    ]);
    return accept({ meals: views.map((view) => mealReadingOf(view, asOf)), closedDays, asOf });
  }
}
