import { createInMemoryAdapters, FixedClock } from '@canteen-meals/adapters-memory';
import { accept, RateMeal, UpsertMeals, type DetailedMeal } from '@canteen-meals/domain';
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
    expect(await upsertMeals.execute([meal(2, { name: 'Renamed', rateable: false }), meal(3)])).toEqual(accept({ upserted: 2 }));
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

    expect(result).toMatchObject({ ok: false, refusal: { code: 'invalid_meal', message: expect.stringContaining('meals[2]') } });
    expect(await adapters.meals.count()).toBe(2);
    expect(await probe.meal(1)).toEqual(meal(1));
    expect(await probe.meal(2)).toBeUndefined();
  });

  it('accepts a name of exactly 250 characters (as OpenMensa feeds allow), counting code points', async () => {
    await expect(upsertMeals.execute([meal(1, { name: 'x'.repeat(250) })])).resolves.toEqual(accept({ upserted: 1 }));
    await expect(upsertMeals.execute([meal(2, { name: '🍝'.repeat(250) })])).resolves.toEqual(accept({ upserted: 1 }));
  });
});
