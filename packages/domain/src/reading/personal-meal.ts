import type { Availability } from '../availability/availability.js';
import type { DishSummary } from '../dish/dish.js';
import type { DetailedMeal, Meal, MealId } from '../meal/meal.js';
import type { RatingHistogram } from '../rating/rating-histogram.js';
import type { RatingValue } from '../rating/rating.js';

/**
 * A meal as one user sees it: the meal, its histogram, that user's own marking and rating, and its dish as of the
 * instant the query was asked about.
 */
export interface PersonalMeal {
  readonly meal: DetailedMeal;
  readonly histogram: RatingHistogram;
  readonly marked: boolean;
  readonly personalRating: RatingValue | null;
  readonly dish: DishSummary;
  /** What the kitchen says is left of this serving. */
  readonly availability: Availability;
}

/**
 * Where a meal stands in "most recently served first" order: `servedAt` descending, then meal id descending
 * (the id breaks ties between meals served at the same instant, so the order is total).
 */
export interface ServedPosition {
  readonly servedAt: Date;
  readonly mealId: MealId;
}

/** One page of a "most recently served first" list: at most `limit` meals that come strictly after `after`. */
export interface PageRequest {
  /** null: from the start of the list. */
  readonly after: ServedPosition | null;
  readonly limit: number;
}

export function servedPositionOf(meal: Meal): ServedPosition {
  return { servedAt: meal.servedAt, mealId: meal.id };
}
