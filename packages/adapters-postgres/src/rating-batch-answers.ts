import type { DishId, RatingHistogram } from '@canteen-meals/domain';
import type { BatchChange } from './rating-batch-statements.js';

/** What the write answers for one applied change: its meal's and its dish's histograms after the whole batch. */
export interface AppliedRow {
  readonly n: number;
  readonly histogram: RatingHistogram;
  readonly dishId: DishId | null;
  readonly dishHistogram: RatingHistogram | null;
}

export interface ExactAnswer {
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
export function exactAnswers(changes: readonly BatchChange[], applied: readonly AppliedRow[]): Map<number, ExactAnswer> {
  const changeAt = new Map(changes.map((change) => [change.n, change]));
  const mealState = new Map<number, number[]>();
  const dishState = new Map<DishId, number[]>();
  const answers = new Map<number, ExactAnswer>();
  // Latest first: each change's answer is the running state, from which its own delta is then taken away.
  for (const row of [...applied].sort((a, b) => b.n - a.n)) {
    const change = changeAt.get(row.n);
    if (change === undefined) throw new Error(`the write answered change ${row.n}, which the batch does not hold`);
    const meal = runningState(mealState, change.mealId, row.histogram);
    const dish = row.dishId === null || row.dishHistogram === null ? null : runningState(dishState, row.dishId, row.dishHistogram);
    answers.set(row.n, {
      histogram: [...meal] as unknown as RatingHistogram,
      dish: dish === null ? null : { id: row.dishId!, histogram: [...dish] as unknown as RatingHistogram },
    });
    change.delta.forEach((count, index) => {
      meal[index]! -= count;
      if (dish !== null) dish[index]! -= count;
    });
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
