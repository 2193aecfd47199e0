import { createInMemoryAdapters } from '@canteen-meals/adapters-memory';
import { accept, MarkMeal, refuse, type Meal } from '@canteen-meals/domain';
import { MealMother, probeThrough } from '@canteen-meals/repository-contract';
import { beforeEach, describe, expect, it } from 'vitest';

const longAgo: Meal = MealMother.servedAt(new Date('2024-01-01T12:00:00Z'), { id: 1, name: 'Last year' });
const notRateable: Meal = MealMother.servedAt(new Date('2025-03-10T12:00:00Z'), {
  id: 2,
  name: 'Water',
  rateable: false,
});
const future: Meal = MealMother.servedAt(new Date('2030-01-01T12:00:00Z'), { id: 3, name: 'Next year' });

describe('MarkMeal', () => {
  let adapters: ReturnType<typeof createInMemoryAdapters>;
  let markMeal: MarkMeal;
  const probe = probeThrough(() => adapters.queries);

  beforeEach(async () => {
    adapters = createInMemoryAdapters();
    await adapters.meals.upsertMany([longAgo, notRateable, future]);
    markMeal = new MarkMeal({ markings: adapters.markings });
  });

  it('marks and unmarks, answering the new state', async () => {
    expect(await markMeal.execute({ userId: 'alice', mealId: 1, marked: true })).toEqual(accept({ marked: true }));
    expect(await probe.marked('alice', 1)).toBe(true);
    expect(await markMeal.execute({ userId: 'alice', mealId: 1, marked: false })).toEqual(accept({ marked: false }));
    expect(await probe.marked('alice', 1)).toBe(false);
  });

  it('succeeds on repeats and changes nothing', async () => {
    await markMeal.execute({ userId: 'alice', mealId: 1, marked: true });
    expect(await markMeal.execute({ userId: 'alice', mealId: 1, marked: true })).toEqual(accept({ marked: true }));
    expect(await probe.marked('alice', 1)).toBe(true);

    expect(await markMeal.execute({ userId: 'bob', mealId: 1, marked: false })).toEqual(accept({ marked: false }));
    expect(await probe.marked('bob', 1)).toBe(false);
  });

  it('marks any existing meal at any time: old, not rateable, not yet served', async () => {
    for (const meal of [longAgo, notRateable, future]) {
      await markMeal.execute({ userId: 'alice', mealId: meal.id, marked: true });
      expect(await probe.marked('alice', meal.id)).toBe(true);
    }
  });

  it.each([true, false])('refuses a meal that does not exist (marked: %s) and stores nothing', async (marked) => {
    expect(await markMeal.execute({ userId: 'alice', mealId: 99, marked })).toEqual(refuse('meal_not_found'));
    expect(await probe.marked('alice', 99)).toBe(false);
  });

  it("leaves other users' markings alone", async () => {
    await markMeal.execute({ userId: 'alice', mealId: 1, marked: true });
    await markMeal.execute({ userId: 'bob', mealId: 1, marked: true });
    await markMeal.execute({ userId: 'bob', mealId: 1, marked: false });
    expect(await probe.marked('alice', 1)).toBe(true);
  });
});
