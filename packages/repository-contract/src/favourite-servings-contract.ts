import {
  defaultCanteenId,
  inServingOrder,
  withMealDetails,
  type Canteen,
  type Meal,
  type MealId,
  type PersonalMeal,
} from '@canteen-meals/domain';
import type { ServingWindow } from '@canteen-meals/domain/ports';
import { describe, expect, it } from 'vitest';
import { rateInPeriod } from './rate-in-period.js';
import type { CreateReadRepositoryFixture } from './read-repository-fixture.js';
import { freshFixturePerTest } from './repository-fixture.js';
import { sampleMeal } from './sample-meals.js';

const hour = 60 * 60 * 1000;
const day = 24 * hour;
/** The instant the reads are made at: the windows below start with this day. */
const now = new Date('2025-03-10T09:00:00.000Z');
const startOfToday = new Date('2025-03-10T00:00:00.000Z');

/**
 * A serving of the dish `name` (of the default canteen unless `traits` says otherwise) at `days` and `hours` after
 * today's start.
 */
const serving = (id: MealId, name: string, days: number, traits: Partial<Meal> = {}): Meal =>
  sampleMeal(id, { name, servedAt: new Date(startOfToday.getTime() + days * day + 11.5 * hour), ...traits });

const canteen = (id: string): Canteen => ({
  id,
  name: id,
  timeZone: 'UTC',
  city: null,
  address: null,
  coordinates: null,
  feeds: [],
});

/** The days `0` to `days - 1` after today's start, of each canteen. */
const comingDays = (days: number, ...canteenIds: string[]): ServingWindow[] =>
  (canteenIds.length === 0 ? [defaultCanteenId] : canteenIds).map((canteenId) => ({
    canteenId,
    from: startOfToday,
    until: new Date(startOfToday.getTime() + days * day),
  }));

const idsOf = (views: readonly PersonalMeal[]) => views.map((view) => view.meal.id);

/**
 * MealQueries.favouriteServingsIn, run by every adapter: a dish is a favourite once its user marked any serving of it
 * (past, to come, withdrawn); the answer is its servings in the windows that are not withdrawn, in serving order.
 */
