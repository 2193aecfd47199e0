import type { RatingHistogram } from '@canteen-meals/domain';
import { describe, expect, it } from 'vitest';
import { CombinedWrites } from '../src/combined-writes.js';
import type { AppliedRow } from '../src/rating-batch-answers.js';
import type { BatchChange, ReadMeal } from '../src/rating-batch-statements.js';

// The write is a function the test settles by hand: what the combiner hands it, and when, is what is checked.
interface Call {
  readonly meals: readonly ReadMeal[];
  readonly changes: readonly BatchChange[];
  settle(rows: AppliedRow[] | Error): void;
}

function writesByHand(): { writes: CombinedWrites; calls: Call[] } {
  const calls: Call[] = [];
  const writes = new CombinedWrites(
    (meals, changes) =>
      new Promise((resolve, reject) => {
        calls.push({ meals, changes, settle: (rows) => (rows instanceof Error ? reject(rows) : resolve(rows)) });
      }),
  );
  return { writes, calls };
}

const five: RatingHistogram = [0, 0, 0, 0, 1];
const meal = (mealId: number, servedMs = '1000'): ReadMeal => ({ mealId, servedMs, rateable: true });
const firstFive = (n: number, mealId: number, userId: string): BatchChange => ({
  n,
  mealId,
  userId,
  previous: null,
  next: 5,
  delta: five,
});
/** What the write answers when every change applied: each meal's histogram after all of them, no dish. */
const allApplied = (changes: readonly BatchChange[]): AppliedRow[] =>
  changes.map((change) => ({
    n: change.n,
    histogram: [0, 0, 0, 0, changes.filter((other) => other.mealId === change.mealId).length],
    dishId: null,
    dishHistogram: null,
  }));
const turn = () => new Promise((resolve) => setImmediate(resolve));

describe('CombinedWrites', () => {
  it('writes the batches decided during a write together in the next one, each answered in its own positions', async () => {
    const { writes, calls } = writesByHand();
    const first = writes.submit({ meals: [meal(1)], changes: [firstFive(1, 1, 'ann')] });
    const second = writes.submit({ meals: [meal(1)], changes: [firstFive(1, 1, 'bob'), firstFive(2, 2, 'cem')] });
    const third = writes.submit({
      meals: [meal(1), meal(2)],
      changes: [firstFive(1, 1, 'dan'), firstFive(2, 2, 'eve')],
    });
    await turn();
    expect(calls).toHaveLength(1); // one write at a time

    calls[0]!.settle(allApplied(calls[0]!.changes));
    expect(await first).toEqual(new Map([[1, { previous: null, histogram: [0, 0, 0, 0, 1], dish: null }]]));
    await turn();
    expect(calls).toHaveLength(2);
    // The two batches waiting went into one write, numbered one after the other.
    expect(calls[1]!.changes.map((change) => [change.n, change.userId])).toEqual([
      [1, 'bob'],
      [2, 'cem'],
      [3, 'dan'],
      [4, 'eve'],
    ]);
    expect(calls[1]!.meals.map((m) => m.mealId).sort()).toEqual([1, 2]);

    calls[1]!.settle(allApplied(calls[1]!.changes));
    // In the order of the write: bob's rating of meal 1 came before dan's, cem's of meal 2 before eve's.
    expect(await second).toEqual(
      new Map([
        [1, { previous: null, histogram: [0, 0, 0, 0, 1], dish: null }],
        [2, { previous: null, histogram: [0, 0, 0, 0, 1], dish: null }],
      ]),
    );
    expect(await third).toEqual(
      new Map([
        [1, { previous: null, histogram: [0, 0, 0, 0, 2], dish: null }],
        [2, { previous: null, histogram: [0, 0, 0, 0, 2], dish: null }],
      ]),
    );
  });

  it('leaves a batch that read a meal otherwise for the write after, and answers no change the write did not apply', async () => {
    const { writes, calls } = writesByHand();
    const first = writes.submit({ meals: [meal(1)], changes: [firstFive(1, 1, 'ann')] });
    const before = writes.submit({ meals: [meal(2)], changes: [firstFive(1, 2, 'bob')] });
    const moved = writes.submit({ meals: [meal(2, '2000')], changes: [firstFive(1, 2, 'cem')] });
    await turn();
    calls[0]!.settle(allApplied(calls[0]!.changes));
    await first;
    await turn();
    expect(calls[1]!.changes.map((change) => change.userId)).toEqual(['bob']);
    calls[1]!.settle([]); // bob's compare-and-set failed
    expect((await before).size).toBe(0);
    await turn();
    expect(calls[2]!.changes.map((change) => change.userId)).toEqual(['cem']);
    expect(calls[2]!.meals).toEqual([meal(2, '2000')]);
    calls[2]!.settle(allApplied(calls[2]!.changes));
    expect((await moved).get(1)?.histogram).toEqual([0, 0, 0, 0, 1]);
  });

  it('rejects every batch of a write that failed, and goes on with the next', async () => {
    const { writes, calls } = writesByHand();
    const first = writes.submit({ meals: [meal(1)], changes: [firstFive(1, 1, 'ann')] });
    const second = writes.submit({ meals: [meal(1)], changes: [firstFive(1, 1, 'bob')] });
    const third = writes.submit({ meals: [meal(1)], changes: [firstFive(1, 1, 'cem')] });
    await turn();
    calls[0]!.settle(allApplied(calls[0]!.changes));
    await first;
    await turn();
    const deadlock = Object.assign(new Error('deadlock detected'), { code: '40P01' });
    calls[1]!.settle(deadlock);
    await expect(second).rejects.toBe(deadlock);
    await expect(third).rejects.toBe(deadlock);
    const fourth = writes.submit({ meals: [meal(1)], changes: [firstFive(1, 1, 'dan')] });
    await turn();
    calls[2]!.settle(allApplied(calls[2]!.changes));
    expect((await fourth).get(1)?.histogram).toEqual([0, 0, 0, 0, 1]);
  });
});
