import {
  inOrderOfMeals,
  type MealId,
  type PersonalMeal,
  type PersonalPart,
  type PageRequest,
  type RatingValue,
  type UserId,
} from '@canteen-meals/domain';
import type { MealQueries, MenuPageRequest, ServingWindow } from '@canteen-meals/domain/ports';
import type { Pool } from 'pg';
import { fromEpochMs } from './meal-rows.js';
import {
  preferenceColumns,
  preferenceJoin,
  preferencesFromRow,
  type PreferenceRow,
} from './postgres-preference-repository.js';
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
 * Every read is one statement: one snapshot, and the same number of queries for one meal or a hundred. Each meal
 * comes with its dish as of `asOf` (see readViews); withdrawn meals are left out.
 */
export class PostgresMealQueries implements MealQueries {
  constructor(private readonly pool: Pool) {}

  async viewsByIds(userId: UserId | null, ids: readonly MealId[], asOf: Date): Promise<PersonalMeal[]> {
    if (ids.length === 0) return [];
    const parameters = new StatementParameters();
    return readViews(this.pool, parameters, userId, asOf, {
      where: `meal_id = ANY (${parameters.add(ids)}::bigint[])`,
    });
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
    const selection =
      page === undefined ? { where: inWindows, order: menuOrderOf('selected') } : menuPage(parameters, inWindows, page);
    return readViews(this.pool, parameters, reader, asOf, selection);
  }

  /**
   * The user's rows of markings and ratings among the meals asked for, found by the keys (user_id, meal_id), merged
   * into one item per meal by FULL JOIN; and the user's preferences, in the same statement (one round trip).
   */
  async personalPartOf(userId: UserId, mealIds: readonly MealId[]): Promise<PersonalPart> {
    const sql = `SELECT (SELECT coalesce(jsonb_agg(jsonb_build_array(meal_id::text, marking.meal_id IS NOT NULL, rating.rating)), '[]'::jsonb)
          FROM (SELECT meal_id FROM markings WHERE user_id = $1 AND meal_id = ANY ($2::bigint[])) AS marking
          FULL JOIN (SELECT meal_id, rating FROM ratings WHERE user_id = $1 AND meal_id = ANY ($2::bigint[])) AS rating USING (meal_id)) AS own,
        ${preferenceColumns}
      FROM (SELECT 1) AS one ${preferenceJoin}`;
    const { rows } = await this.pool.query<PreferenceRow & { own: [string, boolean, RatingValue | null][] }>(sql, [
      userId,
      mealIds,
    ]);
    const row = rows[0]!;
    const states = row.own.map(([mealId, marked, personalRating]) => ({
      mealId: Number(mealId),
      marked,
      personalRating,
    }));
    return {
      states: inOrderOfMeals(mealIds, new Map(states.map((state) => [state.mealId, state]))),
      preferences: preferencesFromRow(row),
    };
  }

  /** Ranges of the index markings_by_meal (meal_id, user_id), one per meal: an index-only scan. */
  async markingCounts(mealIds: readonly MealId[]): Promise<ReadonlyMap<MealId, number>> {
    if (mealIds.length === 0) return new Map();
    const { rows } = await this.pool.query<{ meal_id: string; marks: number }>(
      'SELECT meal_id, count(*)::int AS marks FROM markings WHERE meal_id = ANY ($1::bigint[]) GROUP BY meal_id',
      [mealIds],
    );
    return new Map(rows.map((row) => [Number(row.meal_id), row.marks]));
  }

  /**
   * From the user's markings (the key user_id, meal_id) to their meals' dishes, then each dish's servings between the
   * earliest and the latest bound of all windows, a range of the index meals_by_dish (dish_id, served_at); each of
   * those few rows is checked against the windows of its canteen, so the menus of canteens without a favourite are
   * never read. The page is cut from the meals alone (see readViews).
   */
  async favouriteServingsIn(
    userId: UserId,
    windows: readonly ServingWindow[],
    asOf: Date,
    limit: number,
  ): Promise<PersonalMeal[]> {
    if (windows.length === 0) return [];
    const parameters = new StatementParameters();
    const from = windows.map((window) => window.from.getTime());
    const until = windows.map((window) => window.until.getTime());
    const canteens = parameters.add(windows.map((window) => window.canteenId));
    const froms = parameters.add(from);
    const untils = parameters.add(until);
    const earliest = fromEpochMs(parameters.add(from.reduce((a, b) => Math.min(a, b))));
    const latest = fromEpochMs(parameters.add(until.reduce((a, b) => Math.max(a, b))));
    const where = `dish_id IN (
        SELECT marked.dish_id FROM markings JOIN meals marked ON marked.meal_id = markings.meal_id
        WHERE markings.user_id = ${parameters.add(userId)})
      AND served_at >= ${earliest} AND served_at < ${latest}
      AND EXISTS (SELECT 1 FROM unnest(${canteens}::text[], ${froms}::bigint[], ${untils}::bigint[]) AS w (canteen_id, from_ms, until_ms)
        WHERE w.canteen_id = meals.canteen_id AND served_at >= ${fromEpochMs('w.from_ms')} AND served_at < ${fromEpochMs('w.until_ms')})`;
    // Canteen ids compare byte by byte, as in the other adapters, whatever the database's collation.
    const servingOrder = (table: string) =>
      `${table}served_at, ${table}canteen_id COLLATE "C", ${table}position, ${table}meal_id`;
    return readViews(this.pool, parameters, userId, asOf, {
      where,
      limit: `ORDER BY ${servingOrder('')} LIMIT ${parameters.add(limit)}`,
      order: servingOrder('selected.'),
    });
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
