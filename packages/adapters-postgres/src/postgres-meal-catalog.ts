import {
  accept,
  defaultCanteenId,
  upsertEvents,
  withdrawalEvent,
  type AuditNote,
  type CanteenId,
  type DishId,
  type Meal,
  type MealId,
  type MenuDaysCheck,
  type MenuUpsertOutcome,
  type Result,
  type WithdrawalOutcome,
} from '@canteen-meals/domain';
import type { MealCatalog, Withdrawal } from '@canteen-meals/domain/ports';
import type { Pool } from 'pg';
import { appendAuditRecords } from './postgres-audit-log.js';
import { placeInDishes } from './dish-assignment.js';
import { heldMeals, lockMenuDays } from './held-meals.js';
import { canteenTimeZones, recordEvents } from './outbox-records.js';
import { fromEpochMs, mealBatchParams, mealBatchRows, mealColumnList, mealWriteColumns } from './meal-rows.js';
import type { PostgresStorageHealth } from './storage-health.js';
import type { TableStatistics } from './table-statistics.js';
import { ConcurrentChangeError, type TransactionRunner } from './transaction.js';

/** `SET name = excluded.name, ...` for every column but the id, the dish included; the histogram is left alone. */
const updateFromExcluded = [...mealColumnList.slice(1), 'dish_id']
  .map((column) => `${column} = excluded.${column}`)
  .join(', ');

export class PostgresMealCatalog implements MealCatalog {
  constructor(
    private readonly pool: Pool,
    private readonly transactions: TransactionRunner,
    _health: PostgresStorageHealth | undefined,
    private readonly statistics?: TableStatistics,
  ) {}

  /**
   * One transaction: the days of `check` locked and counted and `check.decide` asked (see lockMenuDays); then the
   * meals' dishes are found (and created), the existing meals and then their dishes locked, the histograms of meals
   * that change dish moved, and then every meal written in one statement, served again (a withdrawn meal written again
   * is no longer withdrawn). An updated meal keeps its ratings. Then its events go to the outbox in one statement.
   */
  async upsertMany(
    meals: readonly Meal[],
    check?: MenuDaysCheck,
    at: Date = new Date(),
    audit?: AuditNote<MenuUpsertOutcome>,
  ): Promise<Result<number, 'menu_day_full'>> {
    if (meals.length === 0) return accept(0);
    // The last of two meals with one id wins, as in the other adapters (ON CONFLICT cannot touch a row twice).
    const ordered = [...new Map(meals.map((meal) => [meal.id, meal])).values()].sort((a, b) => a.id - b.id);
    let inserted = 0;
    const result = await this.transactions.run(async (client) => {
      if (check !== undefined) {
        await lockMenuDays(client, check.days);
        const decision = check.decide(
          await heldMeals(
            client,
            check.days,
            ordered.map((meal) => meal.id),
          ),
        );
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
      if (raced !== undefined)
        throw new ConcurrentChangeError(`meal ${raced.meal_id} was inserted by another transaction meanwhile`);
      inserted = rows.filter((row) => row.inserted).length;
      const timeZones = await canteenTimeZones(
        client,
        ordered.map((meal) => meal.canteenId ?? defaultCanteenId),
      );
      // In the batch's order, as the other adapters place the days.
      const batch = [...new Map(meals.map((meal) => [meal.id, meal])).values()];
      await recordEvents(client, upsertEvents(batch, existing, timeZones), at);
      if (audit !== undefined) {
        const placed = batch.map((meal) => ({ id: meal.id, canteenId: meal.canteenId ?? defaultCanteenId }));
        await appendAuditRecords(client, audit({ meals: placed, existed: existing }));
      }
      return accept(meals.length);
    });
    if (result.ok) await this.statistics?.afterAdding(inserted);
    return result;
  }

  /**
   * One transaction: the meal is withdrawn only when it is not yet (of two withdrawals at once, the second waits for
   * the first's row lock and then finds it withdrawn), and only then is its event recorded; otherwise the answer is the
   * first withdrawal's instant, or that there is no meal.
   */
  async withdraw(mealId: MealId, at: Date, audit?: AuditNote<WithdrawalOutcome>): Promise<Withdrawal> {
    return this.transactions.run(async (client) => {
      const { rows } = await client.query<{
        served_at: Date;
        canteen_id: string;
        dish_id: string | null;
        time_zone: string;
      }>(
        `UPDATE meals SET withdrawn_at = ${fromEpochMs('$2')} WHERE meal_id = $1 AND withdrawn_at IS NULL
         RETURNING served_at, canteen_id, dish_id, (SELECT time_zone FROM canteens WHERE canteens.canteen_id = meals.canteen_id)`,
        [mealId, at.getTime()],
      );
      const first = rows[0];
      if (first === undefined) {
        const before = await client.query<{ withdrawn_at: Date | null }>(
          'SELECT withdrawn_at FROM meals WHERE meal_id = $1',
          [mealId],
        );
        const withdrawnAt = before.rows[0]?.withdrawn_at ?? null;
        return withdrawnAt === null ? { found: false } : { found: true, withdrawnAt };
      }
      const meal = { id: mealId, servedAt: first.served_at, canteenId: first.canteen_id };
      const dishId: DishId | null = first.dish_id === null ? null : Number(first.dish_id);
      await recordEvents(
        client,
        [withdrawalEvent(meal, dishId, new Map([[first.canteen_id, first.time_zone]]), at)],
        at,
      );
      if (audit !== undefined)
        await appendAuditRecords(client, audit({ mealId, canteenId: first.canteen_id, withdrawnAt: at }));
      return { found: true, withdrawnAt: new Date(at.getTime()) };
    });
  }

  async count(): Promise<number> {
    const { rows } = await this.pool.query<{ n: string }>('SELECT count(*) AS n FROM meals');
    return Number(rows[0]?.n ?? 0);
  }

  async canteensOf(mealIds: readonly MealId[]): Promise<ReadonlyMap<MealId, CanteenId>> {
    if (mealIds.length === 0) return new Map();
    const { rows } = await this.pool.query<{ meal_id: string; canteen_id: CanteenId }>(
      'SELECT meal_id, canteen_id FROM meals WHERE meal_id = ANY ($1::bigint[])',
      [[...new Set(mealIds)]],
    );
    return new Map(rows.map((row) => [Number(row.meal_id), row.canteen_id]));
  }
}
