import type { Meal, MealCatalog, MealId } from '@meals/domain';
import type { Pool } from 'pg';
import { fromEpochMs, mealColumns, mealFromRow, type MealRow } from './meal-rows.js';

export class PostgresMealCatalog implements MealCatalog {
  constructor(private readonly pool: Pool) {}

  async findById(id: MealId): Promise<Meal | undefined> {
    const { rows } = await this.pool.query<MealRow>(`SELECT ${mealColumns} FROM meals WHERE meal_id = $1`, [id]);
    return rows[0] === undefined ? undefined : mealFromRow(rows[0]);
  }

  /**
   * One statement, so all or nothing without an explicit transaction. Rows go in meal id order, the order in which
   * every writer locks meals, so that two imports cannot deadlock. The histogram columns are left alone: an updated
   * meal keeps its ratings.
   */
  async upsertMany(meals: readonly Meal[]): Promise<number> {
    if (meals.length === 0) return 0;
    // The last of two meals with one id wins, as in the other adapters (ON CONFLICT cannot touch a row twice).
    const byId = new Map(meals.map((meal) => [meal.id, meal]));
    const ordered = [...byId.values()].sort((a, b) => a.id - b.id);
    await this.pool.query(
      `INSERT INTO meals (meal_id, name, served_at, rateable)
       SELECT meal_id, name, ${fromEpochMs('served_ms')}, rateable
       FROM unnest($1::bigint[], $2::text[], $3::bigint[], $4::boolean[]) AS batch (meal_id, name, served_ms, rateable)
       ON CONFLICT (meal_id) DO UPDATE
         SET name = excluded.name, served_at = excluded.served_at, rateable = excluded.rateable`,
      [
        ordered.map((meal) => meal.id),
        ordered.map((meal) => meal.name),
        ordered.map((meal) => meal.servedAt.getTime()),
        ordered.map((meal) => meal.rateable),
      ],
    );
    return meals.length;
  }

  async count(): Promise<number> {
    const { rows } = await this.pool.query<{ n: string }>('SELECT count(*) AS n FROM meals');
    return Number(rows[0]?.n ?? 0);
  }
}
