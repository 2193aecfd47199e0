import {
  accept,
  decideRatingChange,
  type RatingSnapshot,
  ratingPeriodMs,
  ratingRefusal,
  type Meal,
} from '@canteen-meals/domain';
import { describe, expect, it } from 'vitest';

const servedAt = new Date('2025-03-10T11:30:00.000Z');
const at = (msAfterServing: number) => new Date(servedAt.getTime() + msAfterServing);
const meal = (overrides: Partial<Meal> = {}): Meal => ({ id: 1, name: 'Soup', servedAt, rateable: true, ...overrides });

describe('ratingRefusal', () => {
  it('is one week to the millisecond', () => {
    expect(ratingPeriodMs).toBe(604_800_000);
  });

  it.each([
    ['exactly at serving', 0, null],
    ['one millisecond before serving', -1, 'meal_not_yet_served'],
    ['a day before serving', -86_400_000, 'meal_not_yet_served'],
    ['one millisecond after serving', 1, null],
    ['half way through the week', ratingPeriodMs / 2, null],
    ['exactly seven days after serving', 604_800_000, null],
    ['one millisecond past seven days', 604_800_001, 'rating_period_over'],
    ['a year later', 365 * 86_400_000, 'rating_period_over'],
  ] as const)('%s: %s', (_, offset, refusal) => {
    expect(ratingRefusal(meal(), at(offset))).toBe(refusal);
  });

  it('checks in order: found, then rateable, then served, then within the week', () => {
    expect(ratingRefusal(undefined, at(-1))).toBe('meal_not_found');
    expect(ratingRefusal(undefined, at(604_800_001))).toBe('meal_not_found');
    expect(ratingRefusal(meal({ rateable: false }), at(-1))).toBe('meal_not_rateable');
    expect(ratingRefusal(meal({ rateable: false }), at(604_800_001))).toBe('meal_not_rateable');
    expect(ratingRefusal(meal({ rateable: false }), at(0))).toBe('meal_not_rateable');
    expect(ratingRefusal(meal(), at(-1))).toBe('meal_not_yet_served');
  });
});

describe('decideRatingChange', () => {
  const snapshot = (overrides: Partial<RatingSnapshot> = {}): RatingSnapshot => ({
    meal: meal(),
    current: null,
    histogram: [0, 0, 0, 0, 0] as const,
    dish: { id: 9, histogram: [1, 1, 0, 0, 2] },
    ...overrides,
  });

  it.each([4, null] as const)('applies the same refusals to setting and deleting (rating %s)', (requested) => {
    const refusalOf = (state: ReturnType<typeof snapshot>, now: Date) => {
      const decision = decideRatingChange(state, requested, now);
      return decision.ok ? null : decision.refusal.code;
    };
    const rated = snapshot({ current: 2, histogram: [0, 1, 0, 0, 0] });
    expect(refusalOf(snapshot({ meal: undefined }), at(0))).toBe('meal_not_found');
    expect(refusalOf(snapshot({ meal: meal({ rateable: false }) }), at(0))).toBe('meal_not_rateable');
    expect(refusalOf(rated, at(-1))).toBe('meal_not_yet_served');
    expect(refusalOf(rated, at(0))).toBeNull();
    expect(refusalOf(rated, at(604_800_000))).toBeNull();
    expect(refusalOf(rated, at(604_800_001))).toBe('rating_period_over');
  });

  it('describes the transition and the histogram after it', () => {
    const state = snapshot({ current: 2, histogram: [0, 3, 0, 1, 0] });
    expect(decideRatingChange(state, 5, at(0))).toEqual(
      accept({
        mealId: 1,
        previous: 2,
        next: 5,
        histogram: [0, 2, 0, 1, 1],
        dish: { id: 9, histogram: [1, 0, 0, 0, 3] },
      }),
    );
    expect(decideRatingChange(state, null, at(0))).toEqual(
      accept({
        mealId: 1,
        previous: 2,
        next: null,
        histogram: [0, 2, 0, 1, 0],
        dish: { id: 9, histogram: [1, 0, 0, 0, 2] },
      }),
    );
  });
});
