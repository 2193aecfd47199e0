import {
  changesAnything,
  emptyHistogram,
  type MealId,
  type RatingChange,
  type RatingDecision,
  type RatingHistogram,
  type RatingRepository,
  type RatingValue,
  type UserId,
} from '@canteen-meals/domain';
import type { Pool, PoolClient } from 'pg';
import { histogramColumns, histogramFromRow, mealColumns, mealFromRow, type HistogramRow, type MealRow } from './meal-rows.js';
import type { TransactionRunner } from './transaction.js';

// Named statements are parsed once per pooled connection and reused by every later change.
const lockMeal = {
  name: 'meals-rating-lock-meal',
  // NO KEY UPDATE is the row lock an UPDATE of the histogram takes anyway: it queues every change of this meal
  // behind the one in progress, yet lets markings and ratings of the meal (foreign-key checks: KEY SHARE) go on.
  text: `SELECT ${mealColumns}, ${histogramColumns} FROM meals WHERE meal_id = $1 FOR NO KEY UPDATE`,
};
const selectRating = { name: 'meals-rating-select', text: 'SELECT rating FROM ratings WHERE meal_id = $1 AND user_id = $2' };
const upsertRating = {
  name: 'meals-rating-upsert',
  text: `INSERT INTO ratings (meal_id, user_id, rating) VALUES ($1, $2, $3)
         ON CONFLICT (meal_id, user_id) DO UPDATE SET rating = excluded.rating`,
};
const deleteRating = { name: 'meals-rating-delete', text: 'DELETE FROM ratings WHERE meal_id = $1 AND user_id = $2' };
const updateHistogram = {
  name: 'meals-rating-update-histogram',
  text: 'UPDATE meals SET rated_1 = $1, rated_2 = $2, rated_3 = $3, rated_4 = $4, rated_5 = $5 WHERE meal_id = $6',
};

export class PostgresRatingRepository implements RatingRepository {
  constructor(
    private readonly pool: Pool,
    private readonly transactions: TransactionRunner,
  ) {}

  /**
   * One short READ COMMITTED transaction. Lock order, the same in every writer: the meal row first, then the user's
   * rating row. Holding the meal row, nobody else can change this meal's ratings or histogram, so the rating read
   * next is the latest committed one and the histogram written last cannot lose an update.
   */
  async change(userId: UserId, mealId: MealId, decide: RatingDecision): Promise<RatingChange> {
    return this.transactions.run(async (client) => {
      const { rows } = await client.query<MealRow & HistogramRow>({ ...lockMeal, values: [mealId] });
      const row = rows[0];
      const change = decide({
        meal: row === undefined ? undefined : mealFromRow(row),
        current: row === undefined ? null : await readRating(client, userId, mealId),
        histogram: row === undefined ? emptyHistogram : histogramFromRow(row),
      });
      if (!changesAnything(change)) return change;
      if (change.next === null) await client.query({ ...deleteRating, values: [mealId, userId] });
      else await client.query({ ...upsertRating, values: [mealId, userId, change.next] });
      await client.query({ ...updateHistogram, values: [...change.histogram, mealId] });
      return change;
    });
  }

  async findRating(userId: UserId, mealId: MealId): Promise<RatingValue | null> {
    return readRating(this.pool, userId, mealId);
  }

  async histogram(mealId: MealId): Promise<RatingHistogram> {
    const { rows } = await this.pool.query<HistogramRow>(`SELECT ${histogramColumns} FROM meals WHERE meal_id = $1`, [
      mealId,
    ]);
    return rows[0] === undefined ? emptyHistogram : histogramFromRow(rows[0]);
  }
}

async function readRating(db: Pool | PoolClient, userId: UserId, mealId: MealId): Promise<RatingValue | null> {
  const { rows } = await db.query<{ rating: RatingValue }>({ ...selectRating, values: [mealId, userId] });
  return rows[0]?.rating ?? null;
}
