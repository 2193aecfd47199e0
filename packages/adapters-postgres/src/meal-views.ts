import type {
  Availability,
  AvailabilityStatus,
  DishSummary,
  PageRequest,
  PersonalMeal,
  RatingValue,
  UserId,
} from '@canteen-meals/domain';
import type { MenuPageRequest } from '@canteen-meals/domain/ports';
import type { Pool } from 'pg';
import {
  fromEpochMs,
  histogramColumns,
  histogramColumnsOf,
  histogramFromRow,
  mealColumns,
  mealColumnsOf,
  mealFromRow,
  type HistogramRow,
  type MealRow,
} from './meal-rows.js';

/** A statement's parameters, numbered as they are added, so that a statement can be put together from parts. */
export class StatementParameters {
  readonly values: unknown[] = [];

  /** Adds `value` and answers its placeholder ($1, $2, ...). */
  add(value: unknown): string {
    this.values.push(value);
    return `$${this.values.length}`;
  }
}

/** A dish as `dishSummaryColumns` answers it. */
export interface DishSummaryRow {
  dish_id: string;
  dish_canteen_id: string;
  dish_name: string;
  dish_rated_1: number;
  dish_rated_2: number;
  dish_rated_3: number;
  dish_rated_4: number;
  dish_rated_5: number;
  times_served: number;
  last_served_at: Date | null;
  next_served_at: Date | null;
}

/**
 * The columns of a DishSummary, of the dish row `dish` and the figures `servingFigures` answers as `figures`: the
 * histogram is kept in the dish row, the figures are one range of the index meals_by_dish.
 */
export function dishSummaryColumns(dish: string, figures: string): string {
  return `${dish}.dish_id, ${dish}.canteen_id AS dish_canteen_id, ${dish}.name AS dish_name,
    ${dish}.rated_1 AS dish_rated_1, ${dish}.rated_2 AS dish_rated_2, ${dish}.rated_3 AS dish_rated_3,
    ${dish}.rated_4 AS dish_rated_4, ${dish}.rated_5 AS dish_rated_5,
    ${figures}.times_served, ${figures}.last_served_at, ${figures}.next_served_at`;
}

/**
 * A LATERAL subquery: how often the dish `dishId` (an SQL expression) was served up to `asOf` (a placeholder holding
 * epoch milliseconds), when last, and when next, counting the servings that are not withdrawn.
 */
export function servingFigures(dishId: string, asOf: string): string {
  const instant = fromEpochMs(asOf);
  return `SELECT count(*) FILTER (WHERE serving.served_at <= ${instant})::int AS times_served,
      max(serving.served_at) FILTER (WHERE serving.served_at <= ${instant}) AS last_served_at,
      min(serving.served_at) FILTER (WHERE serving.served_at > ${instant}) AS next_served_at
    FROM meals serving WHERE serving.dish_id = ${dishId} AND serving.withdrawn_at IS NULL`;
}

export function dishSummaryFromRow(row: DishSummaryRow): DishSummary {
  return {
    id: Number(row.dish_id),
    canteenId: row.dish_canteen_id,
    name: row.dish_name,
    histogram: [row.dish_rated_1, row.dish_rated_2, row.dish_rated_3, row.dish_rated_4, row.dish_rated_5],
    timesServed: row.times_served,
    lastServedAt: row.last_served_at,
    nextServedAt: row.next_served_at,
  };
}

/** Which meals a read answers, and in which order. */
export interface MealSelection {
  /** A condition on the table `meals` (unaliased); withdrawn meals are left out besides. */
  readonly where: string;
  /** ORDER BY and LIMIT of the selection itself, for a page; none when every selected meal is answered. */
  readonly limit?: string;
  /** The order of the answer, on the selected rows `selected`. */
  readonly order?: string;
}

/** A meal's availability columns, as the views read them. */
export interface AvailabilityRow {
  availability: AvailabilityStatus;
  availability_changed_at: Date | null;
}

