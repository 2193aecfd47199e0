import {
  decideDishMerge,
  initialAvailability,
  defaultCanteenId,
  emptyHistogram,
  type Canteen,
  type DetailedMeal,
  type DishSummary,
  type RatingHistogram,
  type Meal,
  type MenuPosition,
  type PersonalMeal,
  type ServedPosition,
  type UserId,
} from '@canteen-meals/domain';
import type { MealQueries, ServingWindow } from '@canteen-meals/domain/ports';
import { describe, expect, it } from 'vitest';
import { rateInPeriod } from './rate-in-period.js';
import type { CreateReadRepositoryFixture } from './read-repository-fixture.js';
import { freshFixturePerTest } from './repository-fixture.js';
import { sampleMeal, readAt } from './sample-meals.js';

const at = (iso: string) => new Date(iso);
const statesOf = async (queries: MealQueries, userId: UserId, mealIds: readonly number[]) =>
  (await queries.personalPartOf(userId, mealIds)).states;
const idsOf = (views: readonly PersonalMeal[]) => views.map((view) => view.meal.id);
const after = (meal: Meal): ServedPosition => ({ servedAt: meal.servedAt, mealId: meal.id });

/**
 * A week of meals. Most recently served first, the order is 6, 5, 4, 3, 2, 1: meals 3 and 4 share an instant, and
 * the higher id comes first.
 */
const week: readonly Meal[] = [
  sampleMeal(1, { servedAt: at('2025-03-03T11:00:00.000Z') }),
  sampleMeal(2, { servedAt: at('2025-03-04T11:00:00.000Z') }),
  sampleMeal(3, { servedAt: at('2025-03-05T11:00:00.000Z'), name: 'Gemüsecurry' }),
  sampleMeal(4, { servedAt: at('2025-03-05T11:00:00.000Z'), rateable: false }),
  sampleMeal(5, { servedAt: at('2025-03-06T11:00:00.000Z') }),
  sampleMeal(6, { servedAt: at('2025-03-07T11:00:00.000Z') }),
];
const meal = (id: number) => week[id - 1]!;

/**
 * The dish of a meal that is the only serving of its dish (every sample meal has a name of its own): its histogram is
 * the meal's, and at `readAt` it was served once.
 */
function servedAlone(
  meal: Pick<DetailedMeal, 'name' | 'servedAt'> & Partial<DetailedMeal>,
  histogram: RatingHistogram,
): DishSummary {
  const past = meal.servedAt <= readAt;
  return {
    id: expect.any(Number) as unknown as number,
    canteenId: meal.canteenId ?? defaultCanteenId,
    name: meal.name,
    histogram,
    timesServed: past ? 1 : 0,
    lastServedAt: past ? meal.servedAt : null,
    nextServedAt: past ? null : meal.servedAt,
  };
}

/** A window of the `default` canteen: the meals it serves from `from` inclusive to `until` exclusive. */
function inDefault(from: Date, until: Date): ServingWindow[] {
  return [{ canteenId: defaultCanteenId, from, until }];
}

const otherCanteen: Canteen = {
  id: 'mensa-nord',
  name: 'Mensa Nord',
  timeZone: 'Europe/Berlin',
  city: null,
  address: null,
  coordinates: null,
  feeds: [],
};

/**
 * Reads the whole menu of `windows` page by page, each page strictly after the last meal of the one before, until a
 * page comes back empty; answers the pages that were not. Bounded, so that a page that does not move on fails.
 */
async function pagesOf(
  queries: MealQueries,
  reader: UserId | null,
  windows: readonly ServingWindow[],
  limit: number,
): Promise<PersonalMeal[][]> {
  const pages: PersonalMeal[][] = [];
  let after: MenuPosition | null = null;
  for (let read = 0; read < 50; read++) {
    const page = await queries.viewsServedIn(reader, windows, readAt, { after, limit });
    if (page.length === 0) return pages;
    pages.push(page);
    const { meal: last } = page[page.length - 1]!;
    after = { servedAt: last.servedAt, position: last.position, mealId: last.id };
  }
  throw new Error(`paging through the menu did not end: ${pages.map(idsOf).join(' | ')}`);
}

