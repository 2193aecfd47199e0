import type { Meal, MealId } from '@meals/domain';

/** The instant every sample meal is served at; `ratingOpenAt` lies inside its rating period. */
export const servedAt = new Date('2025-03-10T11:30:00.123Z');
export const ratingOpenAt = new Date(servedAt.getTime() + 60 * 60 * 1000);

export function sampleMeal(id: MealId, overrides: Partial<Omit<Meal, 'id'>> = {}): Meal {
  return { id, name: `Meal ${id}`, servedAt, rateable: true, ...overrides };
}
