import { DomainError } from '../shared/domain-error.js';
import { isMealId, type Meal } from './meal.js';

export const mealNameMaxLength = 200;

/** Rejects a batch that could not be stored as given, naming the first offending meal. */
export function assertValidMeals(meals: readonly Meal[]): void {
  const seen = new Set<number>();
  meals.forEach((meal, index) => {
    const where = `meals[${index}]`;
    if (!isMealId(meal.id)) invalid(`${where}: the meal id must be a positive integer`);
    if (seen.has(meal.id)) invalid(`${where}: meal id ${meal.id} appears more than once`);
    seen.add(meal.id);
    const name = meal.name.trim();
    if (name.length === 0 || meal.name.length > mealNameMaxLength) {
      invalid(`${where}: the name must have 1 to ${mealNameMaxLength} characters`);
    }
    if (Number.isNaN(meal.servedAt.getTime())) invalid(`${where}: served_at is not a valid instant`);
  });
}

function invalid(message: string): never {
  throw new DomainError('invalid_meal', message);
}
