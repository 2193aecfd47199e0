import type { DetailedMeal, Meal, MealCatalog, MealId } from '@canteen-meals/domain';
import type { Pool } from 'pg';
import type { PostgresStorageHealth } from './storage-health.js';
import { mealBatchParams, mealBatchRows, mealColumnList, mealColumns, mealFromRow, type MealRow } from './meal-rows.js';

/** `SET name = excluded.name, ...` for every column but the id; the histogram is left alone. */
const updateFromExcluded = mealColumnList
  .slice(1)
  .map((column) => `${column} = excluded.${column}`)
  .join(', ');

export class PostgresMealCatalog implements MealCatalog {
  constructor(
    private readonly pool: Pool,
    private readonly health?: PostgresStorageHealth,
  ) {}

  async findById(id: MealId): Promise<DetailedMeal | undefined> {
    const { rows } = await this.pool.query<MealRow>(`SELECT ${mealColumns} FROM meals WHERE meal_id = $1`, [id]);
    return rows[0] === undefined ? undefined : mealFromRow(rows[0]);
  }

  /**
   * One statement, so all or nothing without an explicit transaction. Rows go in meal id order, the order in which
   * every writer of several meals locks them, so that two imports cannot deadlock. An updated meal keeps its ratings.
   */
  async upsertMany(meals: readonly Meal[]): Promise<number> {
    if (meals.length === 0) return 0;
    // The last of two meals with one id wins, as in the other adapters (ON CONFLICT cannot touch a row twice).
    const ordered = [...new Map(meals.map((meal) => [meal.id, meal])).values()].sort((a, b) => a.id - b.id);
    const write = () =>
      this.pool.query(
        `INSERT INTO meals (${mealColumns}) ${mealBatchRows}
         ON CONFLICT (meal_id) DO UPDATE SET ${updateFromExcluded}`,
        mealBatchParams(ordered),
      );
    await (this.health === undefined ? write() : this.health.guard(write));
    return meals.length;
  }

  async count(): Promise<number> {
    const { rows } = await this.pool.query<{ n: string }>('SELECT count(*) AS n FROM meals');
    return Number(rows[0]?.n ?? 0);
  }
}
