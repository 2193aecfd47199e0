import { describe, expect, it } from 'vitest';
import { byCategory, closedReason, mealsOn, topThree } from '../src/app/model/menu-day.js';
import { menuMeal } from './app-fixtures.js';

describe('byCategory', () => {
  it('groups in the order each category first appears, the meals in menu order, no category as a group of its own', () => {
    const soup = menuMeal({ meal_id: 1, category: 'Soups' });
    const curry = menuMeal({ meal_id: 2, category: 'Main dishes' });
    const stew = menuMeal({ meal_id: 3, category: 'Soups' });
    const apple = menuMeal({ meal_id: 4, category: null });
    const pasta = menuMeal({ meal_id: 5, category: 'Main dishes' });
    const categories = byCategory([soup, curry, stew, apple, pasta]);
    expect(categories.map((category) => category.name)).toEqual(['Soups', 'Main dishes', null]);
    expect(categories.map((category) => category.meals.map((meal) => meal.meal_id))).toEqual([[1, 3], [2, 5], [4]]);
  });

  it('is empty for no meals', () => {
    expect(byCategory([])).toEqual([]);
  });
});

describe('mealsOn', () => {
  it("keeps the day's meals on the canteen's clocks", () => {
    const late = menuMeal({ meal_id: 1, served_at: '2026-03-09T23:30:00.000Z' });
    const noon = menuMeal({ meal_id: 2, served_at: '2026-03-10T11:30:00.000Z' });
    expect(mealsOn([late, noon], '2026-03-10', 'Europe/Berlin').map((meal) => meal.meal_id)).toEqual([1, 2]);
    expect(mealsOn([late, noon], '2026-03-10', 'UTC').map((meal) => meal.meal_id)).toEqual([2]);
    expect(mealsOn([late, noon], '2026-03-09', 'UTC').map((meal) => meal.meal_id)).toEqual([1]);
  });
});

describe('topThree', () => {
  it('places the first three meals with a score, skipping those without', () => {
    const places = topThree([
      { meal_id: 10, score: null },
      { meal_id: 11, score: 4.6 },
      { meal_id: 12, score: null },
      { meal_id: 13, score: 4.2 },
      { meal_id: 14, score: 3.9 },
      { meal_id: 15, score: 3.8 },
    ]);
    expect([...places]).toEqual([
      [11, 1],
      [13, 2],
      [14, 3],
    ]);
    expect(places.has(10)).toBe(false);
    expect(places.has(15)).toBe(false);
  });

  it('places fewer when fewer have a score, none when none', () => {
    expect([
      ...topThree([
        { meal_id: 1, score: 2 },
        { meal_id: 2, score: null },
      ]),
    ]).toEqual([[1, 1]]);
    expect(topThree([{ meal_id: 1, score: null }]).size).toBe(0);
    expect(topThree([]).size).toBe(0);
  });

  it('counts a score of 0 as a score', () => {
    expect([...topThree([{ meal_id: 1, score: 0 }])]).toEqual([[1, 1]]);
  });
});

describe('closedReason', () => {
  const servedAt = '2026-03-10T11:30:00.000Z';

  it('not yet before it is served, over from then on', () => {
    expect(closedReason({ rateable: true, served_at: servedAt }, new Date('2026-03-10T11:29:59.999Z'))).toBe('not_yet');
    expect(closedReason({ rateable: true, served_at: servedAt }, new Date(servedAt))).toBe('over');
    expect(closedReason({ rateable: true, served_at: servedAt }, new Date('2026-03-18T11:30:00.000Z'))).toBe('over');
  });

  it('not rateable whenever the meal takes no ratings', () => {
    expect(closedReason({ rateable: false, served_at: servedAt }, new Date('2026-03-01T00:00:00.000Z'))).toBe(
      'not_rateable',
    );
    expect(closedReason({ rateable: false, served_at: servedAt }, new Date('2026-03-20T00:00:00.000Z'))).toBe(
      'not_rateable',
    );
  });
});
