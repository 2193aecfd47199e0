import { noMealDetails, type DetailedMeal, type MealId } from '@canteen-meals/domain';

/** The instant every sample meal is served at; `ratingOpenAt` lies inside its rating period. */
export const servedAt = new Date('2025-03-10T11:30:00.123Z');
export const ratingOpenAt = new Date(servedAt.getTime() + 60 * 60 * 1000);

/** A meal as every repository answers it: with its details, here the defaults of a meal that has none. */
export function sampleMeal(id: MealId, overrides: Partial<Omit<DetailedMeal, 'id'>> = {}): DetailedMeal {
  return { ...noMealDetails, notes: [], prices: {}, id, name: `Meal ${id}`, servedAt, rateable: true, ...overrides };
}

/** The instant the contract suites read at: after every sample meal, so each counts as served in its dish's figures. */
export const readAt = new Date(servedAt.getTime() + 30 * 24 * 60 * 60 * 1000);
