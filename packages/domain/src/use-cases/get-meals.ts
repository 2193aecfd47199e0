import { localDayRange } from '../calendar/local-day.js';
import type { CanteenId } from '../canteen/canteen.js';
import type { CanteenRepository } from '../canteen/canteen-repository.js';
import { daysFrom, type LocalDate } from '../menu/local-time.js';
import type { MealId } from '../meal/meal.js';
import { mealReadingOf, type MealReading } from '../reading/meal-reading.js';
import type { MealQueries, MenuPosition, ServingWindow } from '../reading/meal-queries.js';
import type { Clock } from '../shared/clock.js';
import { accept, mapResult, refuse, type Result } from '../shared/refusal.js';
import type { UserId } from '../shared/user-id.js';

/** The most meal ids one read may name (repeats included). */
export const maxMealIdsPerRead = 100;

/** The longest menu one read covers: `from` and `to` at most 13 days apart. */
export const maxMenuDays = 14;

/**
 * The most meals one answer of every canteen's day holds: its meals come in pages of this many, in menu order. (One
 * canteen's day holds at most as many, so a page never ends because of a single canteen.)
 */
export const maxMealsPerDayPage = 500;

export type GetMealsQuery =
  | { readonly userId: UserId; readonly mealIds: readonly MealId[] }
  /**
   * One day: of one canteen, or of every canteen (each judged on its own clocks) when `canteenId` is absent; then in
   * pages of `maxMealsPerDayPage` meals, from the start or strictly after `after`.
   */
  | {
      readonly userId: UserId;
      readonly servedOn: LocalDate;
      readonly canteenId?: CanteenId | undefined;
      readonly after?: MenuPosition | null | undefined;
    }
  /** The days `from` to `to`, both included, of one canteen. */
  | { readonly userId: UserId; readonly canteenId: CanteenId; readonly from: LocalDate; readonly to: LocalDate };

export interface GetMealsResult {
  /** By ids: in the order of the ids, each meal once. By days: by serving time, then menu position, then id. */
  readonly meals: readonly MealReading[];
  /** Requested ids that name no meal, each once, in request order; always empty for days. */
  readonly unknownIds: readonly MealId[];
  /** Every canteen's day: where the next page starts; null when this one is the last (and for every other read). */
  readonly next: MenuPosition | null;
}

export const getMealsRefusals = ['canteen_not_found', 'invalid_menu_range'] as const;

export type GetMealsRefusal = (typeof getMealsRefusals)[number];

export interface GetMealsDeps {
  readonly queries: MealQueries;
  readonly canteens: CanteenRepository;
  readonly clock: Clock;
}

/** Many meals in one read: named by id, or all those one canteen (or every canteen) serves on some days. */
export class GetMeals {
  constructor(private readonly deps: GetMealsDeps) {}

  async execute(query: GetMealsQuery): Promise<Result<GetMealsResult, GetMealsRefusal>> {
    if ('mealIds' in query) return accept(await this.byIds(query.userId, query.mealIds));
    if ('servedOn' in query && query.canteenId === undefined) return accept(await this.everyCanteenDay(query));
    const windows = 'servedOn' in query ? await this.dayWindows(query) : await this.rangeWindows(query);
    if (!windows.ok) return windows;
    const now = this.deps.clock.now();
    const views = await this.deps.queries.viewsServedIn(query.userId, windows.value, now);
    return accept({ meals: views.map((view) => mealReadingOf(view, now)), unknownIds: [], next: null });
  }

  /** One page of the meals every canteen serves on a day, each canteen's day on its own clocks. */
  private async everyCanteenDay(query: {
    readonly userId: UserId;
    readonly servedOn: LocalDate;
    readonly after?: MenuPosition | null | undefined;
  }): Promise<GetMealsResult> {
    const canteens = await this.deps.canteens.list();
    const windows = canteens.map((canteen) => ({
      canteenId: canteen.id,
      ...daysRange(query.servedOn, query.servedOn, canteen.timeZone),
    }));
    const now = this.deps.clock.now();
    // One meal more than the page holds tells whether another page follows, without counting.
    const page = { after: query.after ?? null, limit: maxMealsPerDayPage + 1 };
    const views = await this.deps.queries.viewsServedIn(query.userId, windows, now, page);
    const meals = views.slice(0, maxMealsPerDayPage);
    const last = meals.at(-1)?.meal;
    return {
      meals: meals.map((view) => mealReadingOf(view, now)),
      unknownIds: [],
      next:
        views.length > maxMealsPerDayPage && last !== undefined
          ? { servedAt: last.servedAt, position: last.position, mealId: last.id }
          : null,
    };
  }

