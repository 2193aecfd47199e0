import { DomainError } from '../shared/domain-error.js';
import { isMealId, maxChosenMealId, type Meal } from './meal.js';
import { isCanonicalPrice, isPriceRole } from './meal-prices.js';
import { hasControlCharacter, isStorableText } from '../shared/storable-text.js';

/** As in OpenMensa feeds, which allow 250 characters for a name, a category and a note. */
export const mealNameMaxLength = 250;
export const mealTextMaxLength = 250;
export const mealNotesMaxCount = 100;

/** Rejects a batch that could not be stored as given, naming the first offending meal. */
export function assertValidMeals(meals: readonly Meal[]): void {
  const seen = new Set<number>();
  meals.forEach((meal, index) => {
    const where = `meals[${index}]`;
    if (!isMealId(meal.id) || meal.id > maxChosenMealId) {
      invalid(`${where}: the meal id must be an integer from 1 to ${maxChosenMealId}`);
    }
    if (seen.has(meal.id)) invalid(`${where}: meal id ${meal.id} appears more than once`);
    seen.add(meal.id);
    const problem = mealFieldProblem(meal);
    if (problem !== undefined) invalid(`${where}: ${problem}`);
  });
}

/** What is wrong with a meal's fields other than its id, or undefined when nothing is. */
export function mealFieldProblem(meal: Omit<Meal, 'id'>): string | undefined {
  if (!isText(meal.name, mealNameMaxLength)) return `the name must have ${textRule(mealNameMaxLength)}`;
  if (Number.isNaN(meal.servedAt.getTime())) return 'served_at is not a valid instant';
  if (meal.category != null && !isText(meal.category, mealTextMaxLength)) {
    return `the category must be null or have ${textRule(mealTextMaxLength)}`;
  }
  const notes = meal.notes ?? [];
  if (notes.length > mealNotesMaxCount) return `a meal has at most ${mealNotesMaxCount} notes`;
  const badNote = notes.findIndex((note) => !isText(note, mealTextMaxLength));
  if (badNote >= 0) return `notes[${badNote}] must have ${textRule(mealTextMaxLength)}`;
  for (const [role, amount] of Object.entries(meal.prices ?? {})) {
    if (!isPriceRole(role)) return `"${role}" is not a price role (student, employee, pupil, other)`;
    if (!isCanonicalPrice(amount)) return `the ${role} price must be a canonical decimal amount such as "2.60"`;
  }
  return undefined;
}

/**
 * Not blank, at most `max` characters (Unicode code points, as SQL and JSON Schema count them), no control character,
 * and storable as text: no unpaired surrogate.
 */
function isText(value: unknown, max: number): boolean {
  return (
    typeof value === 'string' &&
    value.trim().length > 0 &&
    [...value].length <= max &&
    !hasControlCharacter(value) &&
    isStorableText(value)
  );
}

const textRule = (max: number) => `1 to ${max} characters, no control character (U+0000-U+001F, U+007F-U+009F) and no unpaired surrogate`;

function invalid(message: string): never {
  throw new DomainError('invalid_meal', message);
}
