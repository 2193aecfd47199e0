import {
  decideDishMerge,
  dishNameKey,
  dishSearchKey,
  maxDishesPerMerge,
  sumOf,
  withoutServing,
} from '@canteen-meals/domain';
import { describe, expect, it } from 'vitest';

describe('dishNameKey', () => {
  it('makes one key of names that differ in case, width, composition or spacing', () => {
    const key = dishNameKey('Käsespätzle mit Röstzwiebeln');
    for (const name of [
      'KÄSESPÄTZLE MIT RÖSTZWIEBELN',
      '  käsespätzle   mit\tröstzwiebeln ',
      'Ka\u0308sespa\u0308tzle mit Ro\u0308stzwiebeln', // decomposed umlauts
      'Ｋäsespätzle mit Röstzwiebeln', // a full-width K
      'Käsespätzle\u00a0mit Röstzwiebeln', // a no-break space
    ]) {
      expect(dishNameKey(name)).toBe(key);
    }
  });

  it('folds case fully (ß is ss) but keeps accents and words apart', () => {
    expect(dishNameKey('Soße')).toBe(dishNameKey('SOSSE'));
    expect(dishNameKey('Käse')).not.toBe(dishNameKey('Kase'));
    expect(dishNameKey('Chili con Carne')).not.toBe(dishNameKey('Chili sin Carne'));
  });
});

describe('dishSearchKey', () => {
  it('drops accents on top of the name key', () => {
    expect(dishSearchKey('Käsespätzle')).toBe('kasespatzle');
    expect(dishSearchKey('Crème Brûlée')).toBe('creme brulee');
  });
});

describe('decideDishMerge', () => {
  const dish = (
    id: number,
    canteenId = 'default',
    histogram: [number, number, number, number, number] = [0, 0, 0, 0, 0],
  ) => ({
    id,
    canteenId,
    histogram,
  });

  it('adds the histograms up exactly and names every source once', () => {
    const decision = decideDishMerge(
      { target: 1, from: [2, 3, 2] },
      {
        target: dish(1, 'default', [1, 0, 0, 0, 2]),
        sources: [dish(2, 'default', [0, 3, 0, 0, 0]), dish(3, 'default', [0, 0, 0, 1, 1])],
      },
    );
    expect(decision).toEqual({ ok: true, value: { target: 1, sources: [2, 3], histogram: [1, 3, 0, 1, 3] } });
  });

  it.each([
    ['an empty list', { target: 1, from: [] }, 'invalid_dish_merge'],
    ['the target itself', { target: 1, from: [1] }, 'invalid_dish_merge'],
    [
      `more than ${maxDishesPerMerge} dishes`,
      { target: 1, from: Array.from({ length: maxDishesPerMerge + 1 }, (_, i) => i + 2) },
      'invalid_dish_merge',
    ],
    ['an unknown source', { target: 1, from: [2, 9] }, 'dish_not_found'],
  ])('refuses %s', (_, requested, code) => {
    const decision = decideDishMerge(requested, { target: dish(1), sources: [dish(2)] });
    expect(decision).toMatchObject({ ok: false, refusal: { code } });
  });

  it('refuses an unknown target, and dishes of another canteen, naming them', () => {
    expect(decideDishMerge({ target: 1, from: [2] }, { target: undefined, sources: [dish(2)] })).toMatchObject({
      ok: false,
      refusal: { code: 'dish_not_found', message: 'The dish 1 does not exist.' },
    });
    expect(decideDishMerge({ target: 1, from: [2] }, { target: dish(1), sources: [dish(2, 'bistro')] })).toMatchObject({
      ok: false,
      refusal: { code: 'dishes_in_other_canteens', message: expect.stringContaining('2') },
    });
  });
});

describe('dish histograms', () => {
  it('sums and removes a serving, never below zero', () => {
    expect(
      sumOf([
        [1, 0, 0, 0, 0],
        [0, 2, 0, 0, 1],
      ]),
    ).toEqual([1, 2, 0, 0, 1]);
    expect(withoutServing([1, 2, 0, 0, 1], [0, 2, 0, 0, 1])).toEqual([1, 0, 0, 0, 0]);
    expect(() => withoutServing([0, 0, 0, 0, 0], [1, 0, 0, 0, 0])).toThrow(RangeError);
  });
});
