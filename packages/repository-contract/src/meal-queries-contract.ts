import {
  defaultCanteenId,
  emptyHistogram,
  type Canteen,
  type DetailedMeal,
  type DishSummary,
  type RatingHistogram,
  type Meal,
  type PersonalMeal,
  type ServedPosition,
  type ServingWindow,
} from '@canteen-meals/domain';
import { describe, expect, it } from 'vitest';
import { rateInPeriod } from './rate-in-period.js';
import type { CreateReadRepositoryFixture } from './read-repository-fixture.js';
import { freshFixturePerTest } from './repository-fixture.js';
import { sampleMeal, readAt } from './sample-meals.js';

const at = (iso: string) => new Date(iso);
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
function servedAlone(meal: Pick<DetailedMeal, 'name' | 'servedAt'> & Partial<DetailedMeal>, histogram: RatingHistogram): DishSummary {
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
          { meal: meal(3), histogram: emptyHistogram, marked: false, personalRating: null, dish: servedAlone(meal(3), emptyHistogram) },
        ]);
      });

      it("answers the histogram of all users and the reader's own marking and rating", async () => {
        const { queries, ratings, markings } = await withWeek();
        await rateInPeriod(ratings, 'alice', meal(1), 4);
        await rateInPeriod(ratings, 'bob', meal(1), 2);
        await rateInPeriod(ratings, 'carol', meal(1), 4);
        await markings.setMarked('alice', 1, true);

        expect(await queries.viewsByIds('alice', [1], readAt)).toEqual([
          { meal: meal(1), histogram: [0, 1, 0, 2, 0], marked: true, personalRating: 4, dish: servedAlone(meal(1), [0, 1, 0, 2, 0]) },
        ]);
        expect(await queries.viewsByIds('bob', [1], readAt)).toEqual([
          { meal: meal(1), histogram: [0, 1, 0, 2, 0], marked: false, personalRating: 2, dish: servedAlone(meal(1), [0, 1, 0, 2, 0]) },
        ]);
        expect(await queries.viewsByIds('dave', [1], readAt)).toEqual([
          { meal: meal(1), histogram: [0, 1, 0, 2, 0], marked: false, personalRating: null, dish: servedAlone(meal(1), [0, 1, 0, 2, 0]) },
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
        const expected = { meal: detailed, histogram: [0, 1, 0, 0, 0], marked: true, personalRating: 2, dish: servedAlone(detailed, [0, 1, 0, 0, 0]) };

        expect(await queries.viewsByIds('alice', [7], readAt)).toEqual([expected]);
        expect(await queries.viewsServedIn('alice', inDefault(detailed.servedAt, at('2025-03-09T00:00:00.000Z')), readAt)).toEqual([expected]);
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

        const views = await queries.viewsByIds('alice', many.map((m) => m.id), readAt);

        expect(idsOf(views).sort((a, b) => a - b)).toEqual(many.map((m) => m.id));
        expect(views.filter((view) => view.marked).map((view) => view.meal.id).sort((a, b) => a - b)).toEqual([7, 42, 100]);
      });

      it('reflects changes made after an earlier read', async () => {
        const { queries, ratings, markings } = await withWeek();
        await queries.viewsByIds('alice', [2], readAt);
        await rateInPeriod(ratings, 'alice', meal(2), 5);
        await markings.setMarked('alice', 2, true);
        await rateInPeriod(ratings, 'alice', meal(2), null);

        expect(await queries.viewsByIds('alice', [2], readAt)).toEqual([
          { meal: meal(2), histogram: emptyHistogram, marked: true, personalRating: null, dish: servedAlone(meal(2), emptyHistogram) },
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
        expect((await queries.viewsByIds('alice', [2], readAt))[0]?.meal).toMatchObject({ canteenId: otherCanteen.id, position: 0 });
      });


      it('answers the meals served from `from` inclusive to `until` exclusive, earliest first, then by id', async () => {
        const { queries } = await withWeek();
        const views = await queries.viewsServedIn('alice', inDefault(meal(2).servedAt, meal(6).servedAt), readAt);
        expect(idsOf(views)).toEqual([2, 3, 4, 5]);
      });

      it('stands on the boundaries to the millisecond', async () => {
        const { queries } = await withWeek();
        const served = meal(1).servedAt.getTime();
        expect(idsOf(await queries.viewsServedIn('alice', inDefault(new Date(served), new Date(served + 1)), readAt))).toEqual([1]);
        expect(idsOf(await queries.viewsServedIn('alice', inDefault(new Date(served + 1), new Date(served + 2)), readAt))).toEqual([]);
        expect(idsOf(await queries.viewsServedIn('alice', inDefault(new Date(served - 1), new Date(served)), readAt))).toEqual([]);
      });

      it("carries the reader's own state", async () => {
        const { queries, ratings, markings } = await withWeek();
        await markings.setMarked('alice', 3, true);
        await rateInPeriod(ratings, 'alice', meal(3), 1);
        await rateInPeriod(ratings, 'bob', meal(3), 5);

        const [view] = await queries.viewsServedIn('alice', inDefault(meal(3).servedAt, meal(5).servedAt), readAt);
        expect(view).toEqual({ meal: meal(3), histogram: [1, 0, 0, 0, 1], marked: true, personalRating: 1, dish: servedAlone(meal(3), [1, 0, 0, 0, 1]) });
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
        expect(idsOf(await queries.markedMeals('alice', { after: after(meal(4)), limit: 10 }, readAt))).toEqual([3, 2, 1]);
      });

      it('carries the histogram and the personal rating', async () => {
        const { queries, markings, ratings } = await withWeek();
        await markings.setMarked('alice', 2, true);
        await rateInPeriod(ratings, 'alice', meal(2), 3);
        await rateInPeriod(ratings, 'bob', meal(2), 4);
        expect(await queries.markedMeals('alice', { after: null, limit: 1 }, readAt)).toEqual([
          { meal: meal(2), histogram: [0, 0, 1, 1, 0], marked: true, personalRating: 3, dish: servedAlone(meal(2), [0, 0, 1, 1, 0]) },
        ]);
      });
    });

    describe('ratedMeals', () => {
      it("answers only the meals the user holds a rating of, with the rating, most recently served first", async () => {
        const { queries, ratings, markings } = await withWeek();
        await rateInPeriod(ratings, 'alice', meal(1), 5);
        await rateInPeriod(ratings, 'alice', meal(3), 2);
        await rateInPeriod(ratings, 'alice', meal(5), 4);
        await rateInPeriod(ratings, 'alice', meal(5), null);
        await rateInPeriod(ratings, 'bob', meal(6), 1);
        await markings.setMarked('alice', 3, true);

        expect(await queries.ratedMeals('alice', { after: null, limit: 10 }, readAt)).toEqual([
          { meal: meal(3), histogram: [0, 1, 0, 0, 0], marked: true, personalRating: 2, dish: servedAlone(meal(3), [0, 1, 0, 0, 0]) },
          { meal: meal(1), histogram: [0, 0, 0, 0, 1], marked: false, personalRating: 5, dish: servedAlone(meal(1), [0, 0, 0, 0, 1]) },
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
