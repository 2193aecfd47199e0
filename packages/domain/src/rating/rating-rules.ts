import type { Meal } from '../meal/meal.js';

export const ratingPeriodMs = 7 * 24 * 60 * 60 * 1000;

/** Every refusal of a rating change, in the order the rules are checked. */
export const ratingRefusals = [
  'meal_not_found',
  'meal_not_rateable',
  'meal_not_yet_served',
  'rating_period_over',
] as const;

export type RatingRefusal = (typeof ratingRefusals)[number];

/**
 * The date rule, checked here and nowhere else: why a rating of this meal cannot be set or deleted at `now`, or null
 * when it can. The checks run in the documented order; the first that fails names the refusal.
 */
export function ratingRefusal(meal: Meal | undefined, now: Date): RatingRefusal | null {
  if (meal === undefined) return 'meal_not_found';
  if (!meal.rateable) return 'meal_not_rateable';
  const sinceServed = now.getTime() - meal.servedAt.getTime();
  if (sinceServed < 0) return 'meal_not_yet_served';
  if (sinceServed > ratingPeriodMs) return 'rating_period_over';
  return null;
}
