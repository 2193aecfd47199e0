import {
  changesAnything,
  emptyHistogram,
  type MealId,
  type RatingChange,
  type RatingDecision,
  type RatingRefusal,
  type RatingRepository,
  type RatingValue,
  type Result,
  type UserId,
} from '@canteen-meals/domain';
import type { Pool } from 'pg';
import { histogramColumns, histogramFromRow, mealColumns, mealFromRow, type HistogramRow, type MealRow } from './meal-rows.js';
import type { TransactionRunner } from './transaction.js';

// Named statements are parsed once per pooled connection and reused by every later change.
const lockMeal = {
  name: 'meals-rating-lock-meal',
  // NO KEY UPDATE is the row lock an UPDATE of the histogram takes anyway: it queues every change of this meal behind
  // the one in progress, yet lets markings and ratings of the meal (foreign-key checks: KEY SHARE) go on. A withdrawn
  // meal is no meal to rate.
  text: `SELECT ${mealColumns}, ${histogramColumns}, dish_id FROM meals WHERE meal_id = $1 AND withdrawn_at IS NULL
    FOR NO KEY UPDATE`,
};
/**
 * Second, the dish row ($3, the locked meal's dish) and the user's rating. Both are current: the statement starts after
 * the meal row is ours, so the rating (changed only by whoever holds that row) is the latest committed one, and the
 * locked dish row is read in its latest version. Not one join with the meal's lock: should that statement wait for a
 * writer that moves the meal to another dish, READ COMMITTED would recheck the join with the old dish row, drop the
 * meal, and keep that old dish locked.
 */
const lockDishAndReadRating = {
  name: 'meals-rating-lock-dish',
  text: `SELECT ${histogramColumns}, (SELECT rating FROM ratings WHERE meal_id = $1 AND user_id = $2) AS rating
    FROM dishes WHERE dish_id = $3 FOR NO KEY UPDATE`,
};
const upsertRating = {
  name: 'meals-rating-upsert',
  text: `INSERT INTO ratings (meal_id, user_id, rating) VALUES ($1, $2, $3)
         ON CONFLICT (meal_id, user_id) DO UPDATE SET rating = excluded.rating`,
};
const deleteRating = { name: 'meals-rating-delete', text: 'DELETE FROM ratings WHERE meal_id = $1 AND user_id = $2' };
const updateHistograms = {
  name: 'meals-rating-update-histograms',
  text: `WITH meal AS (
      UPDATE meals SET rated_1 = $1, rated_2 = $2, rated_3 = $3, rated_4 = $4, rated_5 = $5 WHERE meal_id = $6)
    UPDATE dishes SET rated_1 = $7, rated_2 = $8, rated_3 = $9, rated_4 = $10, rated_5 = $11 WHERE dish_id = $12`,
};
const updateMealHistogram = {
  name: 'meals-rating-update-histogram',
  text: 'UPDATE meals SET rated_1 = $1, rated_2 = $2, rated_3 = $3, rated_4 = $4, rated_5 = $5 WHERE meal_id = $6',
};

export class PostgresRatingRepository implements RatingRepository {
  constructor(
    private readonly pool: Pool,
    private readonly transactions: TransactionRunner,
  ) {}

  /**
   * One short READ COMMITTED transaction. Lock order, the same in every writer: the meal row first, then its dish's
   * row, then the user's rating row. Holding the meal row, nobody else can change this meal's ratings, histogram or
   * dish; holding the dish row, no change of another serving can change the dish's histogram. So the histograms
   * written last cannot lose an update. Five statements and COMMIT for a change, two and COMMIT for a missing meal.
   */
  async change(userId: UserId, mealId: MealId, decide: RatingDecision): Promise<Result<RatingChange, RatingRefusal>> {
    return this.transactions.run(async (client) => {
      const meal = (await client.query<MealRow & HistogramRow & { dish_id: string }>({ ...lockMeal, values: [mealId] })).rows[0];
      const dish =
        meal === undefined
          ? undefined
          : (await client.query<HistogramRow & { rating: RatingValue | null }>({ ...lockDishAndReadRating, values: [mealId, userId, meal.dish_id] }))
              .rows[0];
      if (meal !== undefined && dish === undefined) throw new Error(`meal ${mealId} names the dish ${meal.dish_id}, which does not exist`);
      const decision = decide({
        meal: meal === undefined ? undefined : mealFromRow(meal),
        current: dish?.rating ?? null,
        histogram: meal === undefined ? emptyHistogram : histogramFromRow(meal),
        dish: meal === undefined || dish === undefined ? undefined : { id: Number(meal.dish_id), histogram: histogramFromRow(dish) },
      });
      if (!decision.ok || !changesAnything(decision.value)) return decision;
      const change = decision.value;
      if (change.next === null) await client.query({ ...deleteRating, values: [mealId, userId] });
      else await client.query({ ...upsertRating, values: [mealId, userId, change.next] });
      if (change.dish === null) await client.query({ ...updateMealHistogram, values: [...change.histogram, mealId] });
      else await client.query({ ...updateHistograms, values: [...change.histogram, mealId, ...change.dish.histogram, change.dish.id] });
      return decision;
    });
  }
}
