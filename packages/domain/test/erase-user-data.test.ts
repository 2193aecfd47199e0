import { createInMemoryAdapters, FixedClock } from '@canteen-meals/adapters-memory';
import { EraseUserData, RateMeal, type MenuChange } from '@canteen-meals/domain';
import { MealMother } from '@canteen-meals/repository-contract';
import { describe, expect, it } from 'vitest';

const servedAt = new Date('2025-03-10T11:30:00.000Z');

describe('EraseUserData', () => {
  it('announces the figures of each meal it changed, as ratings do, and no change of every menu', async () => {
    const adapters = createInMemoryAdapters();
    await adapters.meals.upsertMany([
      MealMother.servedAt(servedAt, { id: 1, name: 'Soup' }),
      MealMother.servedAt(servedAt, { id: 2, name: 'Stew' }),
      MealMother.servedAt(servedAt, { id: 3, name: 'Salad' }),
    ]);
    const rateMeal = new RateMeal({ ratings: adapters.ratings, clock: new FixedClock(servedAt) });
    for (const [userId, mealId, rating] of [
      ['alice', 1, 5],
      ['alice', 2, 1],
      ['bob', 1, 3],
    ] as const)
      await rateMeal.execute({ userId, mealId, rating });
    const announced: MenuChange[] = [];
    const erase = new EraseUserData({ userData: adapters.userData, announce: (change) => announced.push(change) });

    expect(await erase.execute({ userId: 'alice' })).toMatchObject({ markings: 0, ratings: 2 });

    expect(announced).toEqual([
      {
        kind: 'rating',
        mealId: 1,
        histogram: [0, 0, 1, 0, 0],
        dish: { id: expect.any(Number), histogram: [0, 0, 1, 0, 0] },
      },
      {
        kind: 'rating',
        mealId: 2,
        histogram: [0, 0, 0, 0, 0],
        dish: { id: expect.any(Number), histogram: [0, 0, 0, 0, 0] },
      },
    ]);
    // Erasing again changes nothing and tells nothing.
    await erase.execute({ userId: 'alice' });
    expect(announced).toHaveLength(2);
  });
});
