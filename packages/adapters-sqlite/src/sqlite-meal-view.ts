import type {
  Availability,
  AvailabilityStatus,
  CanteenId,
  DishId,
  DishSummary,
  MealId,
  PageRequest,
  PersonalMeal,
  RatingValue,
  UserId,
} from '@canteen-meals/domain';
import type { MenuPageRequest } from '@canteen-meals/domain/ports';
import type { Database, Statement } from 'better-sqlite3';
import { mealColumns, mealFromRow, type MealRow } from './sqlite-meal-row.js';
import { histogramColumns, histogramFromRow, type HistogramRow } from './sqlite-rating-repository.js';

/** A dish's row and its figures as of `@as_of`, as `dishSummaryColumns` names them. */
export interface DishSummaryRow {
  dish_id: DishId;
  dish_canteen_id: CanteenId;
  dish_name: string;
  dish_rated_1: number;
  dish_rated_2: number;
  dish_rated_3: number;
  dish_rated_4: number;
  dish_rated_5: number;
  dish_times_served: number;
  dish_last_served_at: number | null;
  dish_next_served_at: number | null;
}

/**
 * The columns of a DishSummary of the dishes row `dish`, as of the parameter `@as_of`: its servings that are not
 * withdrawn, up to and after the instant, are ranges of the index (dish_id, served_at, withdrawn_at), which covers
 * them. Correlated subqueries keep every read one statement.
 */
export function dishSummaryColumns(dish: string): string {
  const servings = `FROM meals AS serving WHERE serving.dish_id = ${dish}.dish_id AND serving.withdrawn_at IS NULL`;
  return `${dish}.dish_id AS dish_id, ${dish}.canteen_id AS dish_canteen_id, ${dish}.name AS dish_name,
    ${histogramColumns
      .split(', ')
      .map((column) => `${dish}.${column} AS dish_${column}`)
      .join(', ')},
    (SELECT count(*) ${servings} AND serving.served_at <= @as_of) AS dish_times_served,
    (SELECT max(serving.served_at) ${servings} AND serving.served_at <= @as_of) AS dish_last_served_at,
    (SELECT min(serving.served_at) ${servings} AND serving.served_at > @as_of) AS dish_next_served_at`;
}

export function dishSummaryFromRow(row: DishSummaryRow): DishSummary {
  return {
    id: row.dish_id,
    canteenId: row.dish_canteen_id,
    name: row.dish_name,
    histogram: [row.dish_rated_1, row.dish_rated_2, row.dish_rated_3, row.dish_rated_4, row.dish_rated_5],
    timesServed: row.dish_times_served,
    lastServedAt: row.dish_last_served_at === null ? null : new Date(row.dish_last_served_at),
    nextServedAt: row.dish_next_served_at === null ? null : new Date(row.dish_next_served_at),
  };
}

/** A meal's availability columns, as the views read them. */
export interface AvailabilityRow {
  availability: AvailabilityStatus;
  availability_changed_at: number | null;
}

export function availabilityFromRow(row: AvailabilityRow): Availability {
  return {
    status: row.availability,
    changedAt: row.availability_changed_at === null ? null : new Date(row.availability_changed_at),
  };
}

export type ViewRow = MealRow &
  HistogramRow &
  DishSummaryRow &
  AvailabilityRow & { marked: 0 | 1; personal_rating: RatingValue | null };

/** The parameters every view reads: the reader (null: anonymous, nothing personal) and the instant. */
export interface ViewParameters {
  user: UserId | null;
  as_of: number;
}

/**
 * The meal, its histogram (kept in the meals row), the reader's own state and its dish, one row per meal; the meals
 * table is `meals`, which the caller's WHERE names. Withdrawn meals are the caller's to leave out.
 */
export const selectViews = `SELECT ${[...mealColumns.split(', '), ...histogramColumns.split(', ')]
  .map((column) => `meals.${column} AS ${column}`)
  .join(', ')},
  meals.availability AS availability, meals.availability_changed_at AS availability_changed_at,
  EXISTS (SELECT 1 FROM markings WHERE markings.user_id = @user AND markings.meal_id = meals.meal_id) AS marked,
  (SELECT rating FROM ratings WHERE ratings.user_id = @user AND ratings.meal_id = meals.meal_id) AS personal_rating,
  ${dishSummaryColumns('dish')}
  FROM meals JOIN dishes AS dish ON dish.dish_id = meals.dish_id`;

