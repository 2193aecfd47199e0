import type {
  MealId,
  MealQueries,
  MenuPageRequest,
  PersonalMeal,
  PersonalState,
  PageRequest,
  RatingValue,
  ServingWindow,
  UserId,
} from '@canteen-meals/domain';
import type { Pool } from 'pg';
import { fromEpochMs } from './meal-rows.js';
import { menuOrderOf, menuPage, mostRecentFirst, readViews, StatementParameters } from './meal-views.js';

/**
 * The meals the windows select (canteen ids, and their bounds in epoch milliseconds): one range scan of the index
 * meals_menu_order per window, then each meal once (a meal in two windows is one row of the outer query). The
 * conditions on the canteens and on the bounds of all windows select nothing more; they are there for the planner,
 * which cannot estimate the rows of a join with an unnested array: with them it knows that few meals qualify, and
 * neither reads every meal nor picks an index without the canteen.
 */
function servedInWindows(parameters: StatementParameters, windows: readonly ServingWindow[]): string {
  const from = windows.map((window) => window.from.getTime());
  const until = windows.map((window) => window.until.getTime());
  const canteens = parameters.add(windows.map((window) => window.canteenId));
  const froms = parameters.add(from);
  const untils = parameters.add(until);
  const earliest = fromEpochMs(parameters.add(from.reduce((a, b) => Math.min(a, b))));
  const latest = fromEpochMs(parameters.add(until.reduce((a, b) => Math.max(a, b))));
  return `canteen_id = ANY (${canteens}::text[]) AND served_at >= ${earliest} AND served_at < ${latest}
  AND meal_id IN (
    SELECT served.meal_id
    FROM unnest(${canteens}::text[], ${froms}::bigint[], ${untils}::bigint[]) AS w (canteen_id, from_ms, until_ms)
    JOIN meals served ON served.canteen_id = w.canteen_id
      AND served.served_at >= ${fromEpochMs('w.from_ms')} AND served.served_at < ${fromEpochMs('w.until_ms')}
    WHERE served.canteen_id = ANY (${canteens}::text[])
      AND served.served_at >= ${earliest} AND served.served_at < ${latest})`;
}

/**
 * Whether the meals row `meal` lies in one of the windows: for a few rows found otherwise (by their key), not for
 * finding the windows' meals, which is what servedInWindows does.
 */
function inAnyWindow(meal: string, parameters: StatementParameters, windows: readonly ServingWindow[]): string {
  const canteens = parameters.add(windows.map((window) => window.canteenId));
  const froms = parameters.add(windows.map((window) => window.from.getTime()));
  const untils = parameters.add(windows.map((window) => window.until.getTime()));
  return `EXISTS (
    SELECT 1 FROM unnest(${canteens}::text[], ${froms}::bigint[], ${untils}::bigint[]) AS w (canteen_id, from_ms, until_ms)
    WHERE ${meal}.canteen_id = w.canteen_id
      AND ${meal}.served_at >= ${fromEpochMs('w.from_ms')} AND ${meal}.served_at < ${fromEpochMs('w.until_ms')})`;
}

interface PersonalStateRow {
  meal_id: string;
  marked: boolean;
  personal_rating: RatingValue | null;
}

/**
 * Every read is one statement: one snapshot, and the same number of queries for one meal or a hundred. Each meal
 * comes with its dish as of `asOf` (see readViews); withdrawn meals are left out.
 */
export class PostgresMealQueries implements MealQueries {
  constructor(private readonly pool: Pool) {}

  async viewsByIds(userId: UserId, ids: readonly MealId[], asOf: Date): Promise<PersonalMeal[]> {
    if (ids.length === 0) return [];
    const parameters = new StatementParameters();
    return readViews(this.pool, parameters, userId, asOf, { where: `meal_id = ANY (${parameters.add(ids)}::bigint[])` });
  }

  /**
   * One statement for any number of windows: the windows travel as three arrays, unnested and joined to meals. A
   * page is cut from the meals alone (see readViews), so only its rows are joined to their dishes.
   */
  async viewsServedIn(
    reader: UserId | null,
    windows: readonly ServingWindow[],
    asOf: Date,
    page?: MenuPageRequest,
  ): Promise<PersonalMeal[]> {
    if (windows.length === 0) return [];
    const parameters = new StatementParameters();
    const inWindows = servedInWindows(parameters, windows);
    const selection = page === undefined ? { where: inWindows, order: menuOrderOf('selected') } : menuPage(parameters, inWindows, page);
    return readViews(this.pool, parameters, reader, asOf, selection);
  }

  /**
   * Driven by the user's own rows: two ranges of the keys (user_id, meal_id) of markings and ratings, merged into one
   * row per meal by FULL JOIN, each row's meal found by primary key, and only then the windows; as cheap for a user
   * with few markings however long the menu is.
   */
  async personalStatesServedIn(userId: UserId, windows: readonly ServingWindow[]): Promise<PersonalState[]> {
    if (windows.length === 0) return [];
    const parameters = new StatementParameters();
    const user = parameters.add(userId);
    const sql = `SELECT meals.meal_id, marking.meal_id IS NOT NULL AS marked, rating.rating AS personal_rating
      FROM (SELECT meal_id FROM markings WHERE user_id = ${user}) AS marking
      FULL JOIN (SELECT meal_id, rating FROM ratings WHERE user_id = ${user}) AS rating USING (meal_id)
      JOIN meals USING (meal_id)
      WHERE meals.withdrawn_at IS NULL AND ${inAnyWindow('meals', parameters, windows)}
      ORDER BY ${menuOrderOf('meals')}`;
    const { rows } = await this.pool.query<PersonalStateRow>(sql, parameters.values);
    return rows.map((row) => ({ mealId: Number(row.meal_id), marked: row.marked, personalRating: row.personal_rating }));
  }

  async markedMeals(userId: UserId, page: PageRequest, asOf: Date): Promise<PersonalMeal[]> {
    return this.page('markings', userId, page, asOf);
  }

  async ratedMeals(userId: UserId, page: PageRequest, asOf: Date): Promise<PersonalMeal[]> {
    return this.page('ratings', userId, page, asOf);
  }

  /** The meals the user has a row of in `own` (markings or ratings), most recently served first. */
  private page(own: 'markings' | 'ratings', userId: UserId, page: PageRequest, asOf: Date): Promise<PersonalMeal[]> {
    const parameters = new StatementParameters();
    const mine = `meal_id IN (SELECT meal_id FROM ${own} WHERE user_id = ${parameters.add(userId)})`;
    return readViews(this.pool, parameters, userId, asOf, mostRecentFirst(parameters, mine, page));
  }
}
