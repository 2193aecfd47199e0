import {
  accept,
  decideRatingChange,
  emptyHistogram,
  histogramOf,
  type Meal,
  type RatingSnapshot,
  type RatingValue,
} from '@canteen-meals/domain';
import type { RatingDecision } from '@canteen-meals/domain/ports';
import { describe, expect, it } from 'vitest';
import { probeThrough } from './repository-probe.js';
import { freshFixturePerTest, type CreateRepositoryFixture } from './repository-fixture.js';
import { ratingOpenAt, sampleMeal } from './sample-meals.js';

/** The decision the rate-meal use case makes, at an instant inside the sample meals' rating period. */
const rate =
  (rating: RatingValue | null): RatingDecision =>
  (snapshot) =>
    decideRatingChange(snapshot, rating, ratingOpenAt);

/** What every RatingRepository adapter must do, whatever stores the ratings. */
export function describeRatingRepositoryContract(adapterName: string, createFixture: CreateRepositoryFixture): void {
  describe(`RatingRepository contract: ${adapterName}`, () => {
    const store = freshFixturePerTest(createFixture);
    const probe = probeThrough(() => store().queries);
    const withMeals = async () => {
      const fixture = store();
      await fixture.meals.upsertMany([sampleMeal(1), sampleMeal(2), sampleMeal(3, { rateable: false })]);
      return fixture.ratings;
    };

    it('reads no rating and an empty histogram for an unrated meal and for a missing one', async () => {
      await withMeals();
      expect(await probe.rating('alice', 1)).toBeNull();
      expect(await probe.histogram(1)).toEqual(emptyHistogram);
      expect(await probe.rating('alice', 99)).toBeNull();
      expect(await probe.histogram(99)).toEqual(emptyHistogram);
    });

    it('hands decide the stored meal, the current rating and the histogram, and answers its decision on them', async () => {
      const ratings = await withMeals();
      await ratings.change('bob', 1, rate(5));
      await ratings.change('alice', 1, rate(2));
      const seen: RatingSnapshot[] = [];

      const unchanged = await ratings.change('alice', 1, (snapshot) => {
        seen.push(snapshot);
        return decideRatingChange(snapshot, 2, ratingOpenAt);
      });
      const meal1 = seen.length;
      await ratings
        .change('alice', 99, (snapshot) => {
          seen.push(snapshot);
          throw new Error('stop');
        })
        .catch(() => undefined);

      // The rules read a meal's id, name, date and flag: an adapter may leave the menu details out of the snapshot.
      const core = (meal: Meal | undefined) =>
        meal && { id: meal.id, name: meal.name, servedAt: meal.servedAt, rateable: meal.rateable };
      const handed = seen.map((snapshot) => ({ ...snapshot, meal: core(snapshot.meal) }));
      const stored = {
        meal: core(sampleMeal(1)),
        current: 2,
        histogram: [0, 1, 0, 0, 1],
        dish: { id: expect.any(Number), histogram: [0, 1, 0, 0, 1] },
      };
      if (meal1 === 1) {
        expect(handed[0]).toEqual(stored);
      } else {
        // Decided ahead of its read (PostgreSQL): asked about every rating the user could hold, on the stored meal.
        expect(
          handed
            .slice(0, meal1)
            .map((snapshot) => snapshot.current)
            .sort(),
        ).toEqual([1, 2, 3, 4, 5, null]);
        for (const snapshot of handed.slice(0, meal1)) expect(snapshot.meal).toEqual(stored.meal);
      }
      expect(handed.slice(meal1)).toEqual([
        { meal: undefined, current: null, histogram: emptyHistogram, dish: undefined },
      ]);
      // Whichever way it asked, the answer is the decision on the stored state.
      expect(unchanged).toEqual(
        accept({
          mealId: 1,
          previous: 2,
          next: 2,
          histogram: [0, 1, 0, 0, 1],
          dish: { id: expect.any(Number), histogram: [0, 1, 0, 0, 1] },
        }),
      );
    });

    it('sets a first rating', async () => {
      const ratings = await withMeals();
      const change = await ratings.change('alice', 1, rate(4));

      expect(change).toEqual(
        accept({
          mealId: 1,
          previous: null,
          next: 4,
          histogram: [0, 0, 0, 1, 0],
          dish: { id: expect.any(Number), histogram: [0, 0, 0, 1, 0] },
        }),
      );
      expect(await probe.rating('alice', 1)).toBe(4);
      expect(await probe.histogram(1)).toEqual([0, 0, 0, 1, 0]);
    });

    it("replaces the user's previous rating: one rating per user and meal", async () => {
      const ratings = await withMeals();
      await ratings.change('alice', 1, rate(4));
      const change = await ratings.change('alice', 1, rate(2));

      expect(change).toEqual(
        accept({
          mealId: 1,
          previous: 4,
          next: 2,
          histogram: [0, 1, 0, 0, 0],
          dish: { id: expect.any(Number), histogram: [0, 1, 0, 0, 0] },
        }),
      );
      expect(await probe.rating('alice', 1)).toBe(2);
      expect(await probe.histogram(1)).toEqual([0, 1, 0, 0, 0]);
    });

    it('setting the rating a user already holds changes nothing', async () => {
      const ratings = await withMeals();
      await ratings.change('alice', 1, rate(3));
      const change = await ratings.change('alice', 1, rate(3));

      expect(change).toEqual(
        accept({
          mealId: 1,
          previous: 3,
          next: 3,
          histogram: [0, 0, 1, 0, 0],
          dish: { id: expect.any(Number), histogram: [0, 0, 1, 0, 0] },
        }),
      );
      expect(await probe.histogram(1)).toEqual([0, 0, 1, 0, 0]);
    });

    it('deletes a rating', async () => {
      const ratings = await withMeals();
      await ratings.change('alice', 1, rate(5));
      await ratings.change('bob', 1, rate(1));
      const change = await ratings.change('alice', 1, rate(null));

      expect(change).toEqual(
        accept({
          mealId: 1,
          previous: 5,
          next: null,
          histogram: [1, 0, 0, 0, 0],
          dish: { id: expect.any(Number), histogram: [1, 0, 0, 0, 0] },
        }),
      );
      expect(await probe.rating('alice', 1)).toBeNull();
      expect(await probe.rating('bob', 1)).toBe(1);
      expect(await probe.histogram(1)).toEqual([1, 0, 0, 0, 0]);
    });

    it('deleting when there is no rating succeeds and changes nothing', async () => {
      const ratings = await withMeals();
      await ratings.change('bob', 1, rate(2));
      const change = await ratings.change('alice', 1, rate(null));

      expect(change).toEqual(
        accept({
          mealId: 1,
          previous: null,
          next: null,
          histogram: [0, 1, 0, 0, 0],
          dish: { id: expect.any(Number), histogram: [0, 1, 0, 0, 0] },
        }),
      );
      expect(await probe.rating('alice', 1)).toBeNull();
      expect(await probe.histogram(1)).toEqual([0, 1, 0, 0, 0]);
    });

    it('rates again after a deletion', async () => {
      const ratings = await withMeals();
      await ratings.change('alice', 1, rate(2));
      await ratings.change('alice', 1, rate(null));
      const change = await ratings.change('alice', 1, rate(5));

      expect(change).toEqual(
        accept({
          mealId: 1,
          previous: null,
          next: 5,
          histogram: [0, 0, 0, 0, 1],
          dish: { id: expect.any(Number), histogram: [0, 0, 0, 0, 1] },
        }),
      );
      expect(await probe.rating('alice', 1)).toBe(5);
    });

    it('writes nothing when decide throws, and passes its error on', async () => {
      const ratings = await withMeals();
      await ratings.change('alice', 1, rate(4));
      const refusal = new Error('a bug in the decision');

      await expect(
        ratings.change('alice', 1, (snapshot) => {
          decideRatingChange(snapshot, 1, ratingOpenAt);
          throw refusal;
        }),
      ).rejects.toBe(refusal);
      await expect(
        ratings.change('bob', 1, () => {
          throw refusal;
        }),
      ).rejects.toBe(refusal);

      expect(await probe.rating('alice', 1)).toBe(4);
      expect(await probe.rating('bob', 1)).toBeNull();
      expect(await probe.histogram(1)).toEqual([0, 0, 0, 1, 0]);
    });

    it('writes nothing when the domain refuses: missing meal, meal not rateable', async () => {
      const ratings = await withMeals();

      await expect(ratings.change('alice', 99, rate(3))).resolves.toMatchObject({
        ok: false,
        refusal: { code: 'meal_not_found' },
      });
      await expect(ratings.change('alice', 3, rate(3))).resolves.toMatchObject({
        ok: false,
        refusal: { code: 'meal_not_rateable' },
      });

      expect(await probe.rating('alice', 99)).toBeNull();
      expect(await probe.histogram(99)).toEqual(emptyHistogram);
      expect(await probe.rating('alice', 3)).toBeNull();
      expect(await probe.histogram(3)).toEqual(emptyHistogram);
    });

    it("keeps each user's rating apart", async () => {
      const ratings = await withMeals();
      await ratings.change('alice', 1, rate(5));
      await ratings.change('bob', 1, rate(1));
      await ratings.change('bob', 1, rate(2));
      await ratings.change('carol', 1, rate(3));
      await ratings.change('carol', 1, rate(null));

      expect(await probe.rating('alice', 1)).toBe(5);
      expect(await probe.rating('bob', 1)).toBe(2);
      expect(await probe.rating('carol', 1)).toBeNull();
      expect(await probe.histogram(1)).toEqual([0, 1, 0, 0, 1]);
    });

    it('keeps each meal apart', async () => {
      const ratings = await withMeals();
      await ratings.change('alice', 1, rate(5));
      await ratings.change('alice', 2, rate(1));
      await ratings.change('alice', 1, rate(null));

      expect(await probe.rating('alice', 2)).toBe(1);
      expect(await probe.histogram(1)).toEqual(emptyHistogram);
      expect(await probe.histogram(2)).toEqual([1, 0, 0, 0, 0]);
    });

    it('keeps the histogram equal to the ratings it counts, through sets, replacements and deletions', async () => {
      const ratings = await withMeals();
      const users = Array.from({ length: 12 }, (_, index) => `user-${index}`);
      // A fixed but irregular walk: every user rates, some re-rate, some delete.
      for (let step = 0; step < 60; step++) {
        const user = users[(step * 7) % users.length]!;
        const value = (step * 5) % 7;
        await ratings.change(user, 1, rate(value >= 1 && value <= 5 ? (value as RatingValue) : null));
      }

      const held: RatingValue[] = [];
      for (const user of users) {
        const rating = await probe.rating(user, 1);
        if (rating !== null) held.push(rating);
      }
      expect(held.length).toBeGreaterThan(0);
      expect(await probe.histogram(1)).toEqual(histogramOf(held));
    });

    it('loses no update when many changes are in flight at once', async () => {
      const ratings = await withMeals();
      const values: RatingValue[] = [1, 2, 3, 4, 5];
      await Promise.all(
        Array.from({ length: 40 }, (_, index) => ratings.change(`user-${index}`, 1, rate(values[index % 5]!))),
      );
      // One user racing with themself still ends with a single rating.
      await Promise.all(values.map((value) => ratings.change('alice', 1, rate(value))));

      const alice = await probe.rating('alice', 1);
      expect(alice).not.toBeNull();
      const expected = [...Array.from({ length: 40 }, (_, index) => values[index % 5]!), alice!];
      expect(await probe.histogram(1)).toEqual(histogramOf(expected));
    });
  });
}