export function viewFromRow(row: ViewRow): PersonalMeal {
  return {
    meal: mealFromRow(row),
    histogram: histogramFromRow(row),
    marked: row.marked === 1,
    personalRating: row.personal_rating,
    dish: dishSummaryFromRow(row),
    availability: availabilityFromRow(row),
  };
}

interface PageParameters extends ViewParameters {
  limit: number;
  served_at: number;
  meal_id: MealId;
}

/** A first page and a following one of a "most recently served first" list. */
export interface PageStatements<P extends object> {
  readonly first: Statement<P & ViewParameters & { limit: number }, ViewRow>;
  readonly after: Statement<P & PageParameters, ViewRow>;
}

/** The meals that are not withdrawn and that `condition` (on `meals`) selects, most recently served first. */
export function pageStatements<P extends object>(db: Database, condition: string): PageStatements<P> {
  const own = `${selectViews} WHERE ${condition} AND meals.withdrawn_at IS NULL`;
  const mostRecentFirst = 'ORDER BY meals.served_at DESC, meals.meal_id DESC LIMIT @limit';
  return {
    first: db.prepare(`${own} ${mostRecentFirst}`),
    after: db.prepare(`${own} AND (meals.served_at, meals.meal_id) < (@served_at, @meal_id) ${mostRecentFirst}`),
  };
}

export function readPage<P extends object>(
  statements: PageStatements<P>,
  parameters: P & ViewParameters,
  { after, limit }: PageRequest,
): PersonalMeal[] {
  const rows =
    after === null
      ? statements.first.all({ ...parameters, limit })
      : statements.after.all({ ...parameters, limit, served_at: after.servedAt.getTime(), meal_id: after.mealId });
  return rows.map(viewFromRow);
}

/**
 * The meals of the windows `@windows` (a JSON array of `[canteen_id, from, until]`, the bounds in epoch milliseconds),
 * as a condition on the meals table or alias `table`. Each window is one range of the index (canteen_id, served_at,
 * position, meal_id); IN answers a meal of overlapping windows once.
 */
export function windowsCondition(table: string): string {
  return `${table}.meal_id IN (
    SELECT served.meal_id FROM json_each(@windows) AS span
    JOIN meals AS served ON served.canteen_id = json_extract(span.value, '$[0]')
      AND served.served_at >= json_extract(span.value, '$[1]') AND served.served_at < json_extract(span.value, '$[2]'))`;
}

interface MenuPageParameters extends ViewParameters {
  limit: number;
  served_at: number;
  position: number;
  meal_id: MealId;
}

/** A first page and a following one of a list in menu order. */
export interface MenuPageStatements<P extends object> {
  readonly first: Statement<P & ViewParameters & { limit: number }, ViewRow>;
  readonly after: Statement<P & MenuPageParameters, ViewRow>;
}

/**
 * The meals that are not withdrawn and that `condition` (on the alias `paged`) selects, in menu order: served_at,
 * position, meal id. The page is chosen first, among the meals alone, cut at `@limit` and after the position by a
 * row-value comparison (keyset: no rows are skipped by counting), so that the views' own state and dish figures are
 * read for the page's meals only. It is cut from `meals`, not from the join of the windows, where a meal of two
 * overlapping windows would count twice toward the limit.
 */
export function menuPageStatements<P extends object>(db: Database, condition: string): MenuPageStatements<P> {
  const menuOrder = (table: string) => `${table}.served_at, ${table}.position, ${table}.meal_id`;
  const page = (position: string) => `${selectViews}
    WHERE meals.meal_id IN (
      SELECT paged.meal_id FROM meals AS paged WHERE ${condition} AND paged.withdrawn_at IS NULL${position}
      ORDER BY ${menuOrder('paged')} LIMIT @limit)
    ORDER BY ${menuOrder('meals')}`;
  return {
    first: db.prepare(page('')),
    after: db.prepare(page(` AND (${menuOrder('paged')}) > (@served_at, @position, @meal_id)`)),
  };
}

export function readMenuPage<P extends object>(
  statements: MenuPageStatements<P>,
  parameters: P & ViewParameters,
  { after, limit }: MenuPageRequest,
): PersonalMeal[] {
  const rows =
    after === null
      ? statements.first.all({ ...parameters, limit })
      : statements.after.all({
          ...parameters,
          limit,
          served_at: after.servedAt.getTime(),
          position: after.position,
          meal_id: after.mealId,
        });
  return rows.map(viewFromRow);
}
