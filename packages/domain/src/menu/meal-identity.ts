import type { DetailedMeal, Meal } from '../meal/meal.js';
import type { LocalDate } from './local-time.js';
import type { MenuItem } from './menu.js';

// The identity rule of imports, in one place: which menu entry is which stored meal across imports.

/**
 * Where an imported meal came from: the source (one canteen's feed), the day, the category and the name, the last
 * two compared without case and extra white space. The same key means the same meal, so it keeps its id.
 */
export type MealSourceKey = string;

/** A feed that lists one meal twice in a category on a day gives the later ones an ordinal (2, 3, ...). */
export function mealSourceKey(
  source: string,
  date: LocalDate,
  item: Pick<MenuItem, 'category' | 'name'>,
  ordinal = 1,
): MealSourceKey {
  const parts: (string | number)[] = [source, date, comparable(item.category), comparable(item.name)];
  if (ordinal > 1) parts.push(ordinal);
  return JSON.stringify(parts);
}

/**
 * The key of each item of one day's menu, in menu order: the first of a category and name gets the plain key, later
 * repeats count up, so re-importing the same list gives every item the key it had.
 */
export function keysOfDay<T extends Pick<MenuItem, 'category' | 'name'>>(
  source: string,
  date: LocalDate,
  items: readonly T[],
): MealSourceKey[] {
  const ordinals = new Map<MealSourceKey, number>();
  return items.map((item) => {
    const firstKey = mealSourceKey(source, date, item);
    const ordinal = (ordinals.get(firstKey) ?? 0) + 1;
    ordinals.set(firstKey, ordinal);
    return mealSourceKey(source, date, item, ordinal);
  });
}

/** Case, Unicode composition and runs of white space do not make another meal. */
export function comparable(text: string): string {
  return text.normalize('NFC').trim().replace(/\s+/gu, ' ').toLowerCase();
}

/** A meal of a menu, ready to store but for its id, which only the import plan assigns. */
export interface MenuCandidate {
  readonly key: MealSourceKey;
  readonly servedOn: LocalDate;
  readonly meal: Omit<Meal, 'id'>;
}

/** A stored meal with the key it is known by. */
export interface SourcedMeal {
  readonly key: MealSourceKey;
  readonly servedOn: LocalDate;
  readonly meal: DetailedMeal;
}
