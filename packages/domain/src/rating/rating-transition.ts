import type { Meal, MealId } from '../meal/meal.js';
import { DomainError } from '../shared/domain-error.js';
import { applyRatingChange, type RatingHistogram } from './rating-histogram.js';
import { ratingRefusal } from './rating-rules.js';
import type { RatingValue } from './rating.js';

/** What an adapter reads, inside its transaction, before a rating changes. */
export interface RatingSnapshot {
  /** The meal (undefined when there is none); its menu details may be left out, the rules do not read them. */
  readonly meal: Meal | undefined;
  readonly current: RatingValue | null;
  readonly histogram: RatingHistogram;
}

/** What the adapter writes: the user's rating becomes `next` and the meal's histogram becomes `histogram`. */
export interface RatingChange {
  readonly mealId: MealId;
  readonly previous: RatingValue | null;
  readonly next: RatingValue | null;
  readonly histogram: RatingHistogram;
}

/** Pure: the same checks apply to setting (a value) and deleting (null). Throws a DomainError to refuse. */
export function decideRatingChange(
  snapshot: RatingSnapshot,
  requested: RatingValue | null,
  now: Date,
): RatingChange {
  const refusal = ratingRefusal(snapshot.meal, now);
  if (refusal !== null) throw new DomainError(refusal);
  const meal = snapshot.meal as Meal;
  return {
    mealId: meal.id,
    previous: snapshot.current,
    next: requested,
    histogram: applyRatingChange(snapshot.histogram, snapshot.current, requested),
  };
}

export function changesAnything(change: RatingChange): boolean {
  return change.previous !== change.next;
}
