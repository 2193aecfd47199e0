import type { Availability } from '../availability/availability.js';
import type { DishSummary } from '../dish/dish.js';
import type { DetailedMeal } from '../meal/meal.js';
import type { RatingHistogram } from '../rating/rating-histogram.js';
import { ratingPeriodMs, ratingRefusal } from '../rating/rating-rules.js';
import { ratingStatistics, type RatingStatistics } from '../rating/rating-statistics.js';
import type { RatingValue } from '../rating/rating.js';
import type { PersonalMeal } from './personal-meal.js';

/** Everything a reader learns about one meal at one instant. */
export interface MealReading {
  readonly meal: DetailedMeal;
  /** Whether a rating of this meal could be set or deleted right now. */
  readonly ratingOpen: boolean;
  readonly statistics: RatingStatistics;
  /** How many ratings of each value 1..5 the meal holds; index 0 counts the 1s. */
  readonly distribution: RatingHistogram;
  readonly marked: boolean;
  readonly personalRating: RatingValue | null;
  /** The meal's dish over all its servings, with its statistics. */
  readonly dish: DishReading;
  /** What the kitchen says is left of this serving. */
  readonly availability: Availability;
}

/** A dish at one instant: its figures and the statistics of its histogram. */
export interface DishReading extends DishSummary {
  readonly statistics: RatingStatistics;
}

export function dishReadingOf(dish: DishSummary): DishReading {
  return { ...dish, statistics: ratingStatistics(dish.histogram) };
}

export function mealReadingOf(view: PersonalMeal, now: Date): MealReading {
  return {
    meal: view.meal,
    ratingOpen: ratingRefusal(view.meal, now) === null,
    statistics: ratingStatistics(view.histogram),
    distribution: view.histogram,
    marked: view.marked,
    personalRating: view.personalRating,
    dish: dishReadingOf(view.dish),
    availability: view.availability,
  };
}

/**
 * The first instant after `now` at which readings of these meals answer differently although nothing was written: a
 * meal's rating opens (at its serving time) or closes (once its rating period is over), or a serving of a dish passes
 * (the dish's `timesServed`, `lastServedAt` and `nextServedAt` move). null: never. A copy of these readings is exact
 * until then.
 */
export function readingsChangeAt(readings: readonly MealReading[], now: Date): Date | null {
  const at = now.getTime();
  let first = Number.POSITIVE_INFINITY;
  const consider = (instant: number) => {
    if (instant > at && instant < first) first = instant;
  };
  for (const { meal, dish } of readings) {
    if (meal.rateable) {
      consider(meal.servedAt.getTime());
      // ratingRefusal closes the period once more than ratingPeriodMs have passed: one millisecond after the bound.
      consider(meal.servedAt.getTime() + ratingPeriodMs + 1);
    }
    if (dish.nextServedAt !== null) consider(dish.nextServedAt.getTime());
  }
  return first === Number.POSITIVE_INFINITY ? null : new Date(first);
}
