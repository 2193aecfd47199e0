import { localDayRange } from '../calendar/local-day.js';
import type { LocalDate } from '../menu/local-time.js';
import type { MealId } from '../meal/meal.js';
import { mealOverviewOf, type MealOverview } from '../reading/meal-overview.js';
import type { MealQueries } from '../reading/meal-queries.js';
import type { Clock } from '../shared/clock.js';
import type { UserId } from '../shared/user-id.js';

/** The most meal ids one read may name (repeats included). */
export const maxMealIdsPerRead = 100;

export type GetMealsQuery =
  | { readonly userId: UserId; readonly mealIds: readonly MealId[] }
  | { readonly userId: UserId; readonly servedOn: LocalDate };

export interface GetMealsResult {
  /** By ids: in the order of the ids, each meal once. By day: by serving time, then id. */
  readonly meals: readonly MealOverview[];
  /** Requested ids that name no meal, each once, in request order; always empty for a day. */
  readonly unknownIds: readonly MealId[];
}

/** Many meals in one read: named by id, or all those served on one day of the service's time zone. */
export class GetMeals {
  constructor(
    private readonly deps: { readonly queries: MealQueries; readonly clock: Clock; readonly timeZone: string },
  ) {}

  async execute(query: GetMealsQuery): Promise<GetMealsResult> {
    return 'mealIds' in query ? this.byIds(query.userId, query.mealIds) : this.servedOn(query.userId, query.servedOn);
  }

  private async byIds(userId: UserId, requested: readonly MealId[]): Promise<GetMealsResult> {
    if (requested.length > maxMealIdsPerRead) {
      throw new RangeError(`at most ${maxMealIdsPerRead} meal ids per read, not ${requested.length}`);
    }
    const ids = [...new Set(requested)];
    const views = new Map((await this.deps.queries.viewsByIds(userId, ids)).map((view) => [view.meal.id, view]));
    const now = this.deps.clock.now();
    return {
      meals: ids.flatMap((id) => {
        const view = views.get(id);
        return view === undefined ? [] : [mealOverviewOf(view, now)];
      }),
      unknownIds: ids.filter((id) => !views.has(id)),
    };
  }

  private async servedOn(userId: UserId, date: LocalDate): Promise<GetMealsResult> {
    const { from, until } = localDayRange(date, this.deps.timeZone);
    const views = await this.deps.queries.viewsServedBetween(userId, from, until);
    const now = this.deps.clock.now();
    return { meals: views.map((view) => mealOverviewOf(view, now)), unknownIds: [] };
  }
}
