import { accept, decideRatingChange, type Meal } from '@canteen-meals/domain';
import { describe, expect, it } from 'vitest';
import { probeThrough } from './repository-probe.js';
import { freshFixturePerTest, type CreateRepositoryFixture } from './repository-fixture.js';
import { ratingOpenAt, sampleMeal, servedAt } from './sample-meals.js';

/** What every MealCatalog adapter must do, whatever stores the meals. */
export function describeMealCatalogContract(adapterName: string, createFixture: CreateRepositoryFixture): void {
  describe(`MealCatalog contract: ${adapterName}`, () => {
    const store = freshFixturePerTest(createFixture);
    const probe = probeThrough(() => store().queries);

    it('finds nothing and counts zero in an empty store', async () => {
      const { meals } = store();
      expect(await probe.meal(1)).toBeUndefined();
      expect(await meals.count()).toBe(0);
    });

    it('inserts a batch, answers its size and reads every field back exactly', async () => {
      const { meals } = store();
      const batch = [
        sampleMeal(1),
        sampleMeal(2, { name: 'Gemüseeintopf mit Brot', rateable: false }),
        sampleMeal(3, { servedAt: new Date('2025-12-31T23:59:59.999Z') }),
      ];

      expect(await meals.upsertMany(batch)).toEqual(accept(3));

      for (const meal of batch) expect(await probe.meal(meal.id)).toEqual(meal);
      expect(await meals.count()).toBe(3);
    });

    it('stores category, notes and prices and reads them back exactly', async () => {
      const { meals } = store();
      const detailed = sampleMeal(1, {
        name: `Käsespätzle ${'x'.repeat(238)}`,
        category: 'Ausgabe A – vegetarisch',
        notes: ['vegetarisch', 'Allergene: Gluten (Weizen), Milch, Ei', 'vegetarisch'],
        prices: { student: '2.60', employee: '4.10', pupil: '0.00', other: '5.125' },
      });
      const partial = sampleMeal(2, { category: null, notes: [], prices: { other: '12.00' } });

      await meals.upsertMany([detailed, partial]);

      expect(await probe.meal(1)).toEqual(detailed);
      expect(await probe.meal(2)).toEqual(partial);
    });

    it('stores labels and reads them back exactly, and an update replaces them', async () => {
      const { meals } = store();
      const labelled = sampleMeal(1, {
        notes: ['Weizen', 'Senf'],
        labels: ['gluten', 'mustard', 'vegetarian', 'wheat'],
      });
      await meals.upsertMany([labelled, sampleMeal(2)]);
      expect(await probe.meal(1)).toEqual(labelled);
      expect((await probe.meal(2))?.labels).toEqual([]);

      await meals.upsertMany([{ ...labelled, labels: ['vegan', 'vegetarian'] }]);
      expect((await probe.meal(1))?.labels).toEqual(['vegan', 'vegetarian']);
      expect((await probe.meal(1))?.notes).toEqual(['Weizen', 'Senf']);
    });

    it('answers the default details for a meal written without them, and replaces details on update', async () => {
      const { meals } = store();
      const bare: Meal = { id: 1, name: 'Meal 1', servedAt, rateable: true };
      await meals.upsertMany([bare]);
      expect(await probe.meal(1)).toEqual(sampleMeal(1));
      expect((await probe.meal(1))?.category).toBeNull();

      await meals.upsertMany([sampleMeal(1, { category: 'Dessert', notes: ['vegan'], prices: { student: '1.00' } })]);
      await meals.upsertMany([bare]);

      expect(await probe.meal(1)).toEqual(sampleMeal(1));
    });

    it('finds no meal under an id that was never stored', async () => {
      const { meals } = store();
      await meals.upsertMany([sampleMeal(1), sampleMeal(3)]);
      expect(await probe.meal(2)).toBeUndefined();
      expect(await probe.meal(4)).toBeUndefined();
    });

    it('updates an existing meal in place: same id, new fields, same count', async () => {
      const { meals } = store();
      await meals.upsertMany([sampleMeal(1), sampleMeal(2)]);
      const updated = sampleMeal(1, {
        name: 'Renamed',
        servedAt: new Date('2025-03-11T10:00:00Z'),
        rateable: false,
        category: 'Tellergericht',
        notes: ['vegan'],
        prices: { student: '2.60' },
      });

      expect(await meals.upsertMany([updated, sampleMeal(5)])).toEqual(accept(2));

      expect(await probe.meal(1)).toEqual(updated);
      expect(await probe.meal(2)).toEqual(sampleMeal(2));
      expect(await meals.count()).toBe(3);
    });

    it('keeps the ratings and markings of a meal it updates', async () => {
      const { meals, ratings, markings } = store();
      await meals.upsertMany([sampleMeal(1)]);
      await ratings.change('alice', 1, (snapshot) => decideRatingChange(snapshot, 4, ratingOpenAt));
      await ratings.change('bob', 1, (snapshot) => decideRatingChange(snapshot, 2, ratingOpenAt));
      await markings.setMarked('alice', 1, true);

      await meals.upsertMany([sampleMeal(1, { name: 'Renamed', rateable: false })]);

      expect(await probe.rating('alice', 1)).toBe(4);
      expect(await probe.rating('bob', 1)).toBe(2);
      expect(await probe.histogram(1)).toEqual([0, 1, 0, 1, 0]);
      expect(await probe.marked('alice', 1)).toBe(true);
      expect(await probe.marked('bob', 1)).toBe(false);
    });

    it('accepts an empty batch and changes nothing', async () => {
      const { meals } = store();
      await meals.upsertMany([sampleMeal(1)]);
      expect(await meals.upsertMany([])).toEqual(accept(0));
      expect(await meals.count()).toBe(1);
    });

    it('stores all of a batch or none: a meal that fails midway leaves the earlier ones unwritten', async () => {
      const { meals } = store();
      await meals.upsertMany([sampleMeal(1)]);
      // No store can hold an instant that is not a Date; the failure comes after two good meals.
      const broken = { ...sampleMeal(3), servedAt: 'not an instant' } as unknown as Meal;
      const batch = [sampleMeal(1, { name: 'Renamed' }), sampleMeal(2), broken, sampleMeal(4)];

      await expect(meals.upsertMany(batch)).rejects.toThrow();

      expect(await probe.meal(1)).toEqual(sampleMeal(1));
      expect(await probe.meal(2)).toBeUndefined();
      expect(await probe.meal(4)).toBeUndefined();
      expect(await meals.count()).toBe(1);
    });

    it('hands out copies: changing a stored or returned meal object does not change the store', async () => {
      const { meals } = store();
      const details = { notes: ['vegan'], prices: { student: '2.60' } };
      const input = sampleMeal(1, {
        servedAt: new Date(servedAt.getTime()),
        notes: [...details.notes],
        prices: { ...details.prices },
      });
      await meals.upsertMany([input]);
      input.servedAt.setTime(0);
      (input.notes as string[]).push('changed');
      (input.prices as Record<string, string>).student = '9.99';
      const found = await probe.meal(1);
      found?.servedAt.setTime(0);
      (found?.notes as string[]).push('changed');
      (found?.prices as Record<string, string>).other = '9.99';

      expect(await probe.meal(1)).toEqual(sampleMeal(1, details));
    });

    it("answers each existing meal's canteen, withdrawn ones and those of an archived canteen too", async () => {
      const { meals, canteens } = store();
      const nord = {
        id: 'nord',
        name: 'Mensa Nord',
        timeZone: 'Europe/Berlin',
        city: null,
        address: null,
        coordinates: null,
        feeds: [],
      };
      expect((await canteens.save(nord)).ok).toBe(true);
      await meals.upsertMany([
        sampleMeal(1),
        sampleMeal(2, { canteenId: 'nord' }),
        sampleMeal(3, { canteenId: 'nord' }),
      ]);
      await meals.withdraw(2, servedAt);
      await canteens.archive('nord', servedAt);

      const found = await meals.canteensOf([1, 2, 3, 4, 1]);
      expect(new Map([...found].sort(([a], [b]) => a - b))).toEqual(
        new Map([
          [1, 'default'],
          [2, 'nord'],
          [3, 'nord'],
        ]),
      );
      expect((await meals.canteensOf([])).size).toBe(0);
    });
  });
}
