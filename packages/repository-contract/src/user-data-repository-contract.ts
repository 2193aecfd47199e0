import { histogramOf, type Meal, type MealId, type RatingValue } from '@canteen-meals/domain';
import { describe, expect, it } from 'vitest';
import { rateInPeriod } from './rate-in-period.js';
import type { CreateReadRepositoryFixture } from './read-repository-fixture.js';
import { probeThrough, type RepositoryProbe } from './repository-probe.js';
import { freshFixturePerTest } from './repository-fixture.js';
import { sampleMeal } from './sample-meals.js';

const users = ['alice', 'bob', 'carol', 'dave'];
const meals: readonly Meal[] = [
  sampleMeal(1, { servedAt: new Date('2020-01-06T11:00:00Z') }), // its rating period ended long ago
  sampleMeal(2),
  sampleMeal(3),
  sampleMeal(4, { rateable: false }),
];

/** Every user's ratings as stored, and each meal's histogram recomputed from them: the oracle for the histograms. */
async function recount(probe: RepositoryProbe) {
  const held = new Map<MealId, RatingValue[]>();
  const byUser = new Map<string, Map<MealId, RatingValue>>();
  for (const meal of meals) {
    for (const user of users) {
      const rating = await probe.rating(user, meal.id);
      if (rating === null) continue;
      held.set(meal.id, [...(held.get(meal.id) ?? []), rating]);
      byUser.set(user, (byUser.get(user) ?? new Map()).set(meal.id, rating));
    }
  }
  for (const meal of meals) expect(await probe.histogram(meal.id)).toEqual(histogramOf(held.get(meal.id) ?? []));
  return byUser;
}

