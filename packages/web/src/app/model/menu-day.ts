// A day of a canteen's menu as the app shows it: meals grouped by category, the day's top three, what the filters
// hid. Pure: the data layer reads, this arranges.
import type { MealView } from '@canteen-meals/client';
import { dayOf } from './days.js';

/** A meal of the public menu: no personal part (that comes from the personal states, signed in). */
export type MenuMeal = Omit<MealView, 'marked' | 'rating_personal' | 'avoided'>;

export interface Category {
  readonly name: string | null;
  readonly meals: readonly MenuMeal[];
}

/** The day's meals, in menu order, grouped by category in the order each first appears. */
export function byCategory(meals: readonly MenuMeal[]): readonly Category[] {
  const groups = new Map<string | null, MenuMeal[]>();
  for (const meal of meals) {
    const group = groups.get(meal.category);
    if (group === undefined) groups.set(meal.category, [meal]);
    else group.push(meal);
  }
  return [...groups].map(([name, grouped]) => ({ name, meals: grouped }));
}

/** The meals of one day out of a read of several, on the canteen's clocks. */
export function mealsOn(meals: readonly MenuMeal[], day: string, timeZone: string): readonly MenuMeal[] {
  return meals.filter((meal) => dayOf(meal.served_at, timeZone) === day);
}

/** The day's top three of a ranking by rating: place by meal id, only meals with a score (rated enough to rank). */
export function topThree(
  items: readonly { readonly meal_id: number; readonly score: number | null }[],
): ReadonlyMap<number, number> {
  return new Map(
    items
      .filter((item) => item.score !== null)
      .slice(0, 3)
      .map((item, index) => [item.meal_id, index + 1]),
  );
}

/** Why a meal takes no rating now (its `rating_open` is false), from the menu's own facts and the clock. */
export type ClosedReason = 'not_yet' | 'over' | 'not_rateable';
export function closedReason(meal: Pick<MenuMeal, 'rateable' | 'served_at'>, now: Date): ClosedReason {
  if (!meal.rateable) return 'not_rateable';
  return Date.parse(meal.served_at) > now.getTime() ? 'not_yet' : 'over';
}
