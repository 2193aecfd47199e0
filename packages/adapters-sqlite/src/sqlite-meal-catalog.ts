import type { Meal, MealCatalog, MealId, Withdrawal } from '@canteen-meals/domain';
import type { Database, Statement, Transaction } from 'better-sqlite3';
import { SqliteDishAssignment } from './sqlite-dish-assignment.js';
import { mealColumns, mealParams, mealPlaceholders, mealUpdateFromExcluded, type MealParams } from './sqlite-meal-row.js';

import type { SqliteStorageHealth } from './storage-health.js';

export { mealColumns, mealFromRow, type MealRow } from './sqlite-meal-row.js';

export class SqliteMealCatalog implements MealCatalog {
  private readonly upsert: Statement<[...MealParams, number]>;
  private readonly countAll: Statement<[], { n: number }>;
  private readonly withdrawOnce: Statement<[number, MealId], number>;
  private readonly upsertAll: Transaction<(meals: readonly Meal[]) => void>;

  constructor(
    db: Database,
    private readonly health?: SqliteStorageHealth,
  ) {
    const dishes = new SqliteDishAssignment(db);
    // The histogram columns are left alone: an updated meal keeps its ratings. A written meal is served again.
    this.upsert = db.prepare(`INSERT INTO meals (${mealColumns}, dish_id) VALUES (${mealPlaceholders}, ?)
      ON CONFLICT (meal_id) DO UPDATE SET ${mealUpdateFromExcluded}, dish_id = excluded.dish_id, withdrawn_at = NULL`);
    this.countAll = db.prepare('SELECT count(*) AS n FROM meals');
    // coalesce keeps the first instant: withdrawing again changes nothing.
    this.withdrawOnce = db
      .prepare<[number, MealId], number>(
        'UPDATE meals SET withdrawn_at = coalesce(withdrawn_at, ?) WHERE meal_id = ? RETURNING withdrawn_at',
      )
      .pluck();
    this.upsertAll = db.transaction((meals: readonly Meal[]) => {
      for (const meal of meals) this.upsert.run(...mealParams(meal), dishes.assign(meal));
    });
  }

  async upsertMany(meals: readonly Meal[]): Promise<number> {
    // One transaction for the batch: the dish assignments and histogram moves land with the meals, or nothing does.
    // IMMEDIATE, as it reads the dishes before it writes: no other connection can create the same dish in between.
    const upsert = () => this.upsertAll.immediate(meals);
    if (this.health === undefined) upsert();
    else this.health.guard(upsert);
    return meals.length;
  }

  async count(): Promise<number> {
    return this.countAll.get()?.n ?? 0;
  }

  async withdraw(mealId: MealId, at: Date): Promise<Withdrawal> {
    const withdraw = () => this.withdrawOnce.get(at.getTime(), mealId);
    const withdrawnAt = this.health === undefined ? withdraw() : this.health.guard(withdraw);
    return withdrawnAt === undefined ? { found: false } : { found: true, withdrawnAt: new Date(withdrawnAt) };
  }
}
