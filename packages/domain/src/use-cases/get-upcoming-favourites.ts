import { localDayOf, localDayRange } from '../calendar/local-day.js';
import type { Canteen } from '../canteen/canteen.js';
import type { CanteenRepository } from '../canteen/canteen-repository.js';
import { addDays, type LocalDate } from '../menu/local-time.js';
import type { MealQueries, ServingWindow } from '../reading/meal-queries.js';
import { mealReadingOf, type MealReading } from '../reading/meal-reading.js';
import type { Clock } from '../shared/clock.js';
import type { UserId } from '../shared/user-id.js';

/** How many days the upcoming favourites cover when the caller does not say. */
export const defaultUpcomingDays = 7;

/** The most days one read of the upcoming favourites covers: today and the 13 days after it, as a menu read. */
export const maxUpcomingDays = 14;

/**
 * The most servings one answer holds: the earliest ones, in serving order. A user with that many favourites served in
 * two weeks has marked nearly the whole menu; the answer says when it was cut (`truncated`).
 */
export const maxUpcomingServings = 500;

/** One coming serving of a favourite dish: the meal as a menu reads it, and the local day it is served on. */
export interface UpcomingServing {
  /** The calendar day on the clocks of the meal's canteen. */
  readonly date: LocalDate;
  readonly reading: MealReading;
}

export interface UpcomingFavourites {
  /** In serving order (see `inServingOrder`): serving time, then canteen, then menu position, then meal id. */
  readonly servings: readonly UpcomingServing[];
  /** True when more servings were due than `maxUpcomingServings`: the answer holds the earliest ones. */
  readonly truncated: boolean;
  /** The instant the answer was read as of. */
  readonly asOf: Date;
}

/**
 * The servings in the coming days of the dishes a user has marked: a marking of any serving of a dish (past, to come
 * or withdrawn) makes the dish a favourite; withdrawn servings are never listed. The days are each canteen's own: from
 * the start of its today (so a serving earlier today still counts) to the end of the day `days - 1` after it.
 */
export class GetUpcomingFavourites {
  constructor(
    private readonly deps: {
      readonly queries: MealQueries;
      readonly canteens: CanteenRepository;
      readonly clock: Clock;
    },
  ) {}

  async execute({
    userId,
    days = defaultUpcomingDays,
  }: {
    readonly userId: UserId;
    readonly days?: number;
  }): Promise<UpcomingFavourites> {
    if (!Number.isInteger(days) || days < 1 || days > maxUpcomingDays) {
      throw new RangeError(`the upcoming favourites cover 1 to ${maxUpcomingDays} days, not ${days}`);
    }
    const asOf = this.deps.clock.now();
    const canteens = await this.deps.canteens.list();
    const windows = canteens.map((canteen) => comingDaysOf(canteen, asOf, days));
    // One serving more than an answer holds tells whether it was cut, without counting.
    const found = await this.deps.queries.favouriteServingsIn(userId, windows, asOf, maxUpcomingServings + 1);
    const timeZones = new Map(canteens.map((canteen) => [canteen.id, canteen.timeZone]));
    const servings = found.slice(0, maxUpcomingServings).map((view) => ({
      date: localDayOf(view.meal.servedAt, timeZones.get(view.meal.canteenId)!).date,
      reading: mealReadingOf(view, asOf),
    }));
    return { servings, truncated: found.length > maxUpcomingServings, asOf };
  }
}

/** The instants of the canteen's today and the `days - 1` days after it, on its clocks. */
export function comingDaysOf(canteen: Canteen, now: Date, days: number): ServingWindow {
  const today = localDayOf(now, canteen.timeZone);
  return {
    canteenId: canteen.id,
    from: today.from,
    until: localDayRange(addDays(today.date, days - 1), canteen.timeZone).until,
  };
}
