import type { DishId } from '../dish/dish.js';
import type { Meal, MealId } from '../meal/meal.js';
import { accept, refuse, type Result } from '../shared/refusal.js';
import { applyRatingChange, type RatingHistogram } from './rating-histogram.js';
import { ratingRefusal, type RatingRefusal } from './rating-rules.js';
import type { RatingValue } from './rating.js';

/** What an adapter reads, inside its transaction, before a rating changes. */
export interface RatingSnapshot {
  /**
   * The meal (undefined when there is none, or when it was withdrawn); its menu details may be left out, the rules do
   * not read them.
   */
  readonly meal: Meal | undefined;
  readonly current: RatingValue | null;
  readonly histogram: RatingHistogram;
  /** The meal's dish and its histogram over all servings; undefined only when there is no meal. */
  readonly dish: { readonly id: DishId; readonly histogram: RatingHistogram } | undefined;
}

/**
 * What the adapter writes: the user's rating becomes `next`, the meal's histogram becomes `histogram` and its dish's
 * becomes `dish.histogram`, in one unit of work.
 */
export interface RatingChange {
  readonly mealId: MealId;
  readonly previous: RatingValue | null;
  readonly next: RatingValue | null;
  readonly histogram: RatingHistogram;
  readonly dish: { readonly id: DishId; readonly histogram: RatingHistogram } | null;
}

/** Pure: the same checks apply to setting (a value) and deleting (null); a refusal is answered, not thrown. */
export function decideRatingChange(
  snapshot: RatingSnapshot,
  requested: RatingValue | null,
  now: Date,
): Result<RatingChange, RatingRefusal> {
  const refusal = ratingRefusal(snapshot.meal, now);
  if (refusal !== null) return refuse(refusal);
  const meal = snapshot.meal as Meal;
  const { dish } = snapshot;
  return accept({
    mealId: meal.id,
    previous: snapshot.current,
    next: requested,
    histogram: applyRatingChange(snapshot.histogram, snapshot.current, requested),
    dish:
      dish === undefined
        ? null
        : { id: dish.id, histogram: applyRatingChange(dish.histogram, snapshot.current, requested) },
  });
}

export function changesAnything(change: RatingChange): boolean {
  return change.previous !== change.next;
}