/** What every UserDataRepository adapter must do: export and erase one user's data, and nothing of anyone else's. */
export function describeUserDataRepositoryContract(
  adapterName: string,
  createFixture: CreateReadRepositoryFixture,
): void {
  describe(`UserDataRepository contract: ${adapterName}`, () => {
    const store = freshFixturePerTest(createFixture);
    const probe = probeThrough(() => store().queries);
    /** alice marks 2 and 4 and rates 1, 2, 3; bob and carol rate and mark some of the same meals. */
    const populated = async () => {
      const fixture = store();
      await fixture.meals.upsertMany(meals);
      const { ratings, markings } = fixture;
      await rateInPeriod(ratings, 'alice', meals[0]!, 5);
      await rateInPeriod(ratings, 'alice', meals[1]!, 1);
      await rateInPeriod(ratings, 'alice', meals[2]!, 3);
      await rateInPeriod(ratings, 'bob', meals[0]!, 2);
      await rateInPeriod(ratings, 'bob', meals[1]!, 1);
      await rateInPeriod(ratings, 'carol', meals[0]!, 5);
      await markings.setMarked('alice', 4, true);
      await markings.setMarked('alice', 2, true);
      await markings.setMarked('bob', 2, true);
      return fixture;
    };

    it('exports nothing for a user the store does not know', async () => {
      const { userData } = await populated();
      expect(await userData.exportAll('dave')).toEqual({ markings: [], ratings: [] });
    });

    it("exports every marking and rating of the user, with their meals, by meal id, and no one else's", async () => {
      const { userData } = await populated();
      expect(await userData.exportAll('alice')).toEqual({
        markings: [meals[1], meals[3]],
        ratings: [
          { meal: meals[0], rating: 5 },
          { meal: meals[1], rating: 1 },
          { meal: meals[2], rating: 3 },
        ],
      });
      expect(await userData.exportAll('bob')).toEqual({
        markings: [meals[1]],
        ratings: [
          { meal: meals[0], rating: 2 },
          { meal: meals[1], rating: 1 },
        ],
      });
    });

    it("erases the user's markings and ratings, counting them, and the export is then empty", async () => {
      const fixture = await populated();
      expect(await fixture.userData.eraseAll('alice')).toEqual({
        markings: 2,
        ratings: 3,
        // Each rated meal's figures as the erasure left them: what the live streams and caches are told.
        meals: [
          { mealId: 1, histogram: [0, 1, 0, 0, 1], dish: { id: expect.any(Number), histogram: [0, 1, 0, 0, 1] } },
          { mealId: 2, histogram: [1, 0, 0, 0, 0], dish: { id: expect.any(Number), histogram: [1, 0, 0, 0, 0] } },
          { mealId: 3, histogram: [0, 0, 0, 0, 0], dish: { id: expect.any(Number), histogram: [0, 0, 0, 0, 0] } },
        ],
      });
      expect(await fixture.userData.exportAll('alice')).toEqual({ markings: [], ratings: [] });
      for (const meal of meals) {
        expect(await probe.rating('alice', meal.id)).toBeNull();
        expect(await probe.marked('alice', meal.id)).toBe(false);
      }
    });

    it('takes the erased ratings out of every histogram, also where the rating period is over', async () => {
      const fixture = await populated();
      expect(await probe.histogram(1)).toEqual([0, 1, 0, 0, 2]);

      await fixture.userData.eraseAll('alice');

      expect(await probe.histogram(1)).toEqual([0, 1, 0, 0, 1]);
      expect(await probe.histogram(2)).toEqual([1, 0, 0, 0, 0]);
      expect(await probe.histogram(3)).toEqual([0, 0, 0, 0, 0]);
      await recount(probe);
    });

    it("leaves every other user's markings and ratings as they were", async () => {
      const fixture = await populated();
      const before = await recount(probe);
      const bobBefore = await fixture.userData.exportAll('bob');
      const carolBefore = await fixture.userData.exportAll('carol');

      await fixture.userData.eraseAll('alice');

      const after = await recount(probe);
      expect(after.has('alice')).toBe(false);
      expect(after.get('bob')).toEqual(before.get('bob'));
      expect(after.get('carol')).toEqual(before.get('carol'));
      expect(await fixture.userData.exportAll('bob')).toEqual(bobBefore);
      expect(await fixture.userData.exportAll('carol')).toEqual(carolBefore);
      expect(await probe.marked('bob', 2)).toBe(true);
    });

    it('is idempotent: erasing again, or erasing a user without data, removes nothing', async () => {
      const fixture = await populated();
      await fixture.userData.eraseAll('alice');
      const histograms = await Promise.all(meals.map((meal) => probe.histogram(meal.id)));

      expect(await fixture.userData.eraseAll('alice')).toEqual({ markings: 0, ratings: 0, meals: [] });
      expect(await fixture.userData.eraseAll('nobody')).toEqual({ markings: 0, ratings: 0, meals: [] });

      expect(await Promise.all(meals.map((meal) => probe.histogram(meal.id)))).toEqual(histograms);
      await recount(probe);
    });

    it('lets an erased user start again, and the histogram counts the new rating once', async () => {
      const fixture = await populated();
      await fixture.userData.eraseAll('alice');
      await rateInPeriod(fixture.ratings, 'alice', meals[1]!, 4);
      await fixture.markings.setMarked('alice', 1, true);

      expect(await probe.histogram(2)).toEqual([1, 0, 0, 1, 0]);
      expect(await fixture.userData.exportAll('alice')).toEqual({
        markings: [meals[0]],
        ratings: [{ meal: meals[1], rating: 4 }],
      });
      await recount(probe);
    });

    it('keeps the histograms equal to the ratings when an erasure races with other ratings', async () => {
      const fixture = await populated();
      await Promise.all([
        rateInPeriod(fixture.ratings, 'bob', meals[2]!, 4),
        fixture.userData.eraseAll('alice'),
        rateInPeriod(fixture.ratings, 'carol', meals[1]!, 2),
        rateInPeriod(fixture.ratings, 'dave', meals[0]!, 3),
      ]);
      const held = await recount(probe);
      expect(held.has('alice')).toBe(false);
      expect(held.get('dave')).toEqual(new Map([[1, 3]]));
    });
  });
}
