import { createInMemoryAdapters } from '@canteen-meals/adapters-memory';
import { LocateMeals } from '@canteen-meals/domain';
import { MealMother } from '@canteen-meals/repository-contract';
import { describe, expect, it } from 'vitest';

const now = new Date('2026-03-10T12:00:00Z');

describe('LocateMeals', () => {
  it('answers the canteens of the meals that exist, withdrawn ones too, each canteen once', async () => {
    const adapters = createInMemoryAdapters();
    await adapters.canteens.save({
      id: 'mensa-nord',
      name: 'Mensa Nord',
      timeZone: 'Europe/Berlin',
      city: null,
      address: null,
      coordinates: null,
      feeds: [],
    });
    await adapters.meals.upsertMany([
      MealMother.servedToday(now, { id: 1 }),
      MealMother.servedToday(now, { id: 2, canteenId: 'mensa-nord' }),
      MealMother.servedToday(now, { id: 3, canteenId: 'mensa-nord' }),
    ]);
    await adapters.meals.withdraw(3, now);
    const locate = new LocateMeals({ meals: adapters.meals });

    expect((await locate.execute([1, 2, 3, 99])).sort()).toEqual(['default', 'mensa-nord']);
    expect(await locate.execute([3])).toEqual(['mensa-nord']);
    expect(await locate.execute([99])).toEqual([]);
    expect(await locate.execute([])).toEqual([]);
  });
});
