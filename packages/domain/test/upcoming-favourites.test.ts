import { createInMemoryAdapters, FixedClock } from '@canteen-meals/adapters-memory';
import { MealMother } from '@canteen-meals/repository-contract';
import { describe, expect, it } from 'vitest';
import {
  defaultUpcomingDays,
  GetUpcomingFavourites,
  maxUpcomingDays,
  maxUpcomingServings,
  type Canteen,
  type Meal,
} from '../src/index.js';

const canteen = (id: string, timeZone: string): Canteen => ({
  id,
  name: id,
  timeZone,
  city: null,
  address: null,
  coordinates: null,
  feeds: [],
});
const berlin = canteen('mensa-berlin', 'Europe/Berlin');
const newYork = canteen('dining-nyc', 'America/New_York');

/** 23:30 in Berlin on 10 March 2026 (22:30 UTC), 18:30 the same day in New York. */
const now = new Date('2026-03-10T22:30:00Z');

async function upcomingOf(meals: readonly Meal[], markedIds: readonly number[]) {
  const adapters = createInMemoryAdapters();
  await adapters.canteens.save(berlin);
  await adapters.canteens.save(newYork);
  await adapters.meals.upsertMany(meals);
  for (const id of markedIds) await adapters.markings.setMarked('alice', id, true);
  const upcoming = new GetUpcomingFavourites({ ...adapters, clock: new FixedClock(now) });
  return { upcoming, adapters };
}

const soup = (id: number, servedAt: string, canteenId = berlin.id) =>
  MealMother.servedAt(new Date(servedAt), { id, name: 'Lentil soup', canteenId });

describe('GetUpcomingFavourites', () => {
  it("covers each canteen's own days: from the start of its today, served or not, to the end of its last day", async () => {
    const { upcoming } = await upcomingOf(
      [
        soup(1, '2026-03-02T11:30:00Z'), // last week: the marked serving
        soup(2, '2026-03-09T22:59:59.999Z'), // Berlin's yesterday, its last millisecond
        soup(3, '2026-03-09T23:00:00Z'), // Berlin's today, its first millisecond: already served
        soup(4, '2026-03-10T23:00:00Z'), // Berlin's tomorrow
        soup(5, '2026-03-10T03:59:59.999Z', newYork.id), // New York's yesterday (on summer time since 8 March)
        soup(6, '2026-03-10T04:00:00Z', newYork.id), // New York's today, its first millisecond
        soup(7, '2026-03-10T16:00:00Z', newYork.id),
      ],
      [1, 7],
    );
    const oneDay = await upcoming.execute({ userId: 'alice', days: 1 });
    expect(oneDay.servings.map(({ date, reading }) => [reading.meal.id, date])).toEqual([
      [3, '2026-03-10'],
      [6, '2026-03-10'],
      [7, '2026-03-10'],
    ]);
    const twoDays = await upcoming.execute({ userId: 'alice', days: 2 });
    expect(twoDays.servings.map(({ date, reading }) => [reading.meal.id, date])).toEqual([
      [3, '2026-03-10'],
      [6, '2026-03-10'],
      [7, '2026-03-10'],
      [4, '2026-03-11'],
    ]);
    expect(twoDays).toMatchObject({ truncated: false, asOf: now });
  });

  it("answers each serving as a menu reads it, with the reader's own state and the dish's figures as of now", async () => {
    const { upcoming } = await upcomingOf([soup(1, '2026-03-02T11:30:00Z'), soup(2, '2026-03-11T11:30:00Z')], [1, 2]);
    const [serving] = (await upcoming.execute({ userId: 'alice' })).servings;
    expect(serving?.reading).toMatchObject({
      meal: { id: 2, canteenId: berlin.id },
      ratingOpen: false,
      marked: true,
      personalRating: null,
      statistics: { count: 0, average: null, median: null },
      dish: { timesServed: 1, nextServedAt: new Date('2026-03-11T11:30:00Z'), statistics: { count: 0 } },
    });
  });

  it(`covers ${defaultUpcomingDays} days unless told, and refuses a number of days outside 1 to ${maxUpcomingDays}`, async () => {
    const { upcoming } = await upcomingOf(
      [
        soup(1, '2026-03-02T11:30:00Z'),
        soup(2, '2026-03-16T11:30:00Z'),
        soup(3, '2026-03-17T11:30:00Z'),
        soup(4, '2026-03-23T11:30:00Z'),
      ],
      [1],
    );
    expect((await upcoming.execute({ userId: 'alice' })).servings.map(({ reading }) => reading.meal.id)).toEqual([2]);
    expect(
      (await upcoming.execute({ userId: 'alice', days: maxUpcomingDays })).servings.map(
        ({ reading }) => reading.meal.id,
      ),
    ).toEqual([2, 3, 4]);
    for (const days of [0, maxUpcomingDays + 1, 1.5, Number.NaN]) {
      await expect(upcoming.execute({ userId: 'alice', days })).rejects.toThrow(RangeError);
    }
  });

  it(`answers at most ${maxUpcomingServings} servings, the earliest, and says when it cut the answer`, async () => {
    // One dish served 501 times in the coming days, a minute apart, over two days (a day holds at most 500 meals).
    const many = Array.from({ length: maxUpcomingServings + 1 }, (_, index) =>
      soup(index + 2, new Date(Date.parse('2026-03-11T11:00:00Z') + index * 4 * 60_000).toISOString()),
    );
    const { upcoming, adapters } = await upcomingOf([soup(1, '2026-03-02T11:30:00Z'), ...many], [1]);
    const cut = await upcoming.execute({ userId: 'alice' });
    expect(cut.truncated).toBe(true);
    expect(cut.servings.map(({ reading }) => reading.meal.id)).toEqual(
      many.slice(0, maxUpcomingServings).map((meal) => meal.id),
    );

    await adapters.meals.withdraw(many.at(-1)!.id, now);
    const whole = await upcoming.execute({ userId: 'alice' });
    expect(whole.truncated).toBe(false);
    expect(whole.servings).toHaveLength(maxUpcomingServings);
  });

  it('answers nothing to a user who marked nothing', async () => {
    const { upcoming } = await upcomingOf([soup(1, '2026-03-11T11:30:00Z')], []);
    expect(await upcoming.execute({ userId: 'alice' })).toEqual({ servings: [], truncated: false, asOf: now });
  });
});
