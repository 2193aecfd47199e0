import type { DishId, MealId, RatingHistogram, RatingValue } from '@canteen-meals/domain';
import type { BatchChange } from './rating-batch-statements.js';

/**
 * What the write answers for one applied change (or for one decided ahead that found the rating already so, which
 * moves nothing): its meal's and its dish's histograms after the whole batch.
 */
export interface AppliedRow {
  readonly n: number;
  /** The rating the write found, where it says (the apply statement); else the change's `previous`. */
  readonly previous?: RatingValue | null;
  /** What the change added to the histograms, where the write says; else the change's `delta`. */
  readonly delta?: RatingHistogram;
  /**
   * A change decided ahead that found the rating already so: answered, like a change of nothing decided on a read,
   * with the state before the write's changes (the meal and dish as the write locked them).
   */
  readonly unchanged?: boolean;
  readonly histogram: RatingHistogram;
  readonly dishId: DishId | null;
  readonly dishHistogram: RatingHistogram | null;
}

export interface ExactAnswer {
  /** The user's rating before the change, as the write found it. */
  readonly previous: RatingValue | null;
  readonly histogram: RatingHistogram;
  readonly dish: { readonly id: DishId; readonly histogram: RatingHistogram } | null;
}

/**
 * The histograms right after each applied change, by its position in the batch. The write added all the batch's
 * deltas of a meal in one update under the meal's row lock, so in the meal's history they follow each other with
 * nothing in between: the state right after change i is the state after the batch minus the deltas of the batch's
 * later applied changes of that meal. The same holds for a dish, over the changes of all its servings (the dish row
 * is updated once, under its lock). So each answer is exact, and the batch's changes read as happening one after the
 * other in batch order, at its commit.
 */
export function exactAnswers(
  changes: readonly BatchChange[],
  applied: readonly AppliedRow[],
): Map<number, ExactAnswer> {
  const changeAt = new Map(changes.map((change) => [change.n, change]));
  const mealState = new Map<number, number[]>();
  const dishState = new Map<DishId, number[]>();
  const answers = new Map<number, ExactAnswer>();
  const unchanged: AppliedRow[] = [];
  /**
   * The change's answer: its meal's and dish's running states as they are now; those states, to take its delta from.
   */
  const answer = (row: AppliedRow, mealId: MealId, previous: RatingValue | null) => {
    const meal = runningState(mealState, mealId, row.histogram);
    const dish =
      row.dishId === null || row.dishHistogram === null ? null : runningState(dishState, row.dishId, row.dishHistogram);
    answers.set(row.n, {
      previous,
      histogram: [...meal] as unknown as RatingHistogram,
      dish: dish === null ? null : { id: row.dishId!, histogram: [...dish] as unknown as RatingHistogram },
    });
    return { meal, dish };
  };
  // Latest first: each change's answer is the running state, from which its own delta is then taken away.
  for (const row of [...applied].sort((a, b) => b.n - a.n)) {
    if (row.unchanged === true) {
      unchanged.push(row);
      continue;
    }
    const change = changeAt.get(row.n);
    if (change === undefined) throw new Error(`the write answered change ${row.n}, which the batch does not hold`);
    // A change decided ahead of any read is answered with what the write found and moved.
    const previous = row.previous !== undefined ? row.previous : change.ahead ? undefined : change.previous;
    const delta = row.delta ?? (change.ahead ? undefined : change.delta);
    if (previous === undefined || delta === undefined)
      throw new Error(`the write answered change ${row.n}, decided ahead, without the rating it found`);
    const { meal, dish } = answer(row, change.mealId, previous);
    delta.forEach((count, index) => {
      meal[index]! -= count;
      if (dish !== null) dish[index]! -= count;
    });
  }
  // Every applied delta taken away: the running states are those the write found.
  for (const row of unchanged) {
    const change = changeAt.get(row.n);
    if (change === undefined || !change.ahead)
      throw new Error(`the write answered change ${row.n} as unchanged, which only a change decided ahead can be`);
    answer(row, change.mealId, change.next);
  }
  return answers;
}

function runningState<K>(states: Map<K, number[]>, key: K, after: RatingHistogram): number[] {
  let state = states.get(key);
  if (state === undefined) {
    state = [...after];
    states.set(key, state);
  }
  return state;
}
