import { openPostgres, PostgresRatingRepository, type PostgresDatabase } from '@canteen-meals/adapters-postgres';
import {
  applyRatingChange,
  changesAnything,
  decideRatingChange,
  emptyHistogram,
  ratingPeriodMs,
  type RatingChange,
  type RatingHistogram,
  type RatingRefusal,
  type RatingSnapshot,
  type RatingValue,
  type Result,
} from '@canteen-meals/domain';
import { MealMother } from '@canteen-meals/repository-contract';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { histogramsAndRecounts } from './support/rating-checks.js';
import { databasePerFile } from './support/test-database.js';

const databaseUrl = databasePerFile();
let database: PostgresDatabase;
beforeAll(async () => {
  database = await openPostgres(databaseUrl(), { poolSize: 4 });
});
afterAll(async () => {
  await database?.close();
});

const served = new Date('2026-03-02T11:30:00Z');
const inPeriod = new Date(served.getTime() + ratingPeriodMs / 2);

interface Op {
  readonly user: string;
  /** 0 and 1: two servings of one dish; 2: a meal of another dish; 3: no meal. */
  readonly meal: 0 | 1 | 2 | 3;
  readonly rating: RatingValue | null;
}

const op: fc.Arbitrary<Op> = fc.record({
  user: fc.constantFrom('ann', 'ben', 'cem', 'dia'),
  meal: fc.constantFrom(0, 1, 2, 3) as fc.Arbitrary<0 | 1 | 2 | 3>,
  rating: fc.option(fc.constantFrom<RatingValue>(1, 2, 3, 4, 5), { nil: null }),
});

/**
 * The batcher's answers for one instance, replayed one change at a time in memory with the domain's own decision:
 * the changes asked for together form batches of at most `size` (one at a time here), never two of one user and
 * meal in a batch, the later waiting for the next; in a batch, refusals and changes of nothing answer the state as
 * the batch read it, and the changes follow one another in the order they were asked for.
 */
function replay(ops: readonly Op[], size: number, mealIds: readonly number[], dishOf: ReadonlyMap<number, number>) {
  const ratings = new Map<string, RatingValue>();
  const histograms = new Map<number, RatingHistogram>();
  const dishes = new Map<number, RatingHistogram>();
  const answers: Result<RatingChange, RatingRefusal>[] = [];
  let queue = ops.map((o, index) => ({ ...o, index, key: `${o.meal}/${o.user}` }));
  while (queue.length > 0) {
    const batch: typeof queue = [];
    const rest: typeof queue = [];
    for (const item of queue) (batch.length < size && !batch.some((b) => b.key === item.key) ? batch : rest).push(item);
    queue = rest;
    const read = { ratings: new Map(ratings), histograms: new Map(histograms), dishes: new Map(dishes) };
    for (const item of batch) {
      const mealId = mealIds[item.meal]!;
      const dishId = dishOf.get(mealId);
      const snapshot: RatingSnapshot =
        dishId === undefined
          ? { meal: undefined, current: null, histogram: emptyHistogram, dish: undefined }
          : {
              meal: { id: mealId, name: 'any', servedAt: served, rateable: true },
              current: read.ratings.get(item.key) ?? null,
              histogram: read.histograms.get(mealId) ?? emptyHistogram,
              dish: { id: dishId, histogram: read.dishes.get(dishId) ?? emptyHistogram },
            };
      const decision = decideRatingChange(snapshot, item.rating, inPeriod);
      if (!decision.ok || !changesAnything(decision.value)) {
        answers[item.index] = decision;
        continue;
      }
      const { previous, next } = decision.value;
      if (next === null) ratings.delete(item.key);
      else ratings.set(item.key, next);
      const histogram = applyRatingChange(histograms.get(mealId) ?? emptyHistogram, previous, next);
      const dish = applyRatingChange(dishes.get(dishId!) ?? emptyHistogram, previous, next);
      histograms.set(mealId, histogram);
      dishes.set(dishId!, dish);
      answers[item.index] = {
        ok: true,
        value: { ...decision.value, histogram, dish: { id: dishId!, histogram: dish } },
      };
    }
  }
  return answers;
}

describe('PostgreSQL rating batches against a sequential replay', () => {
  it('answers every change as the replay does, for any sequence asked for at once and any batch size', async () => {
    let run = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(op, { maxLength: 24 }), fc.integer({ min: 1, max: 6 }), async (ops, size) => {
        run += 1;
        const base = run * 10;
        const mealIds = [base + 1, base + 2, base + 3, base + 4];
        await database.adapters.meals.upsertMany([
          MealMother.servedAt(served, { id: base + 1, name: `Soup ${run}` }),
          MealMother.servedAt(served, { id: base + 2, name: `Soup ${run}` }),
          MealMother.servedAt(served, { id: base + 3, name: `Stew ${run}` }),
        ]);
        const { rows } = await database.pool.query<{ meal_id: string; dish_id: string }>(
          'SELECT meal_id, dish_id FROM meals WHERE meal_id = ANY ($1::bigint[])',
          [mealIds],
        );
        const dishOf = new Map(rows.map((row) => [Number(row.meal_id), Number(row.dish_id)]));
        // A batcher of its own, one batch at a time: what one instance does when its batches do not overlap. Both forms
        // of the statements (hot-statements.ts), in turn: they must answer alike.
        const statements = run % 2 === 0 ? 'functions' : 'bare';
        const ratings = new PostgresRatingRepository(database.pool, {
          maxBatchSize: size,
          maxBatchesInFlight: 1,
          statements,
        });

        const answers = await Promise.all(
          ops.map((o) =>
            ratings.change(o.user, mealIds[o.meal]!, (snapshot) => decideRatingChange(snapshot, o.rating, inPeriod)),
          ),
        );

        expect(answers).toEqual(replay(ops, size, mealIds, dishOf));
      }),
      {
        numRuns: 40,
        // Found by this property: a change read first and one decided ahead, of two servings of one dish, in one
        // batch, once answered in the order of their kinds instead of the batch's. Twice: runs alternate the forms.
        examples: [0, 1].map(
          () =>
            [
              [
                { user: 'ann', meal: 3, rating: null },
                { user: 'cem', meal: 1, rating: 1 },
                { user: 'ann', meal: 1, rating: null },
                { user: 'ben', meal: 1, rating: 1 },
                { user: 'ann', meal: 0, rating: 1 },
              ],
              3,
            ] as [Op[], number],
        ),
      },
    );
    const { stored, recounted } = await histogramsAndRecounts(database.pool);
    expect(stored).toEqual(recounted);
  });
});
