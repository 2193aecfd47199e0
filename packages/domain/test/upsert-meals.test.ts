import { createInMemoryAdapters, FixedClock } from '@canteen-meals/adapters-memory';
import {
  accept,
  maxMealsPerCanteenDay,
  RateMeal,
  UpsertMeals,
  type Canteen,
  type DetailedMeal,
} from '@canteen-meals/domain';
import { probeThrough } from '@canteen-meals/repository-contract';
import { beforeEach, describe, expect, it } from 'vitest';

const servedAt = new Date('2025-03-10T11:30:00.000Z');
const meal = (id: number, overrides: Partial<DetailedMeal> = {}): DetailedMeal => ({
  canteenId: 'default',
  position: 0,
  id,
  name: `Meal ${id}`,
  servedAt,
  rateable: true,
  category: null,
  notes: [],
  prices: {},
  labels: [],
  ...overrides,
});

describe('UpsertMeals', () => {
  let adapters: ReturnType<typeof createInMemoryAdapters>;
  let upsertMeals: UpsertMeals;
  const probe = probeThrough(() => adapters.queries);

  beforeEach(() => {
    adapters = createInMemoryAdapters();
    upsertMeals = new UpsertMeals(adapters);
  });

  it('inserts and updates, answering how many meals it upserted', async () => {
    expect(await upsertMeals.execute([meal(1), meal(2)])).toEqual(accept({ upserted: 2 }));
    expect(await upsertMeals.execute([meal(2, { name: 'Renamed', rateable: false }), meal(3)])).toEqual(
      accept({ upserted: 2 }),
    );
    expect(await adapters.meals.count()).toBe(3);
    expect(await probe.meal(2)).toEqual(meal(2, { name: 'Renamed', rateable: false }));
  });

  it('keeps the ratings and markings of a meal it updates', async () => {
    await upsertMeals.execute([meal(1)]);
    await new RateMeal({ ratings: adapters.ratings, clock: new FixedClock(servedAt) }).execute({
      userId: 'alice',
      mealId: 1,
      rating: 5,
    });
    await adapters.markings.setMarked('alice', 1, true);

    await upsertMeals.execute([meal(1, { name: 'Renamed' })]);

    expect(await probe.rating('alice', 1)).toBe(5);
    expect(await probe.histogram(1)).toEqual([0, 0, 0, 0, 1]);
    expect(await probe.marked('alice', 1)).toBe(true);
  });

  it.each([
    ['a meal id of 0', meal(0)],
    ['a negative meal id', meal(-3)],
    ['a fractional meal id', meal(2.5)],
    ['an empty name', meal(3, { name: '' })],
    ['a blank name', meal(3, { name: '   ' })],
    ['a name of 251 characters', meal(3, { name: 'x'.repeat(251) })],
    ['a blank category', meal(3, { category: ' ' })],
    ['a name with a NUL', meal(3, { name: '\u0000Soup' })],
    ['a name with an unpaired surrogate', meal(3, { name: 'Soup \uD83C' })],
    ['a category with a NUL', meal(3, { category: '\u0000Main' })],
    ['a note with an unpaired surrogate', meal(3, { notes: ['vegan', '\uDC00'] })],
    ['a note of 251 characters', meal(3, { notes: ['vegan', 'x'.repeat(251)] })],
    ['a price that is not canonical', meal(3, { prices: { student: '2.6' } })],
    ['an unknown price role', meal(3, { prices: { guest: '2.60' } as DetailedMeal['prices'] })],
    ['an invalid instant', meal(3, { servedAt: new Date(Number.NaN) })],
    ['a meal id twice in one batch', meal(1, { name: 'Twice' })],
  ])('refuses a batch with %s, naming the meal, and stores none of it', async (_, offending) => {
    await upsertMeals.execute([meal(1), meal(9)]);
    const batch = [meal(1, { name: 'Renamed' }), meal(2), offending, meal(4)];

    const result = await upsertMeals.execute(batch);

    expect(result).toMatchObject({
      ok: false,
      refusal: { code: 'invalid_meal', message: expect.stringContaining('meals[2]') },
    });
    expect(await adapters.meals.count()).toBe(2);
    expect(await probe.meal(1)).toEqual(meal(1));
    expect(await probe.meal(2)).toBeUndefined();
  });

  it('accepts a name of exactly 250 characters (as OpenMensa feeds allow), counting code points', async () => {
    await expect(upsertMeals.execute([meal(1, { name: 'x'.repeat(250) })])).resolves.toEqual(accept({ upserted: 1 }));
    await expect(upsertMeals.execute([meal(2, { name: '🍝'.repeat(250) })])).resolves.toEqual(accept({ upserted: 1 }));
  });
});

