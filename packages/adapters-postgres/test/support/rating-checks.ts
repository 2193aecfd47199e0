import { histogramOf, type RatingHistogram, type RatingValue } from '@canteen-meals/domain';
import { setTimeout as sleep } from 'node:timers/promises';
import type pg from 'pg';

type HistogramRow = { id: string } & Record<`rated_${1 | 2 | 3 | 4 | 5}`, number>;

/** Every meal's and dish's stored histogram beside the recount of its ratings rows (a dish: of all its servings). */
export async function histogramsAndRecounts(
  pool: pg.Pool,
): Promise<{ stored: Record<string, RatingHistogram>; recounted: Record<string, RatingHistogram> }> {
  const histograms = (table: 'meals' | 'dishes') =>
    pool.query<HistogramRow>(
      `SELECT ${table === 'meals' ? 'meal_id' : 'dish_id'} AS id, rated_1, rated_2, rated_3, rated_4, rated_5 FROM ${table}`,
    );
  const [meals, dishes, ratings] = await Promise.all([
    histograms('meals'),
    histograms('dishes'),
    pool.query<{ meal_id: string; dish_id: string; rating: RatingValue }>(
      'SELECT meal_id, meals.dish_id, rating FROM ratings JOIN meals USING (meal_id)',
    ),
  ]);
  const stored: Record<string, RatingHistogram> = {};
  const recounted: Record<string, RatingHistogram> = {};
  for (const [prefix, rows, idOf] of [
    ['meal', meals.rows, (row: { meal_id: string }) => row.meal_id],
    ['dish', dishes.rows, (row: { dish_id: string }) => row.dish_id],
  ] as const) {
    for (const row of rows) {
      stored[`${prefix} ${row.id}`] = [row.rated_1, row.rated_2, row.rated_3, row.rated_4, row.rated_5];
      recounted[`${prefix} ${row.id}`] = histogramOf(
        ratings.rows.filter((rating) => idOf(rating) === row.id).map((rating) => rating.rating),
      );
    }
  }
  return { stored, recounted };
}

/**
 * Resolves once `count` sessions of this database wait for a lock: the step at which a test lets the session that
 * holds it go on. A condition polled, not a time waited for; it gives up after 10 s.
 */
export async function lockWaiters(pool: pg.Pool, count: number): Promise<void> {
  for (let attempt = 0; attempt < 1000; attempt++) {
    const { rows } = await pool.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'",
    );
    if (rows[0]!.n >= count) return;
    await sleep(10);
  }
  throw new Error(`no ${count} sessions waited for a lock within 10 s`);
}
