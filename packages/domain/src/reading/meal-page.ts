import { mealReadingOf, type MealReading } from './meal-reading.js';
import { servedPositionOf, type PersonalMeal, type PageRequest, type ServedPosition } from './personal-meal.js';

export const defaultPageSize = 20;
export const maxPageSize = 100;

export interface MealPage {
  readonly meals: readonly MealReading[];
  /** Where the next page starts; null when this page is the last. */
  readonly next: ServedPosition | null;
}

/**
 * Reads one page through `read`, asking for one meal more than the page holds: that extra meal tells whether
 * another page follows, without counting.
 */
export async function readMealPage(
  read: (page: PageRequest) => Promise<readonly PersonalMeal[]>,
  { after, limit }: PageRequest,
  now: Date,
): Promise<MealPage> {
  if (!Number.isInteger(limit) || limit < 1 || limit > maxPageSize) {
    throw new RangeError(`a page holds 1 to ${maxPageSize} meals, not ${limit}`);
  }
  const views = await read({ after, limit: limit + 1 });
  const page = views.slice(0, limit);
  const last = page.at(-1);
  return {
    meals: page.map((view) => mealReadingOf(view, now)),
    next: views.length > limit && last !== undefined ? servedPositionOf(last.meal) : null,
  };
}
