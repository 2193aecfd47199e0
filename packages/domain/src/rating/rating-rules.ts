import type { Meal } from '../meal/meal.js';
import type { DomainErrorCode } from '../shared/domain-error.js';

export const ratingPeriodMs = 7 * 24 * 60 * 60 * 1000;

export type RatingRefusal = Extract<
  DomainErrorCode,
  'meal_not_found' | 'meal_not_rateable' | 'meal_not_yet_served' | 'rating_period_over'
>;

/**
 * Why a rating of this meal cannot be set or deleted at `now`, or null when it can.
 * The checks run in the documented order; the first that fails names the refusal.
 */
export function ratingRefusal(meal: Meal | undefined, now: Date): RatingRefusal | null {
  if (meal === undefined) return 'meal_not_found';
  if (!meal.rateable) return 'meal_not_rateable';
  const sinceServed = now.getTime() - meal.servedAt.getTime();
  if (sinceServed < 0) return 'meal_not_yet_served';
  if (sinceServed > ratingPeriodMs) return 'rating_period_over';
  return null;
}
