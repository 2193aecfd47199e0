import {
  importEvents,
  type DishId,
  type Meal,
  type MealId,
  type MealSourceKey,
  type MenuImportDecision,
  type MenuImportPlan,
  type MenuImportRefusal,
  type Result,
} from '@canteen-meals/domain';
import type { MealSourceRepository, MenuImportScope } from '@canteen-meals/domain/ports';
import { placeInDishes } from './dish-assignment.js';
import { heldMeals, lockMenuDays } from './held-meals.js';
import { canteenTimeZones, recordEvents } from './outbox-records.js';
import {
  fromEpochMs,
  mealBatchParams,
  mealBatchRows,
  mealColumnList,
  mealFromRow,
  mealWriteColumns,
  type MealRow,
} from './meal-rows.js';
import type { TableStatistics } from './table-statistics.js';
import type { TransactionRunner } from './transaction.js';

/**
 * Imports wait for each other on this transaction-level advisory lock: the next free meal id read by one import must
 * not be handed out by another at the same time. Rating changes never take it, so they never wait for an import
 * longer than for the meal rows it updates.
 */
export const menuImportLockKey = 0x6d656e75n; // "menu"

const knownMeals = `SELECT s.source_key, ${mealColumnList.map((column) => `m.${column}`).join(', ')},
    m.withdrawn_at IS NOT NULL AS withdrawn
  FROM meal_sources s JOIN meals m ON m.meal_id = s.meal_id
  WHERE s.source = $1 AND s.served_on = ANY ($2::text[])`;

const updateFromBatch = [...mealColumnList.slice(1), 'dish_id']
  .map((column) => `${column} = batch.${column}`)
  .join(', ');

export class PostgresMealSourceRepository implements MealSourceRepository {
  constructor(
    private readonly transactions: TransactionRunner,
    private readonly statistics?: TableStatistics,
  ) {}

  async importMenu(
    scope: MenuImportScope,
    decide: MenuImportDecision,
  ): Promise<Result<MenuImportPlan, MenuImportRefusal>> {
    const result = await this.transactions.run(async (client) => {
      await client.query('SELECT pg_advisory_xact_lock($1)', [menuImportLockKey.toString()]);
      // Before anything is read: the import decides on its known meals too, which another writer may be changing.
      await lockMenuDays(client, scope.servedIn);
      const known = new Map<MealSourceKey, Meal>();
      const withdrawn = new Set<MealId>();
      const { rows } = await client.query<MealRow & { source_key: MealSourceKey; withdrawn: boolean }>(knownMeals, [
        scope.source,
        scope.days,
      ]);
      for (const row of rows) {
        const meal = mealFromRow(row);
        known.set(row.source_key, meal);
        if (row.withdrawn) withdrawn.add(meal.id);
      }
      const next = await client.query<{ next: string }>('SELECT coalesce(max(meal_id), 0) + 1 AS next FROM meals');
      const held = await heldMeals(
        client,
        scope.servedIn,
        [...known.values()].map((meal) => meal.id),
      );
      const decision = decide({ known, nextMealId: Number(next.rows[0]?.next ?? 1), withdrawn, held });
      if (!decision.ok) return decision;
      const plan = decision.value;

      const added = plan.added.map(({ meal }) => meal);
      // In meal id order, like every writer of several meals: no deadlock with an admin upsert.
      const updated = [...plan.updated].sort((a, b) => a.id - b.id);
      const withdrawing = plan.withdrawn.map((meal) => meal.id);
      if (added.length + updated.length + withdrawing.length === 0) return decision;
      const { dishOf } = await placeInDishes(client, [...added, ...updated], { alsoLock: withdrawing });
      if (added.length > 0) {
        // Plain INSERTs: a new meal or key can never replace one that exists (a unique violation aborts the import).
        await client.query(`INSERT INTO meals (${mealWriteColumns}) ${mealBatchRows}`, mealBatchParams(added, dishOf));
        await client.query(
          `INSERT INTO meal_sources (source_key, meal_id, source, served_on)
           SELECT key, meal_id, $3, served_on FROM unnest($1::text[], $2::bigint[], $4::text[]) AS added (key, meal_id, served_on)`,
          [
            plan.added.map(({ key }) => key),
            added.map((meal) => meal.id),
            scope.source,
            plan.added.map(({ servedOn }) => servedOn),
          ],
        );
      }
      if (updated.length > 0) {
        // An updated meal is served again, should it have been withdrawn.
        const { rowCount } = await client.query(
          `UPDATE meals SET ${updateFromBatch}, withdrawn_at = NULL FROM (${mealBatchRows}) AS batch WHERE meals.meal_id = batch.meal_id`,
          mealBatchParams(updated, dishOf),
        );
        if (rowCount !== updated.length)
          throw new Error(`an import updates ${updated.length} meals, but ${rowCount} exist`);
      }
      const withdrawnDishes = new Map<MealId, DishId | null>();
      if (withdrawing.length > 0) {
        const withdrawn = await client.query<{ meal_id: string; dish_id: string | null }>(
          `UPDATE meals SET withdrawn_at = ${fromEpochMs('$2')} WHERE meal_id = ANY ($1::bigint[]) AND withdrawn_at IS NULL
           RETURNING meal_id, dish_id`,
          [withdrawing, plan.at.getTime()],
        );
        for (const row of withdrawn.rows)
          withdrawnDishes.set(Number(row.meal_id), row.dish_id === null ? null : Number(row.dish_id));
      }
      const timeZones = await canteenTimeZones(
        client,
        [...added, ...updated, ...plan.withdrawn].map((meal) => meal.canteenId),
      );
      await recordEvents(client, importEvents(plan, scope.cause ?? 'import', timeZones, withdrawnDishes), plan.at);
      return decision;
    });
    if (result.ok) await this.statistics?.afterAdding(result.value.added.length);
    return result;
  }
}
