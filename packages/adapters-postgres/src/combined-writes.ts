import type { MealId } from '@canteen-meals/domain';
import { exactAnswers, type AppliedRow, type ExactAnswer } from './rating-batch-answers.js';
import type { BatchChange, ReadMeal } from './rating-batch-statements.js';

/** The decided changes of one batch, and the rule fields of their meals as its read found them. */
export interface DecidedBatch {
  readonly meals: readonly ReadMeal[];
  readonly changes: readonly BatchChange[];
}

interface Waiting extends DecidedBatch {
  readonly resolve: (answers: Map<number, ExactAnswer>) => void;
  readonly reject: (reason: unknown) => void;
}

/**
 * One write of an instance at a time, and the batches decided while it runs written together by the next: each write
 * costs a commit (a WAL flush) and locks the hot meals' rows once, so writing two decided batches as one halves both.
 * Batches can share a write because no two batches under way hold the same (meal, user) (BatchQueue); they are
 * written in the order they were decided, as one batch whose exact answers (see exactAnswers) each batch gets its
 * own of. A batch that read a meal's rule fields otherwise than one already taken (the meal changed between their
 * reads) waits for the next write: the write checks each meal's fields once.
 */
export class CombinedWrites {
  private waiting: Waiting[] = [];
  private writing = false;

  constructor(
    private readonly write: (meals: readonly ReadMeal[], changes: readonly BatchChange[]) => Promise<AppliedRow[]>,
  ) {}

  /**
   * The exact answers of the batch's applied changes, by their position in the batch; a change not applied has none.
   */
  submit(batch: DecidedBatch): Promise<Map<number, ExactAnswer>> {
    return new Promise((resolve, reject) => {
      this.waiting.push({ ...batch, resolve, reject });
      this.next();
    });
  }

  private next(): void {
    if (this.writing || this.waiting.length === 0) return;
    const taken = this.take();
    this.writing = true;
    void this.writeTogether(taken).finally(() => {
      this.writing = false;
      this.next();
    });
  }

  private take(): Waiting[] {
    const meals = new Map<MealId, ReadMeal>();
    const taken: Waiting[] = [];
    const rest: Waiting[] = [];
    for (const batch of this.waiting) {
      const agrees = batch.meals.every((meal) => {
        const other = meals.get(meal.mealId);
        return other === undefined || (other.servedMs === meal.servedMs && other.rateable === meal.rateable);
      });
      if (agrees) {
        for (const meal of batch.meals) meals.set(meal.mealId, meal);
        taken.push(batch);
      } else {
        rest.push(batch);
      }
    }
    this.waiting = rest;
    return taken;
  }

  private async writeTogether(batches: readonly Waiting[]): Promise<void> {
    // One numbering over the batches taken, in their order; each batch's own positions are given back to it.
    const changes: BatchChange[] = [];
    const origins: { batch: Waiting; n: number }[] = [];
    const meals = new Map<MealId, ReadMeal>();
    for (const batch of batches) {
      for (const meal of batch.meals) meals.set(meal.mealId, meal);
      for (const change of batch.changes) {
        origins.push({ batch, n: change.n });
        changes.push({ ...change, n: origins.length });
      }
    }
    try {
      const answers = exactAnswers(changes, await this.write([...meals.values()], changes));
      const byBatch = new Map<Waiting, Map<number, ExactAnswer>>(batches.map((batch) => [batch, new Map()]));
      for (const [n, answer] of answers) {
        const origin = origins[n - 1]!;
        byBatch.get(origin.batch)!.set(origin.n, answer);
      }
      for (const [batch, own] of byBatch) batch.resolve(own);
    } catch (error) {
      for (const batch of batches) batch.reject(error);
    }
  }
}
