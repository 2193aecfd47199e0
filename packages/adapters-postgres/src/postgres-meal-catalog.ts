import { accept, type Meal, type MealCatalog, type MealId, type MenuDaysCheck, type Result, type Withdrawal } from '@canteen-meals/domain';
import type { Pool } from 'pg';
import { placeInDishes } from './dish-assignment.js';
import { heldMeals, lockMenuDays } from './held-meals.js';
import { fromEpochMs, mealBatchParams, mealBatchRows, mealColumnList, mealWriteColumns } from './meal-rows.js';
import type { PostgresStorageHealth } from './storage-health.js';
import { ConcurrentChangeError, type TransactionRunner } from './transaction.js';

/** `SET name = excluded.name, ...` for every column but the id, the dish included; the histogram is left alone. */
const updateFromExcluded = [...mealColumnList.slice(1), 'dish_id'].map((column) => `${column} = excluded.${column}`).join(', ');

export class PostgresMealCatalog implements MealCatalog {
  constructor(
    private readonly pool: Pool,
    private readonly transactions: TransactionRunner,
    private readonly health?: PostgresStorageHealth,
  ) {}

  /**
   * One transaction: the days of `check` locked and counted and `check.decide` asked (see lockMenuDays); then the
   * meals' dishes are found (and created), the existing meals and then their dishes locked, the histograms of meals
   * that change dish moved, and then every meal written in one statement, served again (a withdrawn meal written again
   * is no longer withdrawn). An updated meal keeps its ratings.
   */
  async upsertMany(meals: readonly Meal[], check?: MenuDaysCheck): Promise<Result<number, 'menu_day_full'>> {
    if (meals.length === 0) return accept(0);
    // The last of two meals with one id wins, as in the other adapters (ON CONFLICT cannot touch a row twice).
    const ordered = [...new Map(meals.map((meal) => [meal.id, meal])).values()].sort((a, b) => a.id - b.id);
    return this.transactions.run(async (client) => {
      if (check !== undefined) {
        await lockMenuDays(client, check.days);
        const decision = check.decide(await heldMeals(client, check.days, ordered.map((meal) => meal.id)));
        if (!decision.ok) return decision;
      }
      const { dishOf, existing } = await placeInDishes(client, ordered);
      const { rows } = await client.query<{ meal_id: string; inserted: boolean }>(
        `INSERT INTO meals (${mealWriteColumns}) ${mealBatchRows}
         ON CONFLICT (meal_id) DO UPDATE SET ${updateFromExcluded}, withdrawn_at = NULL
         RETURNING meal_id, (xmax = 0) AS inserted`,
        mealBatchParams(ordered, dishOf),
      );
      // A meal another writer inserted after the lock found none: its dish and histogram were not accounted for.
      const raced = rows.find((row) => !row.inserted && !existing.has(Number(row.meal_id)));
      if (raced !== undefined) throw new ConcurrentChangeError(`meal ${raced.meal_id} was inserted by another transaction meanwhile`);
      return accept(meals.length);
    });
  }

  /** One statement: the first withdrawal's instant stays (coalesce), and the answer says whether there was a meal. */
  async withdraw(mealId: MealId, at: Date): Promise<Withdrawal> {
    const write = () =>
      this.pool.query<{ withdrawn_at: Date }>(
        `UPDATE meals SET withdrawn_at = coalesce(withdrawn_at, ${fromEpochMs('$2')}) WHERE meal_id = $1 RETURNING withdrawn_at`,
        [mealId, at.getTime()],
      );
    const { rows } = await (this.health === undefined ? write() : this.health.guard(write));
    const row = rows[0];
    return row === undefined ? { found: false } : { found: true, withdrawnAt: row.withdrawn_at };
  }

  async count(): Promise<number> {
    const { rows } = await this.pool.query<{ n: string }>('SELECT count(*) AS n FROM meals');
    return Number(rows[0]?.n ?? 0);
  }
}
