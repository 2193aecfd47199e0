import { describe, expect, it } from 'vitest';
import { MealMother } from '../src/index.js';

const now = new Date('2026-03-10T12:00:00.000Z');

describe('MealMother', () => {
  it('defaults what a test leaves out and keeps what it states', () => {
    expect(MealMother.servedToday(now)).toEqual({
      id: 1,
      name: 'Meal 1',
      servedAt: new Date('2026-03-10T11:00:00.000Z'),
      rateable: true,
    });
    expect(MealMother.servedTomorrow(now, { id: 3, rateable: false })).toEqual({
      id: 3,
      name: 'Meal 3',
      servedAt: new Date('2026-03-11T12:00:00.000Z'),
      rateable: false,
    });
    expect(MealMother.servedDaysAgo(now, 8).servedAt).toEqual(new Date('2026-03-02T12:00:00.000Z'));
    expect(MealMother.notRateable(MealMother.servedToday(now)).rateable).toBe(false);
  });

  it('writes the admin upsert body in wire names, with details only where the meal has them', () => {
    const soup = MealMother.servedToday(now, { id: 7, name: 'Soup' });
    const curry = MealMother.servedToday(now, {
      id: 8,
      name: 'Curry',
      category: 'Hauptgericht',
      notes: ['vegan'],
      prices: { student: '2.60' },
    });
    expect(MealMother.upsertBody(soup, curry)).toEqual({
      meals: [
        { meal_id: 7, name: 'Soup', served_at: '2026-03-10T11:00:00.000Z', rateable: true },
        {
          meal_id: 8,
          name: 'Curry',
          served_at: '2026-03-10T11:00:00.000Z',
          rateable: true,
          category: 'Hauptgericht',
          notes: ['vegan'],
          prices: { student: '2.60' },
        },
      ],
    });
  });
});
