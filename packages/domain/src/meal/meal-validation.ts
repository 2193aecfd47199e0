import { DomainError } from '../shared/domain-error.js';
import { isMealId, type Meal } from './meal.js';

export const mealNameMaxLength = 200;

// Neither can be stored as text faithfully: SQLite's length() stops at a NUL, an unpaired surrogate has no UTF-8
// form, and PostgreSQL refuses both in TEXT.
const unstorableInName = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

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
    if (unstorableInName.test(meal.name)) invalid(`${where}: the name must not contain a NUL or an unpaired surrogate`);
    if (Number.isNaN(meal.servedAt.getTime())) invalid(`${where}: served_at is not a valid instant`);
  });
}

function invalid(message: string): never {
  throw new DomainError('invalid_meal', message);
}