/** What every MealQueries adapter must do: the read side over the same store as the write side. */
export function describeMealQueriesContract(adapterName: string, createFixture: CreateReadRepositoryFixture): void {
  describe(`MealQueries contract: ${adapterName}`, () => {
    const store = freshFixturePerTest(createFixture);
    const withWeek = async () => {
      const fixture = store();
      await fixture.meals.upsertMany(week);
      return fixture;
    };

    describe('viewsByIds', () => {
      it('answers nothing in an empty store and for an empty list', async () => {
        const { queries } = store();
        expect(await queries.viewsByIds('alice', [1, 2], readAt)).toEqual([]);
        await store().meals.upsertMany(week);
        expect(await queries.viewsByIds('alice', [], readAt)).toEqual([]);
      });

      it('answers an unrated, unmarked meal with every field and an empty histogram', async () => {
        const { queries } = await withWeek();
        expect(await queries.viewsByIds('alice', [3], readAt)).toEqual([
          {
            meal: meal(3),
            histogram: emptyHistogram,
            marked: false,
            personalRating: null,
            dish: servedAlone(meal(3), emptyHistogram),
            availability: initialAvailability,
          },
        ]);
      });

      it("answers the histogram of all users and the reader's own marking and rating", async () => {
        const { queries, ratings, markings } = await withWeek();
        await rateInPeriod(ratings, 'alice', meal(1), 4);
        await rateInPeriod(ratings, 'bob', meal(1), 2);
        await rateInPeriod(ratings, 'carol', meal(1), 4);
        await markings.setMarked('alice', 1, true);

        expect(await queries.viewsByIds('alice', [1], readAt)).toEqual([
          {
            meal: meal(1),
            histogram: [0, 1, 0, 2, 0],
            marked: true,
            personalRating: 4,
            dish: servedAlone(meal(1), [0, 1, 0, 2, 0]),
            availability: initialAvailability,
          },
        ]);
        expect(await queries.viewsByIds('bob', [1], readAt)).toEqual([
          {
            meal: meal(1),
            histogram: [0, 1, 0, 2, 0],
            marked: false,
            personalRating: 2,
            dish: servedAlone(meal(1), [0, 1, 0, 2, 0]),
            availability: initialAvailability,
          },
        ]);
        expect(await queries.viewsByIds('dave', [1], readAt)).toEqual([
          {
            meal: meal(1),
            histogram: [0, 1, 0, 2, 0],
            marked: false,
            personalRating: null,
            dish: servedAlone(meal(1), [0, 1, 0, 2, 0]),
            availability: initialAvailability,
          },
        ]);
      });

      it("answers the meal's details as stored, on every read", async () => {
        const { queries, meals, markings, ratings } = await withWeek();
        const detailed = sampleMeal(7, {
          servedAt: at('2025-03-08T11:00:00.000Z'),
          category: 'Aktionsteller',
          notes: ['vegetarisch', 'enthält Gluten'],
          prices: { student: '2.60', employee: '4.10', pupil: '3.00', other: '5.125' },
        });
        await meals.upsertMany([detailed]);
        await markings.setMarked('alice', 7, true);
        await rateInPeriod(ratings, 'alice', detailed, 2);
        const expected = {
          meal: detailed,
          histogram: [0, 1, 0, 0, 0],
          marked: true,
          personalRating: 2,
          dish: servedAlone(detailed, [0, 1, 0, 0, 0]),
          availability: initialAvailability,
        };

        expect(await queries.viewsByIds('alice', [7], readAt)).toEqual([expected]);
        expect(
          await queries.viewsServedIn('alice', inDefault(detailed.servedAt, at('2025-03-09T00:00:00.000Z')), readAt),
        ).toEqual([expected]);
        expect((await queries.markedMeals('alice', { after: null, limit: 1 }, readAt))[0]).toEqual(expected);
        expect((await queries.ratedMeals('alice', { after: null, limit: 1 }, readAt))[0]).toEqual(expected);
      });

      it('leaves out ids that name no meal and answers a repeated id once', async () => {
        const { queries } = await withWeek();
        const views = await queries.viewsByIds('alice', [5, 99, 2, 5, 5, 1000], readAt);
        expect(idsOf(views).sort()).toEqual([2, 5]);
      });

      it('reads a hundred meals in one call, each with its own state', async () => {
        const { queries, meals, markings } = store();
        const many = Array.from({ length: 100 }, (_, index) => sampleMeal(index + 1));
        await meals.upsertMany(many);
        for (const id of [7, 42, 100]) await markings.setMarked('alice', id, true);

        const views = await queries.viewsByIds(
          'alice',
          many.map((m) => m.id),
          readAt,
        );

        expect(idsOf(views).sort((a, b) => a - b)).toEqual(many.map((m) => m.id));
        expect(
          views
            .filter((view) => view.marked)
            .map((view) => view.meal.id)
            .sort((a, b) => a - b),
        ).toEqual([7, 42, 100]);
      });

      it('reflects changes made after an earlier read', async () => {
        const { queries, ratings, markings } = await withWeek();
        await queries.viewsByIds('alice', [2], readAt);
        await rateInPeriod(ratings, 'alice', meal(2), 5);
        await markings.setMarked('alice', 2, true);
        await rateInPeriod(ratings, 'alice', meal(2), null);

        expect(await queries.viewsByIds('alice', [2], readAt)).toEqual([
          {
            meal: meal(2),
            histogram: emptyHistogram,
            marked: true,
            personalRating: null,
            dish: servedAlone(meal(2), emptyHistogram),
            availability: initialAvailability,
          },
        ]);
      });
    });

    describe('viewsServedIn', () => {
      it("answers each window's canteen only, each meal once, by serving time, then position, then id", async () => {
        const { queries, meals, canteens } = store();
        await canteens.save(otherCanteen);
        const noon = at('2025-03-10T11:00:00.000Z');
        await meals.upsertMany([
          { ...meal(1), servedAt: noon, position: 2 },
          { ...meal(2), servedAt: noon, position: 0, canteenId: otherCanteen.id },
          { ...meal(3), servedAt: noon, position: 1 },
          { ...meal(4), servedAt: noon, position: 1 },
          { ...meal(5), servedAt: at('2025-03-10T10:00:00.000Z'), position: 9 },
        ]);
        const all = inDefault(at('2025-03-10T00:00:00.000Z'), at('2025-03-11T00:00:00.000Z'));
        expect(idsOf(await queries.viewsServedIn('alice', all, readAt))).toEqual([5, 3, 4, 1]);
        const both = [...all, { ...all[0]!, canteenId: otherCanteen.id }];
        expect(idsOf(await queries.viewsServedIn('alice', both, readAt))).toEqual([5, 2, 3, 4, 1]);
        expect(idsOf(await queries.viewsServedIn('alice', [...both, ...both], readAt))).toEqual([5, 2, 3, 4, 1]);
        expect(await queries.viewsServedIn('alice', [], readAt)).toEqual([]);
        expect((await queries.viewsByIds('alice', [2], readAt))[0]?.meal).toMatchObject({
          canteenId: otherCanteen.id,
          position: 0,
        });
      });

      it('answers the meals served from `from` inclusive to `until` exclusive, earliest first, then by id', async () => {
        const { queries } = await withWeek();
        const views = await queries.viewsServedIn('alice', inDefault(meal(2).servedAt, meal(6).servedAt), readAt);
        expect(idsOf(views)).toEqual([2, 3, 4, 5]);
      });

      it('stands on the boundaries to the millisecond', async () => {
        const { queries } = await withWeek();
        const served = meal(1).servedAt.getTime();
        expect(
          idsOf(await queries.viewsServedIn('alice', inDefault(new Date(served), new Date(served + 1)), readAt)),
        ).toEqual([1]);
        expect(
          idsOf(await queries.viewsServedIn('alice', inDefault(new Date(served + 1), new Date(served + 2)), readAt)),
        ).toEqual([]);
        expect(
          idsOf(await queries.viewsServedIn('alice', inDefault(new Date(served - 1), new Date(served)), readAt)),
        ).toEqual([]);
      });

      it("carries the reader's own state", async () => {
        const { queries, ratings, markings } = await withWeek();
        await markings.setMarked('alice', 3, true);
        await rateInPeriod(ratings, 'alice', meal(3), 1);
        await rateInPeriod(ratings, 'bob', meal(3), 5);

        const [view] = await queries.viewsServedIn('alice', inDefault(meal(3).servedAt, meal(5).servedAt), readAt);
        expect(view).toEqual({
          meal: meal(3),
          histogram: [1, 0, 0, 0, 1],
          marked: true,
          personalRating: 1,
          dish: servedAlone(meal(3), [1, 0, 0, 0, 1]),
          availability: initialAvailability,
        });
      });
    });

    describe('viewsServedIn of an anonymous reader', () => {
      it('answers no personal state, though the meals are marked and rated, and every histogram', async () => {
        const { queries, ratings, markings } = await withWeek();
        await markings.setMarked('alice', 3, true);
        await rateInPeriod(ratings, 'alice', meal(3), 1);
        await markings.setMarked('bob', 2, true);
        await rateInPeriod(ratings, 'bob', meal(2), 5);
        const days = inDefault(meal(2).servedAt, meal(5).servedAt);
        const anonymous = [
          {
            meal: meal(2),
            histogram: [0, 0, 0, 0, 1],
            marked: false,
            personalRating: null,
            dish: servedAlone(meal(2), [0, 0, 0, 0, 1]),
            availability: initialAvailability,
          },
          {
            meal: meal(3),
            histogram: [1, 0, 0, 0, 0],
            marked: false,
            personalRating: null,
            dish: servedAlone(meal(3), [1, 0, 0, 0, 0]),
            availability: initialAvailability,
          },
          {
            meal: meal(4),
            histogram: emptyHistogram,
            marked: false,
            personalRating: null,
            dish: servedAlone(meal(4), emptyHistogram),
            availability: initialAvailability,
          },
        ];

        expect(await queries.viewsServedIn(null, days, readAt)).toEqual(anonymous);
        expect(await queries.viewsServedIn(null, days, readAt, { after: null, limit: 10 })).toEqual(anonymous);
        // The same meals read by a user who marked and rated: the state was there to be left out.
        expect((await queries.viewsServedIn('alice', days, readAt))[1]).toMatchObject({
          marked: true,
          personalRating: 1,
        });
      });
    });

    describe('viewsServedIn by page', () => {
      const noon = at('2025-03-10T11:00:00.000Z');
      const day = inDefault(at('2025-03-10T00:00:00.000Z'), at('2025-03-11T00:00:00.000Z'));
      /** In menu order 30, 12, 13, 14, 11, 15, 10: three meals at noon in position 0, two in position 2. */
      const tiedMenu: readonly Meal[] = [
        sampleMeal(14, { servedAt: noon, position: 0 }),
        sampleMeal(10, { servedAt: at('2025-03-10T12:00:00.000Z'), position: 0 }),
        sampleMeal(15, { servedAt: noon, position: 2 }),
        sampleMeal(12, { servedAt: noon, position: 0 }),
        sampleMeal(30, { servedAt: at('2025-03-10T10:00:00.000Z'), position: 5 }),
        sampleMeal(11, { servedAt: noon, position: 2 }),
        sampleMeal(13, { servedAt: noon, position: 0 }),
        sampleMeal(16, { servedAt: noon, position: 0 }),
        sampleMeal(17, { servedAt: at('2025-03-11T00:00:00.000Z'), position: 0 }),
      ];
      const withTiedMenu = async () => {
        const fixture = store();
        await fixture.meals.upsertMany(tiedMenu);
        await fixture.meals.withdraw(16, readAt);
        return fixture;
      };

      it('walks a menu of tied serving times and positions, ties by id, losing and repeating no meal', async () => {
        const { queries, markings, ratings } = await withTiedMenu();
        await markings.setMarked('alice', 13, true);
        await rateInPeriod(ratings, 'alice', tiedMenu.find((m) => m.id === 15)!, 3);

        expect((await pagesOf(queries, 'alice', day, 1)).map(idsOf)).toEqual([
          [30],
          [12],
          [13],
          [14],
          [11],
          [15],
          [10],
        ]);
        expect((await pagesOf(queries, 'alice', day, 2)).map(idsOf)).toEqual([[30, 12], [13, 14], [11, 15], [10]]);
        expect((await pagesOf(queries, 'alice', day, 3)).map(idsOf)).toEqual([[30, 12, 13], [14, 11, 15], [10]]);
        expect((await pagesOf(queries, 'alice', day, 50)).map(idsOf)).toEqual([[30, 12, 13, 14, 11, 15, 10]]);
        // Without a page, the whole menu in the same order; by page, the same views, the reader's own state included.
        const whole = await queries.viewsServedIn('alice', day, readAt);
        expect(idsOf(whole)).toEqual([30, 12, 13, 14, 11, 15, 10]);
        expect((await pagesOf(queries, 'alice', day, 2)).flat()).toEqual(whole);
        expect(whole.filter((view) => view.marked || view.personalRating !== null).map((view) => view.meal.id)).toEqual(
          [13, 15],
        );
      });

      it('starts strictly after a position, whether or not a meal stands there', async () => {
        const { queries } = await withTiedMenu();
        const page = (after: MenuPosition, limit: number) => queries.viewsServedIn(null, day, readAt, { after, limit });

        expect(idsOf(await page({ servedAt: noon, position: 0, mealId: 12 }, 2))).toEqual([13, 14]);
        expect(idsOf(await page({ servedAt: noon, position: 1, mealId: 1 }, 10))).toEqual([11, 15, 10]);
        expect(idsOf(await page({ servedAt: noon, position: 0, mealId: 16 }, 1))).toEqual([11]);
        expect(idsOf(await page({ servedAt: at('2025-03-09T00:00:00.000Z'), position: 9999, mealId: 99 }, 1))).toEqual([
          30,
        ]);
        expect(await page({ servedAt: at('2025-03-10T12:00:00.000Z'), position: 0, mealId: 10 }, 10)).toEqual([]);
      });

      it('pages through the windows of two canteens as one menu, a meal of overlapping windows once', async () => {
        const { queries, meals, canteens } = store();
        await canteens.save(otherCanteen);
        const nord = { canteenId: otherCanteen.id };
        await meals.upsertMany([
          sampleMeal(1, { servedAt: noon, position: 0 }),
          sampleMeal(2, { servedAt: noon, position: 1 }),
          sampleMeal(3, { servedAt: at('2025-03-10T12:00:00.000Z'), position: 0 }),
          sampleMeal(4, { servedAt: noon, position: 0, ...nord }),
          sampleMeal(5, { servedAt: at('2025-03-10T11:30:00.000Z'), position: 0, ...nord }),
          sampleMeal(6, { servedAt: at('2025-03-10T12:00:00.000Z'), position: 0, ...nord }),
          sampleMeal(7, { servedAt: at('2025-03-11T11:00:00.000Z'), position: 0 }),
          sampleMeal(8, { servedAt: at('2025-03-09T11:00:00.000Z'), position: 0, ...nord }),
        ]);
        const both = [...day, { ...day[0]!, ...nord }];

        expect((await pagesOf(queries, 'alice', both, 2)).map(idsOf)).toEqual([
          [1, 4],
          [2, 5],
          [3, 6],
        ]);
        expect((await pagesOf(queries, 'alice', both, 4)).map(idsOf)).toEqual([
          [1, 4, 2, 5],
          [3, 6],
        ]);
        expect((await pagesOf(queries, 'alice', [...both, ...both, ...day], 4)).map(idsOf)).toEqual([
          [1, 4, 2, 5],
          [3, 6],
        ]);
        expect((await pagesOf(queries, 'alice', [{ ...day[0]!, ...nord }], 2)).map(idsOf)).toEqual([[4, 5], [6]]);
        expect(await queries.viewsServedIn('alice', [], readAt, { after: null, limit: 2 })).toEqual([]);
      });
    });

    describe('personalPartOf', () => {
      const noon = at('2025-03-10T11:00:00.000Z');
      const meals8: readonly Meal[] = Array.from({ length: 8 }, (_, i) => sampleMeal(i + 1, { servedAt: noon }));
      const byId = (id: number) => meals8.find((m) => m.id === id)!;

      it("answers the user's own state of those of the meals asked for that the user marked or rated, in the order asked", async () => {
        const { queries, meals, markings, ratings } = store();
        await meals.upsertMany(meals8);
        await markings.setMarked('alice', 1, true);
        await rateInPeriod(ratings, 'alice', byId(1), 4);
        await markings.setMarked('alice', 2, true);
        await rateInPeriod(ratings, 'alice', byId(3), 2);
        await markings.setMarked('alice', 5, true);
        await markings.setMarked('alice', 7, true);
        // Marked and unmarked, rated and the rating deleted: nothing of alice's is left on meal 8.
        await markings.setMarked('alice', 8, true);
        await markings.setMarked('alice', 8, false);
        await rateInPeriod(ratings, 'alice', byId(8), 3);
        await rateInPeriod(ratings, 'alice', byId(8), null);
        await markings.setMarked('bob', 4, true);
        await rateInPeriod(ratings, 'bob', byId(4), 5);
        await rateInPeriod(ratings, 'bob', byId(3), 1);

        expect(await statesOf(queries, 'alice', [5, 8, 3, 4, 1, 2])).toEqual([
          { mealId: 5, marked: true, personalRating: null },
          { mealId: 3, marked: false, personalRating: 2 },
          { mealId: 1, marked: true, personalRating: 4 },
          { mealId: 2, marked: true, personalRating: null },
        ]);
        // Each meal once; meals not asked for (alice's 3 and 7 here) are left out, even between those asked for.
        expect(await statesOf(queries, 'alice', [1, 5, 1, 8])).toEqual([
          { mealId: 1, marked: true, personalRating: 4 },
          { mealId: 5, marked: true, personalRating: null },
        ]);
        expect(await statesOf(queries, 'bob', [1, 2, 3, 4])).toEqual([
          { mealId: 3, marked: false, personalRating: 1 },
          { mealId: 4, marked: true, personalRating: 5 },
        ]);
        // The same states as the views of the meals carry.
        const views = await queries.viewsByIds('alice', [1, 2, 3, 4, 5, 6, 7, 8], readAt);
        expect(await statesOf(queries, 'alice', [1, 2, 3, 4, 5, 6, 7, 8])).toEqual(
          views
            .sort((x, y) => x.meal.id - y.meal.id)
            .filter((view) => view.marked || view.personalRating !== null)
            .map((view) => ({ mealId: view.meal.id, marked: view.marked, personalRating: view.personalRating })),
        );
      });

      it('answers nothing for a user with nothing, for no meals, and for meals that do not exist', async () => {
        const { queries, meals, markings, ratings } = store();
        await meals.upsertMany(meals8);
        expect(await statesOf(queries, 'alice', [1, 2, 3])).toEqual([]);
        await markings.setMarked('bob', 1, true);
        await rateInPeriod(ratings, 'bob', byId(3), 2);
        expect(await statesOf(queries, 'alice', [1, 3])).toEqual([]);
        expect(await statesOf(queries, 'bob', [])).toEqual([]);
        expect(await statesOf(queries, 'bob', [99, 100])).toEqual([]);
      });

      it("answers the user's preferences with the states, as the preference repository answers them", async () => {
        const { queries, meals, markings, preferences, dishQueries } = store();
        await meals.upsertMany(meals8);
        await markings.setMarked('alice', 2, true);
        const nothing = { filter: { without: [], only: [] }, aversions: [] };
        expect((await queries.personalPartOf('alice', [1, 2])).preferences).toEqual(nothing);
        const [dish] = await dishQueries.search(null, byId(2).name, { after: null, limit: 1 }, readAt);
        await preferences.saveFilter('alice', { without: ['mustard', 'sesame'], only: ['vegetarian'] });
        await preferences.avoid('alice', dish!.id, at('2025-03-01T08:00:00.000Z'));
        await preferences.saveFilter('bob', { without: ['milk'], only: [] });
        for (const mealIds of [[1, 2], [], [99]]) {
          const part = await queries.personalPartOf('alice', mealIds);
          expect(part.preferences).toEqual(await preferences.preferencesOf('alice'));
          expect(part.preferences).toEqual({
            filter: { without: ['mustard', 'sesame'], only: ['vegetarian'] },
            aversions: [{ dishId: dish!.id, since: at('2025-03-01T08:00:00.000Z') }],
          });
        }
        expect((await queries.personalPartOf('alice', [1, 2])).states).toEqual([
          { mealId: 2, marked: true, personalRating: null },
        ]);
        await preferences.eraseAll('alice');
        expect((await queries.personalPartOf('alice', [1, 2])).preferences).toEqual(nothing);
        expect((await queries.personalPartOf('bob', [])).preferences.filter).toEqual({ without: ['milk'], only: [] });
      });
      it("answers every write of the user's own rows at once: markings, ratings, filter, aversions, a dish merge, an erasure", async () => {
        const { queries, meals, markings, ratings, preferences, dishes, dishQueries, userData } = store();
        await meals.upsertMany([...meals8, sampleMeal(9, { servedAt: noon, name: 'Meal 9 again' })]);
        const part = () => queries.personalPartOf('alice', [1, 2, 3]);
        expect(await part()).toEqual({ states: [], preferences: { filter: { without: [], only: [] }, aversions: [] } });
        await markings.setMarked('alice', 1, true);
        expect((await part()).states).toEqual([{ mealId: 1, marked: true, personalRating: null }]);
        await rateInPeriod(ratings, 'alice', byId(2), 5);
        expect((await part()).states).toEqual([
          { mealId: 1, marked: true, personalRating: null },
          { mealId: 2, marked: false, personalRating: 5 },
        ]);
        await rateInPeriod(ratings, 'alice', byId(2), null);
        await markings.setMarked('alice', 1, false);
        await rateInPeriod(ratings, 'alice', byId(3), 1);
        expect((await part()).states).toEqual([{ mealId: 3, marked: false, personalRating: 1 }]);
        await preferences.saveFilter('alice', { without: ['milk'], only: [] });
        expect((await part()).preferences.filter).toEqual({ without: ['milk'], only: [] });
        // An aversion of a dish merged away moves to the dish that stays.
        const dishOf = async (name: string) =>
          (await dishQueries.search(null, name, { after: null, limit: 1 }, readAt))[0]!.id;
        const [kept, merged] = [await dishOf('Meal 4'), await dishOf('Meal 9 again')];
        await preferences.avoid('alice', merged, noon);
        expect((await part()).preferences.aversions).toEqual([{ dishId: merged, since: noon }]);
        await dishes.merge(kept, [merged], (snapshot) => decideDishMerge({ target: kept, from: [merged] }, snapshot));
        expect((await part()).preferences.aversions).toEqual([{ dishId: kept, since: noon }]);
        await preferences.stopAvoiding('alice', kept);
        expect((await part()).preferences.aversions).toEqual([]);
        await userData.eraseAll('alice');
        expect((await part()).states).toEqual([]);
      });
    });

    describe('markingCounts', () => {
      it('counts the users who marked each meal asked for, withdrawn ones too; leaves out meals nobody marked', async () => {
        const { queries, meals, markings } = await withWeek();
        for (const [userId, mealId] of [
          ['alice', 1],
          ['bob', 1],
          ['carol', 1],
          ['alice', 3],
          ['bob', 6],
          ['dave', 6],
        ] as const) {
          await markings.setMarked(userId, mealId, true);
        }
        // Marked and unmarked again: nothing left of it.
        await markings.setMarked('alice', 2, true);
        await markings.setMarked('alice', 2, false);
        await meals.withdraw(6, readAt);

        expect(await queries.markingCounts([1, 2, 3, 6, 99])).toEqual(
          new Map([
            [1, 3],
            [3, 1],
            [6, 2],
          ]),
        );
        // Only the meals asked for, each once, in any order; asking for none asks nothing.
        expect(await queries.markingCounts([3, 3, 5])).toEqual(new Map([[3, 1]]));
        expect(await queries.markingCounts([])).toEqual(new Map());
      });

      it('counts a hundred meals in one call', async () => {
        const { queries, meals, markings } = store();
        const many = Array.from({ length: 100 }, (_, index) => sampleMeal(index + 1));
        await meals.upsertMany(many);
        for (const { id } of many)
          for (let user = 0; user < id % 4; user++) await markings.setMarked(`user-${user}`, id, true);
        const counts = await queries.markingCounts(many.map((m) => m.id));
        expect(counts).toEqual(new Map(many.filter(({ id }) => id % 4 > 0).map(({ id }) => [id, id % 4])));
      });
    });

    describe('markedMeals', () => {
      it('answers nothing for a user without markings', async () => {
        const { queries, markings } = await withWeek();
        await markings.setMarked('bob', 1, true);
        expect(await queries.markedMeals('alice', { after: null, limit: 10 }, readAt)).toEqual([]);
      });

      it("answers only the user's marked meals, most recently served first, ties by higher id", async () => {
        const { queries, markings } = await withWeek();
        for (const id of [1, 3, 4, 6]) await markings.setMarked('alice', id, true);
        await markings.setMarked('alice', 6, false);
        await markings.setMarked('bob', 5, true);

        const views = await queries.markedMeals('alice', { after: null, limit: 10 }, readAt);
        expect(idsOf(views)).toEqual([4, 3, 1]);
        expect(views.every((view) => view.marked)).toBe(true);
      });

      it('pages: at most `limit` meals, then strictly after the position given, through a tie', async () => {
        const { queries, markings } = await withWeek();
        for (const m of week) await markings.setMarked('alice', m.id, true);

        const first = await queries.markedMeals('alice', { after: null, limit: 3 }, readAt);
        expect(idsOf(first)).toEqual([6, 5, 4]);
        const second = await queries.markedMeals('alice', { after: after(meal(4)), limit: 2 }, readAt);
        expect(idsOf(second)).toEqual([3, 2]);
        const last = await queries.markedMeals('alice', { after: after(meal(2)), limit: 2 }, readAt);
        expect(idsOf(last)).toEqual([1]);
        expect(await queries.markedMeals('alice', { after: after(meal(1)), limit: 2 }, readAt)).toEqual([]);
      });

      it('pages from a position whose meal is no longer marked', async () => {
        const { queries, markings } = await withWeek();
        for (const m of week) await markings.setMarked('alice', m.id, true);
        await markings.setMarked('alice', 4, false);
        expect(idsOf(await queries.markedMeals('alice', { after: after(meal(4)), limit: 10 }, readAt))).toEqual([
          3, 2, 1,
        ]);
      });

      it('carries the histogram and the personal rating', async () => {
        const { queries, markings, ratings } = await withWeek();
        await markings.setMarked('alice', 2, true);
        await rateInPeriod(ratings, 'alice', meal(2), 3);
        await rateInPeriod(ratings, 'bob', meal(2), 4);
        expect(await queries.markedMeals('alice', { after: null, limit: 1 }, readAt)).toEqual([
          {
            meal: meal(2),
            histogram: [0, 0, 1, 1, 0],
            marked: true,
            personalRating: 3,
            dish: servedAlone(meal(2), [0, 0, 1, 1, 0]),
            availability: initialAvailability,
          },
        ]);
      });
    });

    describe('ratedMeals', () => {
      it('answers only the meals the user holds a rating of, with the rating, most recently served first', async () => {
        const { queries, ratings, markings } = await withWeek();
        await rateInPeriod(ratings, 'alice', meal(1), 5);
        await rateInPeriod(ratings, 'alice', meal(3), 2);
        await rateInPeriod(ratings, 'alice', meal(5), 4);
        await rateInPeriod(ratings, 'alice', meal(5), null);
        await rateInPeriod(ratings, 'bob', meal(6), 1);
        await markings.setMarked('alice', 3, true);

        expect(await queries.ratedMeals('alice', { after: null, limit: 10 }, readAt)).toEqual([
          {
            meal: meal(3),
            histogram: [0, 1, 0, 0, 0],
            marked: true,
            personalRating: 2,
            dish: servedAlone(meal(3), [0, 1, 0, 0, 0]),
            availability: initialAvailability,
          },
          {
            meal: meal(1),
            histogram: [0, 0, 0, 0, 1],
            marked: false,
            personalRating: 5,
            dish: servedAlone(meal(1), [0, 0, 0, 0, 1]),
            availability: initialAvailability,
          },
        ]);
      });

      it('pages like the marked meals', async () => {
        const { queries, ratings } = await withWeek();
        for (const m of week) if (m.rateable) await rateInPeriod(ratings, 'alice', m, 3);

        expect(idsOf(await queries.ratedMeals('alice', { after: null, limit: 2 }, readAt))).toEqual([6, 5]);
        expect(idsOf(await queries.ratedMeals('alice', { after: after(meal(5)), limit: 2 }, readAt))).toEqual([3, 2]);
        expect(idsOf(await queries.ratedMeals('alice', { after: after(meal(2)), limit: 2 }, readAt))).toEqual([1]);
      });
    });
  });
}