describe('UpsertMeals: at most 500 meals a day in a canteen', () => {
  let adapters: ReturnType<typeof createInMemoryAdapters>;
  let upsertMeals: UpsertMeals;
  const probe = probeThrough(() => adapters.queries);
  const nord: Canteen = {
    id: 'nord',
    name: 'Mensa Nord',
    timeZone: 'Europe/Berlin',
    city: null,
    address: null,
    coordinates: null,
    feeds: [],
  };
  const monday = new Date('2026-11-23T11:00:00Z');
  const tuesday = new Date('2026-11-24T11:00:00Z');
  /** The meals `first` to `last`, served on Monday unless `overrides` say otherwise. */
  const meals = (first: number, last: number, overrides: Partial<DetailedMeal> = {}) =>
    Array.from({ length: last - first + 1 }, (_, index) => meal(first + index, { servedAt: monday, ...overrides }));
  const fullDay = (canteenId: string, servedAt: Date) =>
    `The canteen "${canteenId}" would serve ${maxMealsPerCanteenDay + 1} meals on ${servedAt.toISOString().slice(0, 10)}; a day holds at most 500.`;

  beforeEach(async () => {
    adapters = createInMemoryAdapters();
    await adapters.canteens.save(nord);
    upsertMeals = new UpsertMeals(adapters);
  });

  it('fills a day up to 500 meals and refuses one more, writing none of that batch', async () => {
    expect(await upsertMeals.execute(meals(1, 500))).toEqual(accept({ upserted: 500 }));

    const refused = await upsertMeals.execute([meal(900, { servedAt: tuesday }), meal(501, { servedAt: monday })]);

    expect(refused).toEqual({ ok: false, refusal: { code: 'menu_day_full', message: fullDay('default', monday) } });
    expect(await adapters.meals.count()).toBe(500);
    expect(await probe.meal(900)).toBeUndefined();
  });

  it('refuses a single batch of 501 meals on one day', async () => {
    expect(await upsertMeals.execute(meals(1, 501))).toMatchObject({ ok: false, refusal: { code: 'menu_day_full' } });
    expect(await adapters.meals.count()).toBe(0);
  });

  it('counts a meal of the batch once: updating the meals of a full day is accepted', async () => {
    await upsertMeals.execute(meals(1, 500));
    expect(await upsertMeals.execute(meals(1, 500, { name: 'Renamed' }))).toEqual(accept({ upserted: 500 }));
  });

  it('makes room on a full day for the meals a batch moves away from it', async () => {
    await upsertMeals.execute(meals(1, 500));

    expect(await upsertMeals.execute([meal(1, { servedAt: tuesday }), meal(501, { servedAt: monday })])).toEqual(
      accept({ upserted: 2 }),
    );
    expect((await probe.meal(1))?.servedAt).toEqual(tuesday);
    expect(await upsertMeals.execute([meal(502, { servedAt: monday })])).toMatchObject({ ok: false });
  });

  it('does not count withdrawn meals, and counts a withdrawn meal the batch serves again', async () => {
    await upsertMeals.execute(meals(1, 500));
    await adapters.meals.withdraw(7, monday);

    expect(await upsertMeals.execute([meal(501, { servedAt: monday })])).toEqual(accept({ upserted: 1 }));
    expect(await upsertMeals.execute([meal(7, { servedAt: monday })])).toEqual({
      ok: false,
      refusal: { code: 'menu_day_full', message: fullDay('default', monday) },
    });
  });

  it("counts the day on its canteen's clocks", async () => {
    // In Berlin, 2026-11-23 runs from 23:00 UTC the day before to 23:00 UTC.
    await upsertMeals.execute(meals(1, 500, { canteenId: 'nord', servedAt: new Date('2026-11-22T23:00:00Z') }));

    const tuesdayMidnight = new Date('2026-11-23T23:00:00Z');
    expect(await upsertMeals.execute([meal(501, { canteenId: 'nord', servedAt: tuesdayMidnight })])).toEqual(
      accept({ upserted: 1 }),
    );
    // The same instant in the canteen `default`, on UTC clocks, is still Monday there: another canteen, another day.
    expect(await upsertMeals.execute([meal(502, { servedAt: new Date('2026-11-23T22:59:59.999Z') })])).toEqual(
      accept({ upserted: 1 }),
    );
    const lastInstant = new Date('2026-11-23T22:59:59.999Z');
    expect(await upsertMeals.execute([meal(503, { canteenId: 'nord', servedAt: lastInstant })])).toEqual({
      ok: false,
      refusal: { code: 'menu_day_full', message: fullDay('nord', monday) },
    });
  });

  it('counts the days of two canteens separately', async () => {
    expect(await upsertMeals.execute([...meals(1, 500), ...meals(501, 1000, { canteenId: 'nord' })])).toEqual(
      accept({ upserted: 1000 }),
    );
    expect(await upsertMeals.execute([meal(1001, { canteenId: 'nord', servedAt: monday })])).toMatchObject({
      refusal: { message: fullDay('nord', monday) },
    });
  });
});
