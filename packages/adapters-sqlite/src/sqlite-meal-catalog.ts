import { accept, type Meal, type MealCatalog, type MealId, type MenuDaysCheck, type Result, type Withdrawal } from '@canteen-meals/domain';
import type { Database, Statement, Transaction } from 'better-sqlite3';
import { SqliteDishAssignment } from './sqlite-dish-assignment.js';
import { SqliteHeldMeals } from './sqlite-held-meals.js';
import { mealColumns, mealParams, mealPlaceholders, mealUpdateFromExcluded, type MealParams } from './sqlite-meal-row.js';

import type { SqliteStorageHealth } from './storage-health.js';

export { mealColumns, mealFromRow, type MealRow } from './sqlite-meal-row.js';

export class SqliteMealCatalog implements MealCatalog {
  private readonly upsert: Statement<[...MealParams, number]>;
  private readonly countAll: Statement<[], { n: number }>;
  private readonly withdrawOnce: Statement<[number, MealId], number>;
  private readonly upsertAll: Transaction<(meals: readonly Meal[], check?: MenuDaysCheck) => Result<number, 'menu_day_full'>>;

  constructor(
    db: Database,
    private readonly health?: SqliteStorageHealth,
  ) {
    const dishes = new SqliteDishAssignment(db);
    const held = new SqliteHeldMeals(db);
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
    this.upsertAll = db.transaction((meals: readonly Meal[], check?: MenuDaysCheck) => {
      if (check !== undefined) {
        const decision = check.decide(held.count(check.days, meals.map((meal) => meal.id)));
        if (!decision.ok) return decision;
      }
      for (const meal of meals) this.upsert.run(...mealParams(meal), dishes.assign(meal));
      return accept(meals.length);
    });
  }

  async upsertMany(meals: readonly Meal[], check?: MenuDaysCheck): Promise<Result<number, 'menu_day_full'>> {
    // One transaction for the batch: the dish assignments and histogram moves land with the meals, or nothing does.
    // IMMEDIATE, as it reads the dishes and counts the days before it writes: no other connection can create the same
    // dish or add meals to those days in between.
    const upsert = () => this.upsertAll.immediate(meals, check);
    return this.health === undefined ? upsert() : this.health.guard(upsert);
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
