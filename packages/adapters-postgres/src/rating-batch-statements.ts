import type { DishId, MealId, RatingHistogram, RatingValue, UserId } from '@canteen-meals/domain';

/**
 * The two statements of a batch of rating changes. Both run outside any explicit transaction: each is its own
 * transaction and its own commit, so a batch costs two round trips whatever its size.
 */

/**
 * The read (`hotStatements[form].readRatingBatch`): for each (meal, user) of the batch, in batch order (`n`, 1-based),
 * what the rules read of the meal, its histogram, its dish's, and the user's rating. No locks: the write checks what it
 * relies on. A missing or withdrawn meal has no row.
 */
export type ReadRow = [
  n: number,
  name: string,
  servedMs: string,
  rateable: boolean,
  dishId: string | null,
  ...histogram: RatingHistogram,
  dish1: number | null,
  dish2: number | null,
  dish3: number | null,
  dish4: number | null,
  dish5: number | null,
  rating: RatingValue | null,
];

/**
 * The write of changes decided on a read, one statement (`hotStatements.bare.writeRatingBatch`, the function of
 * migration 016; see the README, "How a rating change stays atomic across instances", and the migration):
 *
 * 1. it locks the rows of the batch's meals in id order, and only those that still have the rule fields the
 *    decisions read (served, rateable, not withdrawn): the lock order of every writer, meal rows first. Nothing of a
 *    meal that changed meanwhile is written; its items run again in the next batch.
 * 2. Each change is a compare-and-set of its rating row, applied only if the row still holds what was read: a new
 *    rating is inserted only where none exists, an update or a deletion only of the value read.
 * 3. The applied changes' histogram deltas (as the domain's decisions computed them) are added to their meals, and
 *    through each meal's current dish to the dishes, whose rows are locked in id order first. The answer is, per
 *    applied change, its meal's and dish's histograms after the whole batch.
 */
export type WriteRow = [
  n: number,
  dishId: string | null,
  ...histogram: RatingHistogram,
  dish1: number | null,
  dish2: number | null,
  dish3: number | null,
  dish4: number | null,
  dish5: number | null,
];

/** One accepted change of a batch, as the write takes it: decided on a read, or ahead of any (see AheadChange). */
export type BatchChange = ReadChange | AheadChange;

/** A change decided on the batch's read: a compare-and-set of the rating read. */
export interface ReadChange {
  readonly ahead?: false;
  /** Its position in the batch (1-based), which the answer rows name. */
  readonly n: number;
  readonly mealId: MealId;
  readonly userId: UserId;
  /** The rating read (compare-and-set: written only if the row still holds it). */
  readonly previous: RatingValue | null;
  readonly next: RatingValue | null;
  /** What the decision adds to the meal's histogram (and to its dish's). */
  readonly delta: RatingHistogram;
}

/**
 * A change decided ahead of any read, for every rating the user could hold, all of which set the rating to `next`
 * (PostgresRatingRepository): only the apply statement (migration 020) takes it, and it answers the rating it found.
 */
export interface AheadChange {
  readonly ahead: true;
  readonly n: number;
  readonly mealId: MealId;
  readonly userId: UserId;
  readonly next: RatingValue | null;
}

/** The rule fields of a meal as the batch read them, which the write checks. */
export interface ReadMeal {
  readonly mealId: MealId;
  readonly servedMs: string;
  readonly rateable: boolean;
}

/** The parameters of the write of migration 016 (the bare form's write), which takes only changes decided on a read. */
export function writeBatchValues(meals: readonly ReadMeal[], changes: readonly ReadChange[]): unknown[] {
  const delta = (index: number) => changes.map((change) => change.delta[index]!);
  return [
    ...keyValues(meals, changes),
    changes.map((change) => change.previous),
    changes.map((change) => change.next),
    delta(0),
    delta(1),
    delta(2),
    delta(3),
    delta(4),
  ];
}

export function dishIdOf(value: string | null): DishId | null {
  return value === null ? null : Number(value);
}

/** The parameters of the apply statement (migration 020): both kinds of change, each marked whether it is checked. */
export function applyBatchValues(meals: readonly ReadMeal[], changes: readonly BatchChange[]): unknown[] {
  return [
    ...keyValues(meals, changes),
    changes.map((change) => change.next),
    changes.map((change) => (change.ahead ? null : change.previous)),
    changes.map((change) => !change.ahead),
  ];
}

/**
 * An answer row of the apply statement (migration 020's function, and the last statement of the pipeline that runs its
 * statements, hot-statements.ts): a change of a locked meal, the rating it found, whether it was applied, and the
 * meal's and dish's histograms after the batch.
 */
export type ApplyRow = [
  n: number,
  previous: RatingValue | null,
  applied: boolean,
  dishId: string | null,
  ...histogram: RatingHistogram,
  dish1: number | null,
  dish2: number | null,
  dish3: number | null,
  dish4: number | null,
  dish5: number | null,
];

/** The parameters both writes begin with: the meals' rule fields as decided on, and each change's position and key. */
function keyValues(meals: readonly ReadMeal[], changes: readonly BatchChange[]): unknown[][] {
  return [
    meals.map((meal) => meal.mealId),
    meals.map((meal) => meal.servedMs),
    meals.map((meal) => meal.rateable),
    changes.map((change) => change.n),
    changes.map((change) => change.mealId),
    changes.map((change) => change.userId),
  ];
}
