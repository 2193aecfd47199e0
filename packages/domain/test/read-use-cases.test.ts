import { describe, expect, it } from 'vitest';
import { InMemoryCanteenRepository, InMemoryDatabase } from '@canteen-meals/adapters-memory';
import { accepted } from '@canteen-meals/repository-contract';
import {
  accept,
  emptyHistogram,
  GetMeal,
  GetMeals,
  ListMarkedMeals,
  maxMealIdsPerRead,
  ratingPeriodMs,
  refuse,
  withMealDetails,
  initialAvailability,
  type DetailedMeal,
  type PersonalMeal,
  type PageRequest,
} from '../src/index.js';
import type { Clock, MealQueries } from '../src/ports.js';

const now = new Date('2026-03-10T12:00:00Z');
const clock: Clock = { now: () => now };
const meal = (id: number, servedAt: string, rateable = true): DetailedMeal =>
  withMealDetails({ id, name: `Meal ${id}`, servedAt: new Date(servedAt), rateable });
const view = (m: DetailedMeal, extra: Partial<PersonalMeal> = {}): PersonalMeal => ({
  meal: m,
  histogram: emptyHistogram,
  marked: false,
  personalRating: null,
  dish: {
    id: m.id,
    canteenId: m.canteenId,
    name: m.name,
    histogram: emptyHistogram,
    timesServed: 1,
    lastServedAt: m.servedAt,
    nextServedAt: null,
  },
  availability: initialAvailability,
  ...extra,
});

/** A canteen repository holding only the default canteen, on the clocks of `timeZone`. */
function canteensIn(timeZone: string) {
  return new InMemoryCanteenRepository(new InMemoryDatabase({ defaultTimeZone: timeZone }));
}

/** A MealQueries that answers from a list and records what it was asked. */
function fakeQueries(views: PersonalMeal[]) {
  const calls: unknown[] = [];
  const queries: MealQueries = {
    viewsByIds: async (_user, ids) => {
      calls.push({ byIds: [...ids] });
      return views.filter((v) => ids.includes(v.meal.id)).reverse();
    },
    viewsServedIn: async (_user, windows) => {
      calls.push({ windows });
      return views.filter((v) => windows.some(({ from, until }) => v.meal.servedAt >= from && v.meal.servedAt < until));
    },
    personalPartOf: async () => ({ states: [], preferences: { filter: { without: [], only: [] }, aversions: [] } }),
    markingCounts: async () => new Map(),
    markedMeals: async (_user, page: PageRequest) => {
      calls.push({ page });
      const start = page.after === null ? 0 : views.findIndex((v) => v.meal.id === page.after!.mealId) + 1;
      return views.slice(start, start + page.limit);
    },
    ratedMeals: async () => [],
    favouriteServingsIn: async () => [],
  };
  return { queries, calls };
}

describe('GetMeal', () => {
  it('answers statistics, distribution, own state and whether rating is open now', async () => {
    const open = meal(1, '2026-03-10T11:00:00Z');
    const { queries } = fakeQueries([view(open, { histogram: [0, 1, 0, 2, 0], marked: true, personalRating: 4 })]);
    expect(await new GetMeal({ queries, clock }).execute({ userId: 'alice', mealId: 1 })).toEqual(
      accept({
        meal: open,
        ratingOpen: true,
        statistics: { count: 3, average: 10 / 3, median: 4 },
        distribution: [0, 1, 0, 2, 0],
        marked: true,
        personalRating: 4,
        dish: expect.objectContaining({ id: 1, statistics: { count: 0, average: null, median: null } }),
        availability: initialAvailability,
      }),
    );
  });

  it('says rating is closed exactly when rate-meal would refuse', async () => {
    const served = now.getTime() - ratingPeriodMs;
    const { queries } = fakeQueries([
      view(meal(1, new Date(served).toISOString())),
      view(meal(2, new Date(served - 1).toISOString())),
      view(meal(3, now.toISOString(), false)),
      view(meal(4, new Date(now.getTime() + 1).toISOString())),
    ]);
    const getMeal = new GetMeal({ queries, clock });
    const open = async (mealId: number) => accepted(await getMeal.execute({ userId: 'alice', mealId })).ratingOpen;
    expect([await open(1), await open(2), await open(3), await open(4)]).toEqual([true, false, false, false]);
  });

  it('refuses an unknown meal with meal_not_found', async () => {
    const { queries } = fakeQueries([]);
    expect(await new GetMeal({ queries, clock }).execute({ userId: 'alice', mealId: 9 })).toEqual(
      refuse('meal_not_found'),
    );
  });
});

