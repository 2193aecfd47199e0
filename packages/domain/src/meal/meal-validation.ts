import { isCanteenId } from '../canteen/canteen.js';
import { accept, refuse, type Result } from '../shared/refusal.js';
import { isMealId, maxChosenMealId, type Meal } from './meal.js';
import { isCanonicalPrice, isPriceRole } from './meal-prices.js';
import { isTextField } from '../shared/storable-text.js';
import { unknownLabelCodes } from '../label/label.js';

/** As in OpenMensa feeds, which allow 250 characters for a name, a category and a note. */
export const mealNameMaxLength = 250;
export const mealTextMaxLength = 250;
export const mealNotesMaxCount = 100;
/** More than the vocabulary holds: a meal may carry every label. */
export const mealLabelsMaxCount = 100;
/** Far beyond any day's menu; keeps positions small integers in every store. */
export const mealPositionMax = 9_999;

/**
 * The instants a meal may be served at: those whose day, on any clock (UTC-12 to UTC+14), is a day a read can name
 * (YYYY-MM-DD, years 0001 to 9999). A meal on 9999-12-31 23:30 UTC lies on 10000-01-01 in Berlin: it was stored and
 * could never be read by its day.
 */
export const earliestServedAt = new Date('0001-01-02T00:00:00Z');
export const latestServedAt = new Date('9999-12-31T00:00:00Z');
const servedAtRule =
  'served_at must lie from 0001-01-02T00:00:00Z to before 9999-12-31T00:00:00Z (a day of years 0001 to 9999 on every clock)';

/** Refuses a batch that could not be stored as given, naming the first offending meal. */
export function validateMeals(meals: readonly Meal[]): Result<readonly Meal[], 'invalid_meal'> {
  const problem = batchProblem(meals);
  return problem === undefined ? accept(meals) : refuse('invalid_meal', problem);
}

function batchProblem(meals: readonly Meal[]): string | undefined {
  const seen = new Set<number>();
  for (const [index, meal] of meals.entries()) {
    const where = `meals[${index}]`;
    if (!isMealId(meal.id) || meal.id > maxChosenMealId) {
      return `${where}: the meal id must be an integer from 1 to ${maxChosenMealId}`;
    }
    if (seen.has(meal.id)) return `${where}: meal id ${meal.id} appears more than once`;
    seen.add(meal.id);
    const problem = mealFieldProblem(meal);
    if (problem !== undefined) return `${where}: ${problem}`;
  }
  return undefined;
}

/** What is wrong with a meal's fields other than its id, or undefined when nothing is. */
export function mealFieldProblem(meal: Omit<Meal, 'id'>): string | undefined {
  if (!isTextField(meal.name, mealNameMaxLength)) return `the name must have ${textRule(mealNameMaxLength)}`;
  if (Number.isNaN(meal.servedAt.getTime())) return 'served_at is not a valid instant';
  if (!(meal.servedAt >= earliestServedAt && meal.servedAt < latestServedAt)) return servedAtRule;
  if (meal.canteenId !== undefined && !isCanteenId(meal.canteenId))
    return 'the canteen id must match ^[a-z0-9][a-z0-9-]{0,63}$';
  if (
    meal.position !== undefined &&
    !(Number.isSafeInteger(meal.position) && meal.position >= 0 && meal.position <= mealPositionMax)
  ) {
    return `the position must be an integer from 0 to ${mealPositionMax}`;
  }
  if (meal.category != null && !isTextField(meal.category, mealTextMaxLength)) {
    return `the category must be null or have ${textRule(mealTextMaxLength)}`;
  }
  const notes = meal.notes ?? [];
  if (notes.length > mealNotesMaxCount) return `a meal has at most ${mealNotesMaxCount} notes`;
  const badNote = notes.findIndex((note) => !isTextField(note, mealTextMaxLength));
  if (badNote >= 0) return `notes[${badNote}] must have ${textRule(mealTextMaxLength)}`;
  const labels = meal.labels ?? [];
  if (!Array.isArray(labels) || labels.length > mealLabelsMaxCount)
    return `a meal has at most ${mealLabelsMaxCount} labels`;
  const unknown = unknownLabelCodes(labels);
  if (unknown.length > 0)
    return `unknown label code${unknown.length > 1 ? 's' : ''} ${unknown.map((code) => `"${code}"`).join(', ')} (see GET /api/v1/labels)`;
  for (const [role, amount] of Object.entries(meal.prices ?? {})) {
    if (!isPriceRole(role)) return `"${role}" is not a price role (student, employee, pupil, other)`;
    if (!isCanonicalPrice(amount)) return `the ${role} price must be a canonical decimal amount such as "2.60"`;
  }
  return undefined;
}

const textRule = (max: number) =>
  `1 to ${max} characters, not blank nor invisible, no control character (U+0000-U+001F, U+007F-U+009F), no noncharacter (U+FDD0-U+FDEF, U+FFFE, U+FFFF) and no unpaired surrogate`;
