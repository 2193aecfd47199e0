import { createInMemoryAdapters, FixedClock } from '@canteen-meals/adapters-memory';
import { accept, RateMeal, ratingStatistics, refuse, type RatingValue } from '@canteen-meals/domain';
import { probeThrough } from '@canteen-meals/repository-contract';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

const servedAt = new Date('2025-03-10T11:30:00.000Z');
const rateableMeals = [1, 2];
const notRateableMeal = 3;
const users = Array.from({ length: 10 }, (_, index) => `user-${index}`);

/** The statistics recomputed the slow, obvious way from every rating held. */
function naiveStatistics(ratings: Iterable<RatingValue>) {
  const sorted = [...ratings].sort((a, b) => a - b);
  const count = sorted.length;
  if (count === 0) return { count, average: null, median: null };
  const sum = sorted.reduce((total, value) => total + value, 0);
  const middle = Math.floor(count / 2);
  const median = count % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
  return { count, average: sum / count, median };
}

const action = fc.record({
  userId: fc.constantFrom(...users),
  mealId: fc.constantFrom(...rateableMeals, notRateableMeal),
  rating: fc.option(fc.constantFrom<RatingValue>(1, 2, 3, 4, 5), { freq: 4 }),
});

describe('rating statistics against a naive oracle', () => {
  it('random sets, re-ratings and deletions by many users: statistics and personal ratings match the oracle', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(action, { maxLength: 80 }), async (actions) => {
        const adapters = createInMemoryAdapters();
        const probe = probeThrough(() => adapters.queries);
        await adapters.meals.upsertMany([
          ...rateableMeals.map((id) => ({ id, name: `Meal ${id}`, servedAt, rateable: true })),
          { id: notRateableMeal, name: 'Water', servedAt, rateable: false },
        ]);
        const rateMeal = new RateMeal({
          ratings: adapters.ratings,
          clock: new FixedClock(servedAt.getTime() + 3_600_000),
        });
        /** mealId -> userId -> the user's last accepted action */
        const oracle = new Map<number, Map<string, RatingValue>>(rateableMeals.map((id) => [id, new Map()]));

        for (const { userId, mealId, rating } of actions) {
          if (mealId === notRateableMeal) {
            expect(await rateMeal.execute({ userId, mealId, rating })).toEqual(refuse('meal_not_rateable'));
            continue;
          }
          const held = oracle.get(mealId)!;
          if (rating === null) held.delete(userId);
          else held.set(userId, rating);

          const result = await rateMeal.execute({ userId, mealId, rating });

          expect(result).toEqual(accept({ ...naiveStatistics(held.values()), personal: rating }));
        }

        for (const mealId of [...rateableMeals, notRateableMeal]) {
          const held = oracle.get(mealId) ?? new Map<string, RatingValue>();
          expect(ratingStatistics(await probe.histogram(mealId))).toEqual(naiveStatistics(held.values()));
          for (const userId of users) {
            expect(await probe.rating(userId, mealId)).toBe(held.get(userId) ?? null);
          }
        }
      }),
      { numRuns: 200 },
    );
  });
});
