import { localDayOf } from '../calendar/local-day.js';
import type { StoredCanteen } from '../canteen/canteen.js';
import type { CanteenRepository } from '../canteen/canteen-repository.js';
import type { ClosedDayRepository } from '../menu/closed-day-repository.js';
import type { LocalDate } from '../menu/local-time.js';
import { mealReadingOf, type MealReading } from '../reading/meal-reading.js';
import type { MealQueries } from '../reading/meal-queries.js';
import type { Clock } from '../shared/clock.js';
import { accept, type Result } from '../shared/refusal.js';
import { canteenDaysWindow, type GetMealsRefusal, type MenuSpan } from './get-meals.js';

/** A day of a canteen's menu that has something to say: its meals in menu order, or that it is closed. */
export interface MenuDayReading {
  readonly date: LocalDate;
  readonly closed: boolean;
  /** Empty when closed. */
  readonly meals: readonly MealReading[];
}

export interface MenuDaysReading {
  readonly canteen: StoredCanteen;
  /** Ascending; a day with no meal that is not closed is left out. */
  readonly days: readonly MenuDayReading[];
  readonly asOf: Date;
}

/** The longest read of menu days: two months, what OpenMensa's day lists cover from their start. */
export const maxMenuDaysRead = 62;

const menuDaysSpan: MenuSpan = { maxDays: maxMenuDaysRead, readName: 'a read of menu days' };

export interface GetMenuDaysDeps {
  readonly queries: MealQueries;
  readonly canteens: CanteenRepository;
  readonly closedDays: ClosedDayRepository;
  readonly clock: Clock;
}

/**
 * A canteen's days from `from` to `to` as menus tell them (OpenMensa's days): each day that serves a meal or is
 * closed, with its meals. A closed day shows no meal even if one was written after it was closed.
 */
export class GetMenuDays {
  constructor(private readonly deps: GetMenuDaysDeps) {}

  async execute(query: {
    readonly canteenId: string;
    readonly from: LocalDate;
    readonly to: LocalDate;
  }): Promise<Result<MenuDaysReading, GetMealsRefusal>> {
    const window = await canteenDaysWindow(this.deps.canteens, query, menuDaysSpan);
    if (!window.ok) return window;
    const canteen = (await this.deps.canteens.find(query.canteenId))!;
    const asOf = this.deps.clock.now();
    const [views, closed] = await Promise.all([
      this.deps.queries.viewsServedIn(null, [window.value.window], asOf),
      this.deps.closedDays.closedIn(canteen.id, query.from, query.to),
    ]);
    const days = new Map<LocalDate, { date: LocalDate; closed: boolean; meals: MealReading[] }>(
      closed.map((date) => [date, { date, closed: true, meals: [] }]),
    );
    for (const view of views) {
      const date = localDayOf(view.meal.servedAt, canteen.timeZone).date;
      let day = days.get(date);
      if (day === undefined) days.set(date, (day = { date, closed: false, meals: [] }));
      if (!day.closed) day.meals.push(mealReadingOf(view, asOf));
    }
    const ascending = [...days.values()].sort((a, b) => (a.date < b.date ? -1 : 1));
    return accept({ canteen, days: ascending, asOf });
  }
}
