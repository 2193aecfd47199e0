import { localDayOf, type LocalDay } from '../calendar/local-day.js';
import type { CanteenId } from '../canteen/canteen.js';
import type { DishId } from '../dish/dish.js';
import type { DetailedMeal } from '../meal/meal.js';
import type { LocalDate } from '../menu/local-time.js';
import type { RatingHistogram } from '../rating/rating-histogram.js';
import { ratingStatistics, type RatingStatistics } from '../rating/rating-statistics.js';
import type { MenuPosition } from '../reading/meal-queries.js';
import type { PersonalMeal } from '../reading/personal-meal.js';
import { accept, type Result } from '../shared/refusal.js';
import { canteenDaysWindow, type GetMealsDeps, type GetMealsRefusal, type MenuSpan } from './get-meals.js';

/**
 * The longest span one ratings report covers: a year, leap day included. A canteen's day holds at most
 * `maxMealsPerCanteenDay` (500) meals, so a report has at most 183 000 rows.
 */
export const maxReportDays = 366;

const reportSpan: MenuSpan = { maxDays: maxReportDays, readName: 'a report' };

/** Meals read from the database at a time: a report of a year never holds all its meals at once. */
export const reportPageSize = 2000;

/** The refusals of a report: those of a menu read (an unknown canteen, `to` before `from` or too far from it). */
export const getRatingsReportRefusals = ['canteen_not_found', 'invalid_menu_range'] as const;

export interface RatingsReportQuery {
  readonly canteenId: CanteenId;
  readonly from: LocalDate;
  readonly to: LocalDate;
}

/** One meal of a report: when and what it was, and how it was rated. */
export interface RatingsReportRow {
  /** The calendar day the meal was served on, on the clocks of its canteen. */
  readonly date: LocalDate;
  readonly meal: DetailedMeal;
  readonly dish: { readonly id: DishId; readonly name: string };
  readonly statistics: RatingStatistics;
  /** How many ratings of each value 1..5 the meal holds; index 0 counts the 1s. */
  readonly distribution: RatingHistogram;
  /**
   * When the kitchen said the serving sold out, if it is sold out now (a sold-out meal set back to available is not).
   */
  readonly soldOutAt: Date | null;
}

export interface RatingsReport {
  /**
   * The meals of the days asked for that are not withdrawn, in menu order (serving time, position, id). Iterate it
   * once: after the first page, each page of `reportPageSize` meals is read as the rows before it are consumed.
   */
  readonly rows: AsyncIterable<RatingsReportRow>;
  /** The instant the ratings were read as of: each page reads the database as it is then, with this instant's clock. */
  readonly asOf: Date;
}

/**
 * Every meal one canteen served on some days (up to `maxReportDays`) with its rating statistics, for spreadsheets:
 * nothing personal. The meals are read a page at a time in menu order (the first page before the answer, so that a
 * failing database fails the request, not the file half-way) and the rows are made as they are iterated: a caller
 * that writes them out as it goes holds one page of meals and nothing more.
 */
export class GetRatingsReport {
  constructor(private readonly deps: GetMealsDeps) {}

  async execute(query: RatingsReportQuery): Promise<Result<RatingsReport, GetMealsRefusal>> {
    const days = await canteenDaysWindow(this.deps.canteens, query, reportSpan);
    if (!days.ok) return days;
    const asOf = this.deps.clock.now();
    const { window, timeZone } = days.value;
    const read = (after: MenuPosition | null) =>
      this.deps.queries.viewsServedIn(null, [window], asOf, { after, limit: reportPageSize });
    const first = await read(null);
    return accept({ rows: rowsOf(first, read, timeZone), asOf });
  }
}

async function* rowsOf(
  first: readonly PersonalMeal[],
  read: (after: MenuPosition | null) => Promise<readonly PersonalMeal[]>,
  timeZone: string,
): AsyncGenerator<RatingsReportRow> {
  // Menu order is by serving time: a day's meals follow one another, so only the first meal of a day costs the time
  // zone arithmetic (at most one per day of the report, not one per row).
  let day: LocalDay | undefined;
  for (let page = first; ; ) {
    for (const { meal, histogram, dish, availability } of page) {
      if (day === undefined || meal.servedAt < day.from || meal.servedAt >= day.until)
        day = localDayOf(meal.servedAt, timeZone);
      yield {
        date: day.date,
        meal,
        dish: { id: dish.id, name: dish.name },
        statistics: ratingStatistics(histogram),
        distribution: histogram,
        soldOutAt: availability.status === 'sold_out' ? availability.changedAt : null,
      };
    }
    const last = page.at(-1)?.meal;
    if (page.length < reportPageSize || last === undefined) return;
    page = await read({ servedAt: last.servedAt, position: last.position, mealId: last.id });
  }
}
