import type { Meal, MealCatalog, MealId } from '@meals/domain';
import type { Database, Statement } from 'better-sqlite3';

export interface MealRow {
  meal_id: number;
  name: string;
  served_at: number;
  rateable: 0 | 1;
}

export const mealColumns = 'meal_id, name, served_at, rateable';

export function mealFromRow(row: MealRow): Meal {
  return { id: row.meal_id, name: row.name, servedAt: new Date(row.served_at), rateable: row.rateable === 1 };
}

export class SqliteMealCatalog implements MealCatalog {
  private readonly selectById: Statement<[MealId], MealRow>;
  private readonly upsert: Statement<[number, string, number, number]>;
  private readonly countAll: Statement<[], { n: number }>;
  private readonly upsertAll: (meals: readonly Meal[]) => void;

  constructor(db: Database) {
    this.selectById = db.prepare(`SELECT ${mealColumns} FROM meals WHERE meal_id = ?`);
    // The histogram columns are left alone: an updated meal keeps its ratings.
    this.upsert = db.prepare(`INSERT INTO meals (meal_id, name, served_at, rateable) VALUES (?, ?, ?, ?)
      ON CONFLICT (meal_id) DO UPDATE SET name = excluded.name, served_at = excluded.served_at,
        rateable = excluded.rateable`);
    this.countAll = db.prepare('SELECT count(*) AS n FROM meals');
    this.upsertAll = db.transaction((meals: readonly Meal[]) => {
      for (const meal of meals) this.upsert.run(meal.id, meal.name, meal.servedAt.getTime(), meal.rateable ? 1 : 0);
    });
  }

  async findById(id: MealId): Promise<Meal | undefined> {
    const row = this.selectById.get(id);
    return row === undefined ? undefined : mealFromRow(row);
  }

  async upsertMany(meals: readonly Meal[]): Promise<number> {
    this.upsertAll(meals);
    return meals.length;
  }

  async count(): Promise<number> {
    return this.countAll.get()?.n ?? 0;
  }
}
