import type { MealId, MealQueries, MealView, PageRequest, RatingValue, UserId } from '@canteen-meals/domain';
import type { Pool } from 'pg';
import { fromEpochMs, histogramColumns, histogramFromRow, mealColumns, mealFromRow, type HistogramRow, type MealRow } from './meal-rows.js';

type ViewRow = MealRow & HistogramRow & { marked: boolean; personal_rating: RatingValue | null };

/** The meal, its histogram (kept in the meals row) and the reader ($1) own state, in one row per meal. */
const views = `SELECT ${mealColumns}, ${histogramColumns},
    EXISTS (SELECT 1 FROM markings WHERE markings.user_id = $1 AND markings.meal_id = meals.meal_id) AS marked,
    (SELECT rating FROM ratings WHERE ratings.meal_id = meals.meal_id AND ratings.user_id = $1) AS personal_rating
  FROM meals`;

const mostRecentFirst = 'ORDER BY served_at DESC, meal_id DESC LIMIT $2';

/** Every read is one statement: one snapshot, and the same number of queries for one meal or a hundred. */
export class PostgresMealQueries implements MealQueries {
  constructor(private readonly pool: Pool) {}

  async viewsByIds(userId: UserId, ids: readonly MealId[]): Promise<MealView[]> {
    if (ids.length === 0) return [];
    return this.views(`${views} WHERE meal_id = ANY ($2::bigint[])`, [userId, ids]);
  }

  async viewsServedBetween(userId: UserId, from: Date, until: Date): Promise<MealView[]> {
    return this.views(
      `${views} WHERE served_at >= ${fromEpochMs('$2')} AND served_at < ${fromEpochMs('$3')} ORDER BY served_at, meal_id`,
      [userId, from.getTime(), until.getTime()],
    );
  }

  async markedMeals(userId: UserId, page: PageRequest): Promise<MealView[]> {
    return this.page('SELECT meal_id FROM markings WHERE user_id = $1', userId, page);
  }

  async ratedMeals(userId: UserId, page: PageRequest): Promise<MealView[]> {
    return this.page('SELECT meal_id FROM ratings WHERE user_id = $1', userId, page);
  }

  /** The meals whose ids `ownMealIds` selects, most recently served first, strictly after the page's position. */
  private page(ownMealIds: string, userId: UserId, { after, limit }: PageRequest): Promise<MealView[]> {
    const own = `${views} WHERE meal_id IN (${ownMealIds})`;
    return after === null
      ? this.views(`${own} ${mostRecentFirst}`, [userId, limit])
      : this.views(`${own} AND (served_at, meal_id) < (${fromEpochMs('$3')}, $4) ${mostRecentFirst}`, [
          userId,
          limit,
          after.servedAt.getTime(),
          after.mealId,
        ]);
  }

  private async views(sql: string, values: unknown[]): Promise<MealView[]> {
    const { rows } = await this.pool.query<ViewRow>(sql, values);
    return rows.map((row) => ({
      meal: mealFromRow(row),
      histogram: histogramFromRow(row),
      marked: row.marked,
      personalRating: row.personal_rating,
    }));
  }
}
