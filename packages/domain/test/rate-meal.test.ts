import { createInMemoryAdapters, FixedClock } from '@canteen-meals/adapters-memory';
import { RateMeal, type Meal, type RatingValue, type RefusalCode } from '@canteen-meals/domain';
import { MealMother, probeThrough } from '@canteen-meals/repository-contract';
import { beforeEach, describe, expect, it } from 'vitest';

const servedAt = new Date('2025-03-10T11:30:00.000Z');
const week = 604_800_000;
const soup: Meal = MealMother.servedAt(servedAt, { id: 1, name: 'Soup' });
const water: Meal = MealMother.servedAt(servedAt, { id: 2, name: 'Water', rateable: false });
const future: Meal = MealMother.servedTomorrow(servedAt, { id: 3, name: 'Tomorrow' });

describe('RateMeal', () => {
  let adapters: ReturnType<typeof createInMemoryAdapters>;
  let clock: FixedClock;
  let rateMeal: RateMeal;
  const probe = probeThrough(() => adapters.queries);
  const attempt = (userId: string, mealId: number, rating: RatingValue | null) =>
    rateMeal.execute({ userId, mealId, rating });
  const rate = async (userId: string, mealId: number, rating: RatingValue | null) => {
    const result = await attempt(userId, mealId, rating);
    if (!result.ok) return expect.unreachable(`the rating was refused: ${result.refusal.code}`);
    return result.value;
  };
  const refusal = async (answer: ReturnType<typeof attempt>): Promise<RefusalCode> => {
    const result = await answer;
    if (result.ok) return expect.unreachable('the rating was accepted');
    return result.refusal.code;
  };

  beforeEach(async () => {
    adapters = createInMemoryAdapters();
    await adapters.meals.upsertMany([soup, water, future]);
    clock = new FixedClock(servedAt);
    rateMeal = new RateMeal({ ratings: adapters.ratings, clock });
  });

  it('sets a first rating and answers the statistics with the personal rating', async () => {
    expect(await rate('alice', 1, 4)).toEqual({ count: 1, average: 4, median: 4, personal: 4 });
  });

  it("answers each user's own rating next to the shared statistics", async () => {
    await rate('alice', 1, 5);
    await rate('bob', 1, 2);
    expect(await rate('carol', 1, 2)).toEqual({ count: 3, average: 3, median: 2, personal: 2 });
    expect(await rate('alice', 1, 5)).toEqual({ count: 3, average: 3, median: 2, personal: 5 });
  });

  it('replaces a rating: the user still counts once', async () => {
    await rate('alice', 1, 1);
    await rate('bob', 1, 4);
    expect(await rate('alice', 1, 5)).toEqual({ count: 2, average: 4.5, median: 4.5, personal: 5 });
  });

  it('deletes a rating, and deleting again changes nothing', async () => {
    await rate('alice', 1, 1);
    await rate('bob', 1, 4);
    expect(await rate('alice', 1, null)).toEqual({ count: 1, average: 4, median: 4, personal: null });
    expect(await rate('alice', 1, null)).toEqual({ count: 1, average: 4, median: 4, personal: null });
    expect(await probe.rating('alice', 1)).toBeNull();
  });

  it('deleting the last rating leaves no average and no median', async () => {
    await rate('alice', 1, 3);
    expect(await rate('alice', 1, null)).toEqual({ count: 0, average: null, median: null, personal: null });
  });

  describe.each([
    ['setting', 3],
    ['deleting', null],
  ] as const)('the rating period, when %s', (_, requested) => {
    it.each([
      ['exactly at serving', 0],
      ['exactly seven days after serving', week],
    ])('is open %s', async (__, offset) => {
      clock.set(servedAt.getTime() + offset);
      await expect(rate('alice', 1, requested)).resolves.toMatchObject({ personal: requested });
    });

    it.each([
      ['one millisecond before serving', -1, 'meal_not_yet_served'],
      ['one millisecond past seven days', week + 1, 'rating_period_over'],
    ] as const)('is closed %s', async (__, offset, code) => {
      clock.set(servedAt.getTime() + offset);
      expect(await refusal(attempt('alice', 1, requested))).toBe(code);
    });

    it('refuses a missing meal before anything else, then a meal that is not rateable', async () => {
      clock.set(servedAt.getTime() - 1);
      expect(await refusal(attempt('alice', 99, requested))).toBe('meal_not_found');
      expect(await refusal(attempt('alice', 2, requested))).toBe('meal_not_rateable');
      clock.set(servedAt.getTime() + week + 1);
      expect(await refusal(attempt('alice', 99, requested))).toBe('meal_not_found');
      expect(await refusal(attempt('alice', 2, requested))).toBe('meal_not_rateable');
    });

    it('refuses a meal served tomorrow', async () => {
      expect(await refusal(attempt('alice', 3, requested))).toBe('meal_not_yet_served');
    });
  });

  it('a refused change writes nothing: the rating given in time stays after the week is over', async () => {
    clock.set(servedAt.getTime() + week);
    await rate('alice', 1, 4);
    clock.advance(1);

    expect(await refusal(attempt('alice', 1, 1))).toBe('rating_period_over');
    expect(await refusal(attempt('alice', 1, null))).toBe('rating_period_over');
    expect(await refusal(attempt('bob', 1, 5))).toBe('rating_period_over');

    expect(await probe.rating('alice', 1)).toBe(4);
    expect(await probe.rating('bob', 1)).toBeNull();
    expect(await probe.histogram(1)).toEqual([0, 0, 0, 1, 0]);
  });

  it('reads the clock at every request', async () => {
    clock.set(servedAt.getTime() - 1);
    expect(await refusal(attempt('alice', 1, 2))).toBe('meal_not_yet_served');
    clock.advance(1);
    await expect(rate('alice', 1, 2)).resolves.toMatchObject({ count: 1 });
  });
});
