import {
  defaultCanteenId,
  priceRoles,
  type DetailedMeal,
  type DishId,
  type Meal,
  type MealId,
  type MealPrices,
  type PriceRole,
  type RatingHistogram,
} from '@canteen-meals/domain';

/** bigint columns arrive as strings (pg's default, to lose no digits); meal ids are at most 2^53 - 1 by a CHECK. */
export interface MealRow {
  meal_id: string;
  name: string;
  served_at: Date;
  rateable: boolean;
  category: string | null;
  /** jsonb, parsed by pg. */
  notes: string[];
  price_student: string | null;
  price_employee: string | null;
  price_pupil: string | null;
  price_other: string | null;
  canteen_id: string;
  position: number;
  /** jsonb, parsed by pg. */
  labels: string[];
}

export interface HistogramRow {
  rated_1: number;
  rated_2: number;
  rated_3: number;
  rated_4: number;
  rated_5: number;
}

const priceColumn = (role: PriceRole) => `price_${role}` as const;

/** Every column of a meal but its histogram, in the order of `mealBatchParams`. */
export const mealColumnList = [
  'meal_id',
  'name',
  'served_at',
  'rateable',
  'category',
  'notes',
  ...priceRoles.map(priceColumn),
  'canteen_id',
  'position',
  'labels',
];
export const mealColumns = mealColumnList.join(', ');
/**
 * The same columns of the table or alias `table`, for statements that join meals to a table with like-named columns.
 */
export const mealColumnsOf = (table: string) => mealColumnList.map((column) => `${table}.${column}`).join(', ');
export const histogramColumns = 'rated_1, rated_2, rated_3, rated_4, rated_5';
export const histogramColumnsOf = (table: string) =>
  histogramColumns
    .split(', ')
    .map((column) => `${table}.${column}`)
    .join(', ');

/**
 * SQL for the instant `parameter` holds as epoch milliseconds: exact, and unlike ISO text it also takes the year 0000
 * (1 BC to PostgreSQL), which RFC 3339 allows.
 */
export function fromEpochMs(parameter: string): string {
  return `(timestamptz 'epoch' + ${parameter}::bigint * interval '1 millisecond')`;
}

export function mealFromRow(row: MealRow): DetailedMeal {
  const prices: Partial<Record<PriceRole, string>> = {};
  for (const role of priceRoles) {
    const amount = row[priceColumn(role)];
    if (amount !== null) prices[role] = amount;
  }
  return {
    id: Number(row.meal_id),
    name: row.name,
    servedAt: row.served_at,
    rateable: row.rateable,
    category: row.category,
    notes: row.notes,
    prices,
    canteenId: row.canteen_id,
    position: row.position,
    labels: row.labels,
  };
}

export function histogramFromRow(row: HistogramRow): RatingHistogram {
  return [row.rated_1, row.rated_2, row.rated_3, row.rated_4, row.rated_5];
}

/**
 * Many meals as one array parameter per column, for `INSERT ... SELECT FROM unnest(...)`: one statement whatever the
 * number of meals. Instants travel as epoch milliseconds, notes as JSON text (unnest cannot carry arrays of arrays).
 * Every write names each meal's dish (see dish-assignment.ts), the last parameter.
 */
export function mealBatchParams(meals: readonly Meal[], dishOf: ReadonlyMap<MealId, DishId>): unknown[] {
  const prices = (meal: Meal): MealPrices => meal.prices ?? {};
  return [
    meals.map((meal) => meal.id),
    meals.map((meal) => meal.name),
    meals.map((meal) => meal.servedAt.getTime()),
    meals.map((meal) => meal.rateable),
    meals.map((meal) => meal.category ?? null),
    meals.map((meal) => JSON.stringify(meal.notes ?? [])),
    ...priceRoles.map((role) => meals.map((meal) => prices(meal)[role] ?? null)),
    meals.map((meal) => meal.canteenId ?? defaultCanteenId),
    meals.map((meal) => meal.position ?? 0),
    meals.map((meal) => JSON.stringify(meal.labels ?? [])),
    meals.map((meal) => {
      const dishId = dishOf.get(meal.id);
      if (dishId === undefined) throw new Error(`meal ${meal.id} is written without a dish`);
      return dishId;
    }),
  ];
}

/** The columns `mealBatchRows` answers: every meal column, then the dish. */
export const mealWriteColumns = `${mealColumns}, dish_id`;

/**
 * The rows of `mealBatchParams` ($1 to $14), typed and converted to the meals columns, named and ordered like
 * `mealWriteColumns`.
 */
export const mealBatchRows = `SELECT meal_id, name, ${fromEpochMs('served_ms')} AS served_at, rateable, category,
    notes_json::jsonb AS notes, price_student, price_employee, price_pupil, price_other, canteen_id, position,
    labels_json::jsonb AS labels, dish_id
  FROM unnest($1::bigint[], $2::text[], $3::bigint[], $4::boolean[], $5::text[], $6::text[],
              $7::text[], $8::text[], $9::text[], $10::text[], $11::text[], $12::integer[], $13::text[], $14::bigint[])
    AS given (meal_id, name, served_ms, rateable, category, notes_json, price_student, price_employee, price_pupil, price_other,
              canteen_id, position, labels_json, dish_id)`;
