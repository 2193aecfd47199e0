import {
  noMealDetails,
  priceRoles,
  type DetailedMeal,
  type Meal,
  type MealPrices,
  type PriceRole,
} from '@canteen-meals/domain';

/** A meals row without its histogram. */
export interface MealRow {
  meal_id: number;
  name: string;
  served_at: number;
  rateable: 0 | 1;
  canteen_id: string;
  position: number;
  category: string | null;
  notes: string;
  price_student: string | null;
  price_employee: string | null;
  price_pupil: string | null;
  price_other: string | null;
  /** A JSON array of label codes. */
  labels: string;
}

const priceColumn = (role: PriceRole) => `price_${role}` as const;

export const mealColumns = `meal_id, name, served_at, rateable, canteen_id, position, category, notes, ${priceRoles.map(priceColumn).join(', ')}, labels`;

export function mealFromRow(row: MealRow): DetailedMeal {
  const prices: Partial<Record<PriceRole, string>> = {};
  for (const role of priceRoles) {
    const amount = row[priceColumn(role)];
    if (amount !== null) prices[role] = amount;
  }
  return {
    id: row.meal_id,
    name: row.name,
    servedAt: new Date(row.served_at),
    rateable: row.rateable === 1,
    canteenId: row.canteen_id,
    position: row.position,
    category: row.category,
    notes: JSON.parse(row.notes) as string[],
    prices,
    labels: JSON.parse(row.labels) as string[],
  };
}

/** The parameters of `mealColumns`, in order, for an INSERT or UPDATE. */
export type MealParams = [number, string, number, 0 | 1, string, number, string | null, string, ...(string | null)[]];

export function mealParams(meal: Meal): MealParams {
  const prices: MealPrices = meal.prices ?? {};
  return [
    meal.id,
    meal.name,
    meal.servedAt.getTime(),
    meal.rateable ? 1 : 0,
    meal.canteenId ?? noMealDetails.canteenId,
    meal.position ?? noMealDetails.position,
    meal.category ?? null,
    JSON.stringify(meal.notes ?? []),
    ...priceRoles.map((role) => prices[role] ?? null),
    JSON.stringify(meal.labels ?? []),
  ];
}

export const mealPlaceholders = mealColumns
  .split(', ')
  .map(() => '?')
  .join(', ');

/** `SET name = excluded.name, ...` for every column but the id. */
export const mealUpdateFromExcluded = mealColumns
  .split(', ')
  .slice(1)
  .map((column) => `${column} = excluded.${column}`)
  .join(', ');