  private async byIds(userId: UserId, requested: readonly MealId[]): Promise<GetMealsResult> {
    if (requested.length > maxMealIdsPerRead) {
      throw new RangeError(`at most ${maxMealIdsPerRead} meal ids per read, not ${requested.length}`);
    }
    const ids = [...new Set(requested)];
    const now = this.deps.clock.now();
    const views = new Map((await this.deps.queries.viewsByIds(userId, ids, now)).map((view) => [view.meal.id, view]));
    return {
      meals: ids.flatMap((id) => {
        const view = views.get(id);
        return view === undefined ? [] : [mealReadingOf(view, now)];
      }),
      unknownIds: ids.filter((id) => !views.has(id)),
      next: null,
    };
  }

  private async dayWindows(query: {
    readonly servedOn: LocalDate;
    readonly canteenId?: CanteenId | undefined;
  }): Promise<Result<ServingWindow[], GetMealsRefusal>> {
    return this.rangeWindows({ canteenId: query.canteenId!, from: query.servedOn, to: query.servedOn });
  }

  private async rangeWindows(query: {
    readonly canteenId: CanteenId;
    readonly from: LocalDate;
    readonly to: LocalDate;
  }): Promise<Result<ServingWindow[], GetMealsRefusal>> {
    return mapResult(await menuWindow(this.deps.canteens, query), (window) => [window]);
  }
}

/** How many days a read of a canteen's days may cover, and what to call such a read when it covers more. */
export interface MenuSpan {
  readonly maxDays: number;
  readonly readName: string;
}

/** A menu read: at most `maxMenuDays` (14). */
export const menuReadSpan: MenuSpan = { maxDays: maxMenuDays, readName: 'a menu read' };

/**
 * The span of time of the days `from` to `to` of one canteen, on its clocks; refused when longer than `span` allows
 * (a menu read by default) or when the canteen is unknown.
 */
export async function menuWindow(
  canteens: CanteenRepository,
  query: { readonly canteenId: CanteenId; readonly from: LocalDate; readonly to: LocalDate },
  span: MenuSpan = menuReadSpan,
): Promise<Result<ServingWindow, GetMealsRefusal>> {
  return mapResult(await canteenDaysWindow(canteens, query, span), ({ window }) => window);
}

/**
 * menuWindow with the canteen's time zone, for a reader that needs each meal's local day: the days `from` to `to`,
 * as many as `span` allows, of one canteen, on its clocks.
 */
export async function canteenDaysWindow(
  canteens: CanteenRepository,
  query: { readonly canteenId: CanteenId; readonly from: LocalDate; readonly to: LocalDate },
  span: MenuSpan,
): Promise<Result<{ readonly window: ServingWindow; readonly timeZone: string }, GetMealsRefusal>> {
  if (query.to < query.from) return refuse('invalid_menu_range', '`to` must not be before `from`');
  // By day numbers, not text: past year 9999 the text of a date has a sign and six digits and sorts first.
  if (daysFrom(query.from, query.to) >= span.maxDays) {
    return refuse('invalid_menu_range', `${span.readName} covers at most ${span.maxDays} days`);
  }
  const canteen = await canteens.find(query.canteenId);
  if (canteen === undefined) return refuse('canteen_not_found');
  const window = { canteenId: canteen.id, ...daysRange(query.from, query.to, canteen.timeZone) };
  return accept({ window, timeZone: canteen.timeZone });
}

/** The instants of the days `from` to `to` on the clocks of `timeZone`. */
function daysRange(from: LocalDate, to: LocalDate, timeZone: string): { from: Date; until: Date } {
  return { from: localDayRange(from, timeZone).from, until: localDayRange(to, timeZone).until };
}
