import type { Meal, RatingHistogram } from '@meals/domain';

/** bigint columns arrive as strings (pg's default, to lose no digits); meal ids are at most 2^53 - 1 by a CHECK. */
export interface MealRow {
  meal_id: string;
  name: string;
  served_at: Date;
  rateable: boolean;
}

export interface HistogramRow {
  rated_1: number;
  rated_2: number;
  rated_3: number;
  rated_4: number;
  rated_5: number;
}

export const mealColumns = 'meal_id, name, served_at, rateable';
export const histogramColumns = 'rated_1, rated_2, rated_3, rated_4, rated_5';

/**
 * SQL for the instant `parameter` holds as epoch milliseconds: exact, and unlike ISO text it also takes the year 0000
 * (1 BC to PostgreSQL), which RFC 3339 allows.
 */
export function fromEpochMs(parameter: string): string {
  return `(timestamptz 'epoch' + ${parameter}::bigint * interval '1 millisecond')`;
}

export function mealFromRow(row: MealRow): Meal {
  return { id: Number(row.meal_id), name: row.name, servedAt: row.served_at, rateable: row.rateable };
}

export function histogramFromRow(row: HistogramRow): RatingHistogram {
  return [row.rated_1, row.rated_2, row.rated_3, row.rated_4, row.rated_5];
}