export function availabilityFromRow(row: AvailabilityRow): Availability {
  return { status: row.availability, changedAt: row.availability_changed_at };
}

type ViewRow = MealRow &
  HistogramRow &
  DishSummaryRow &
  AvailabilityRow & { marked: boolean; personal_rating: RatingValue | null };

/**
 * One statement: the selected meals that are not withdrawn, each with its histogram (kept in the meals row), the
 * reader's own state (none for a null reader) and its dish as of `asOf`. The selection is a subquery, so that its
 * conditions and its page's LIMIT apply to meals alone; the dish and its figures are joined to the page's rows only.
 */
export async function readViews(
  pool: Pool,
  parameters: StatementParameters,
  reader: UserId | null,
  asOf: Date,
  { where, limit = '', order }: MealSelection,
): Promise<PersonalMeal[]> {
  const user = parameters.add(reader);
  const instant = parameters.add(asOf.getTime());
  const sql = `SELECT ${mealColumnsOf('selected')}, ${histogramColumnsOf('selected')},
      selected.availability, selected.availability_changed_at,
      EXISTS (SELECT 1 FROM markings WHERE markings.user_id = ${user} AND markings.meal_id = selected.meal_id) AS marked,
      (SELECT rating FROM ratings WHERE ratings.meal_id = selected.meal_id AND ratings.user_id = ${user}) AS personal_rating,
      ${dishSummaryColumns('dish', 'figures')}
    FROM (SELECT ${mealColumns}, ${histogramColumns}, availability, availability_changed_at, dish_id FROM meals WHERE withdrawn_at IS NULL AND (${where}) ${limit})
      AS selected
    JOIN dishes dish ON dish.dish_id = selected.dish_id
    CROSS JOIN LATERAL (${servingFigures('dish.dish_id', instant)}) AS figures
    ${order === undefined ? '' : `ORDER BY ${order}`}`;
  const { rows } = await pool.query<ViewRow>(sql, parameters.values);
  return rows.map((row) => ({
    meal: mealFromRow(row),
    histogram: histogramFromRow(row),
    marked: row.marked,
    personalRating: row.personal_rating,
    dish: dishSummaryFromRow(row),
    availability: availabilityFromRow(row),
  }));
}

/**
 * A page of the meals `condition` selects, most recently served first (served_at, then meal id, both descending),
 * strictly after the page's position.
 */
export function mostRecentFirst(
  parameters: StatementParameters,
  condition: string,
  { after, limit }: PageRequest,
): MealSelection {
  const position =
    after === null
      ? ''
      : ` AND (served_at, meal_id) < (${fromEpochMs(parameters.add(after.servedAt.getTime()))}, ${parameters.add(after.mealId)}::bigint)`;
  return {
    where: `${condition}${position}`,
    limit: `ORDER BY served_at DESC, meal_id DESC LIMIT ${parameters.add(limit)}`,
    order: 'selected.served_at DESC, selected.meal_id DESC',
  };
}

/** Menu order of the rows of `table`: served_at, then position, then meal id, all ascending (see MenuPosition). */
export const menuOrderOf = (table: string) => `${table}.served_at, ${table}.position, ${table}.meal_id`;

/**
 * A page of the meals `condition` selects, in menu order, strictly after the page's position: a row comparison
 * (keyset), so a page further on skips no rows by counting them.
 */
export function menuPage(
  parameters: StatementParameters,
  condition: string,
  { after, limit }: MenuPageRequest,
): MealSelection {
  const position =
    after === null
      ? ''
      : ` AND (served_at, position, meal_id) > (${fromEpochMs(parameters.add(after.servedAt.getTime()))}, ${parameters.add(after.position)}::integer, ${parameters.add(after.mealId)}::bigint)`;
  return {
    where: `${condition}${position}`,
    limit: `ORDER BY served_at, position, meal_id LIMIT ${parameters.add(limit)}`,
    order: menuOrderOf('selected'),
  };
}