describe('GetMeals', () => {
  const menu = [meal(1, '2026-03-09T23:30:00Z'), meal(2, '2026-03-10T11:00:00Z'), meal(3, '2026-03-10T22:59:59Z')];

  it('asks for each id once and answers in request order, listing unknown ids once', async () => {
    const { queries, calls } = fakeQueries(menu.map((m) => view(m)));
    const result = accepted(
      await new GetMeals({ queries, clock, canteens: canteensIn('Europe/Berlin') }).execute({
        userId: 'alice',
        mealIds: [3, 7, 1, 3, 7, 1],
      }),
    );
    expect(calls).toEqual([{ byIds: [3, 7, 1] }]);
    expect(result.meals.map((d) => d.meal.id)).toEqual([3, 1]);
    expect(result.unknownIds).toEqual([7]);
  });

  it(`refuses more than ${maxMealIdsPerRead} ids`, async () => {
    const { queries } = fakeQueries([]);
    const ids = Array.from({ length: maxMealIdsPerRead + 1 }, (_, i) => i + 1);
    await expect(
      new GetMeals({ queries, clock, canteens: canteensIn('UTC') }).execute({ userId: 'a', mealIds: ids }),
    ).rejects.toThrow(RangeError);
  });

  it("asks for the instants of the day on each canteen's clocks, in one query", async () => {
    const { queries, calls } = fakeQueries(menu.map((m) => view(m)));
    const canteens = canteensIn('Europe/Berlin');
    await canteens.save({
      id: 'bistro',
      name: 'Bistro',
      timeZone: 'America/New_York',
      city: null,
      address: null,
      coordinates: null,
      feeds: [],
    });
    const result = accepted(
      await new GetMeals({ queries, clock, canteens }).execute({ userId: 'alice', servedOn: '2026-03-10' }),
    );
    expect(calls).toEqual([
      {
        windows: [
          { canteenId: 'bistro', from: new Date('2026-03-10T04:00:00Z'), until: new Date('2026-03-11T04:00:00Z') },
          { canteenId: 'default', from: new Date('2026-03-09T23:00:00Z'), until: new Date('2026-03-10T23:00:00Z') },
        ],
      },
    ]);
    expect(result.meals.map((d) => d.meal.id)).toEqual([1, 2, 3]);
    expect(result.unknownIds).toEqual([]);
  });
});

describe('ListMarkedMeals', () => {
  const views = [5, 4, 3, 2, 1].map((id) => view(meal(id, `2026-03-0${id}T11:00:00Z`), { marked: true }));

  it('asks for one meal more than the page, and names the last meal of a full page as the next position', async () => {
    const { queries, calls } = fakeQueries(views);
    const page = await new ListMarkedMeals({ queries, clock }).execute({ userId: 'alice', after: null, limit: 2 });
    expect(calls).toEqual([{ page: { after: null, limit: 3 } }]);
    expect(page.meals.map((d) => d.meal.id)).toEqual([5, 4]);
    expect(page.next).toEqual({ servedAt: new Date('2026-03-04T11:00:00Z'), mealId: 4 });
  });

  it('answers no next position on the last page, also when it is exactly full', async () => {
    const { queries } = fakeQueries(views);
    const list = new ListMarkedMeals({ queries, clock });
    const after = { servedAt: new Date('2026-03-03T11:00:00Z'), mealId: 3 };
    expect((await list.execute({ userId: 'alice', after, limit: 2 })).next).toBeNull();
    expect((await list.execute({ userId: 'alice', after, limit: 3 })).next).toBeNull();
    expect((await list.execute({ userId: 'alice', after: null, limit: 5 })).next).toBeNull();
  });

  it.each([0, 101, 1.5, Number.NaN])('refuses a page size of %s', async (limit) => {
    const { queries } = fakeQueries(views);
    await expect(new ListMarkedMeals({ queries, clock }).execute({ userId: 'a', after: null, limit })).rejects.toThrow(
      RangeError,
    );
  });
});