export function describeFavouriteServingsContract(
  adapterName: string,
  createFixture: CreateReadRepositoryFixture,
): void {
  describe(`MealQueries.favouriteServingsIn contract: ${adapterName}`, () => {
    const store = freshFixturePerTest(createFixture);

    it("answers the coming servings of the dishes the user marked a serving of, and no other user's", async () => {
      const { meals, markings, queries } = store();
      await meals.upsertMany([
        serving(1, 'Lentil soup', -7),
        serving(2, 'Lentil soup', 2),
        serving(3, 'Chili', 1),
        serving(4, 'lentil  SOUP', 5), // the same dish: the name key folds case and spacing
        serving(5, 'Pasta', 3),
        serving(6, 'Chili', 4),
      ]);
      await markings.setMarked('alice', 1, true); // a past serving: its dish's coming servings are her favourites
      await markings.setMarked('bob', 3, true);

      expect(idsOf(await queries.favouriteServingsIn('alice', comingDays(7), now, 100))).toEqual([2, 4]);
      expect(idsOf(await queries.favouriteServingsIn('bob', comingDays(7), now, 100))).toEqual([3, 6]);
      expect(await queries.favouriteServingsIn('carol', comingDays(7), now, 100)).toEqual([]);
      expect(await queries.favouriteServingsIn('alice', [], now, 100)).toEqual([]);
    });

    it("answers each serving as the other reads do: with its histogram, the reader's own state and its dish as of the instant", async () => {
      const { meals, markings, ratings, queries } = store();
      const past = serving(1, 'Lentil soup', -1);
      await meals.upsertMany([past, serving(2, 'Lentil soup', 0), serving(3, 'Lentil soup', 1)]);
      await markings.setMarked('alice', 1, true);
      await markings.setMarked('alice', 3, true);
      await rateInPeriod(ratings, 'alice', past, 4);
      await rateInPeriod(ratings, 'bob', past, 2);

      const answered = await queries.favouriteServingsIn('alice', comingDays(2), now, 100);
      const byId = await queries.viewsByIds('alice', [2, 3], now);
      expect(answered).toEqual([...byId].sort((a, b) => a.meal.id - b.meal.id));
      expect(answered[1]).toMatchObject({ marked: true, personalRating: null });
      expect(answered[0]!.dish).toMatchObject({
        histogram: [0, 1, 0, 1, 0],
        timesServed: 1,
        nextServedAt: serving(2, '', 0).servedAt,
      });
    });

    it('keeps a dish a favourite after its marked serving was withdrawn, and never lists a withdrawn serving', async () => {
      const { meals, markings, queries } = store();
      await meals.upsertMany([serving(1, 'Chili', 1), serving(2, 'Chili', 2), serving(3, 'Chili', 3)]);
      await markings.setMarked('alice', 1, true);
      await meals.withdraw(1, now);
      await meals.withdraw(3, now);

      expect(idsOf(await queries.favouriteServingsIn('alice', comingDays(7), now, 100))).toEqual([2]);
    });

    it("reads each window's canteen only, from `from` inclusive to `until` exclusive, each meal once", async () => {
      const { meals, markings, canteens, queries } = store();
      await canteens.save(canteen('nord'));
      const first = serving(1, 'Chili', 0);
      await meals.upsertMany([
        first,
        serving(2, 'Chili', 1),
        serving(3, 'Chili', 2, { canteenId: 'nord' }), // another canteen's chili is another dish
        serving(4, 'Chili', 1, { canteenId: 'nord' }),
      ]);
      await markings.setMarked('alice', 1, true);
      await markings.setMarked('alice', 4, true);
      const at = first.servedAt.getTime();
      const window = (from: number, until: number, canteenId = defaultCanteenId) => ({
        canteenId,
        from: new Date(from),
        until: new Date(until),
      });
      const read = (windows: ServingWindow[]) => queries.favouriteServingsIn('alice', windows, now, 100).then(idsOf);

      expect(await read([window(at, at + 1)])).toEqual([1]);
      expect(await read([window(at + 1, at + day + 1)])).toEqual([2]);
      expect(await read([window(at - day, at)])).toEqual([]);
      expect(await read(comingDays(2))).toEqual([1, 2]);
      expect(await read(comingDays(2, 'nord'))).toEqual([4]);
      expect(await read([...comingDays(3, defaultCanteenId, 'nord'), ...comingDays(2, 'nord')])).toEqual([1, 2, 4, 3]);
      // A window of one canteen does not reach another canteen's meals in the same span of time.
      expect(await read([window(at, at + day + 1, 'nord'), window(at + 2 * day, at + 3 * day)])).toEqual([4]);
    });

    it('answers in serving order: time, then canteen id byte by byte, then position, then id; cut after `limit`', async () => {
      const { meals, markings, canteens, queries } = store();
      // In byte order "mensa-b" comes before "mensaa" ("-" is below the letters); some collations ignore the hyphen.
      await canteens.save(canteen('mensaa'));
      await canteens.save(canteen('mensa-b'));
      const noon = (id: MealId, canteenId: string, position: number) =>
        serving(id, 'Chili', 1, { canteenId, position });
      const menu = [
        noon(10, 'mensaa', 0),
        noon(11, 'mensa-b', 2),
        noon(12, 'mensa-b', 1),
        noon(13, defaultCanteenId, 1),
        noon(14, defaultCanteenId, 1),
        serving(15, 'Chili', 0, { canteenId: 'mensaa', position: 9 }),
        serving(16, 'Chili', 1, { canteenId: 'mensaa', servedAt: new Date(noon(0, '', 0).servedAt.getTime() - 1) }),
      ];
      await meals.upsertMany(menu);
      for (const canteenId of [defaultCanteenId, 'mensaa', 'mensa-b']) {
        await markings.setMarked('alice', menu.find((meal) => meal.canteenId === canteenId)!.id, true);
      }
      const windows = comingDays(3, 'mensaa', defaultCanteenId, 'mensa-b');
      const expected = [15, 16, 13, 14, 12, 11, 10];
      // The domain's comparator agrees: it is what the in-memory adapter sorts with.
      expect(
        menu
          .map(withMealDetails)
          .sort(inServingOrder)
          .map((meal) => meal.id),
      ).toEqual(expected);

      expect(idsOf(await queries.favouriteServingsIn('alice', windows, now, 100))).toEqual(expected);
      expect(idsOf(await queries.favouriteServingsIn('alice', windows, now, 4))).toEqual(expected.slice(0, 4));
      expect(idsOf(await queries.favouriteServingsIn('alice', windows, now, 1))).toEqual([15]);
    });
  });
}
