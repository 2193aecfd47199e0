import type { DetailedMeal, Meal, MealCatalog, MealId } from '@canteen-meals/domain';
import type { Database, Statement } from 'better-sqlite3';
import { mealColumns, mealFromRow, mealParams, mealPlaceholders, mealUpdateFromExcluded, type MealParams, type MealRow } from './sqlite-meal-row.js';

import type { SqliteStorageHealth } from './storage-health.js';

export { mealColumns, mealFromRow, type MealRow } from './sqlite-meal-row.js';

export class SqliteMealCatalog implements MealCatalog {
  private readonly selectById: Statement<[MealId], MealRow>;
  private readonly upsert: Statement<MealParams>;
  private readonly countAll: Statement<[], { n: number }>;
  private readonly upsertAll: (meals: readonly Meal[]) => void;

  constructor(
    db: Database,
    private readonly health?: SqliteStorageHealth,
  ) {
    this.selectById = db.prepare(`SELECT ${mealColumns} FROM meals WHERE meal_id = ?`);
    // The histogram columns are left alone: an updated meal keeps its ratings.
    this.upsert = db.prepare(`INSERT INTO meals (${mealColumns}) VALUES (${mealPlaceholders})
      ON CONFLICT (meal_id) DO UPDATE SET ${mealUpdateFromExcluded}`);
    this.countAll = db.prepare('SELECT count(*) AS n FROM meals');
    this.upsertAll = db.transaction((meals: readonly Meal[]) => {
      for (const meal of meals) this.upsert.run(...mealParams(meal));
    });
  }

  async findById(id: MealId): Promise<DetailedMeal | undefined> {
    const row = this.selectById.get(id);
    return row === undefined ? undefined : mealFromRow(row);
  }

  async upsertMany(meals: readonly Meal[]): Promise<number> {
    if (this.health === undefined) this.upsertAll(meals);
    else this.health.guard(() => this.upsertAll(meals));
    return meals.length;
  }

  async count(): Promise<number> {
    return this.countAll.get()?.n ?? 0;
  }
}
