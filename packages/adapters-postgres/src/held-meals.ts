import type { MealId } from '@canteen-meals/domain';
import type { ServingWindow } from '@canteen-meals/domain/ports';
import type { PoolClient } from 'pg';
import { fromEpochMs } from './meal-rows.js';

/**
 * The first key of the canteen-day locks (any constant; the second key is a hash of the canteen and the day's first
 * instant). The two-key form: its key space does not overlap the single-key locks of migrations and imports.
 */
export const menuDayLockClass = 0x64617973; // "days"

/**
 * Takes a transaction-level advisory lock per canteen day, in key order: every other write that adds meals to one of
 * these days waits until this transaction ends, and then counts (in a statement that starts later, READ COMMITTED)
 * what this one wrote. Call it first in the write's transaction, before it reads anything it decides on. Removing
 * meals from a day (a withdrawal, a meal moved away) takes no lock: it can only make a count too high for a moment,
 * never too low.
 */
export async function lockMenuDays(client: PoolClient, days: readonly ServingWindow[]): Promise<void> {
  if (days.length === 0) return;
  // Volatile functions of the select list run after the sort, hence in key order: two writes that share days do not
  // deadlock on them (and were there a deadlock, the transaction runner would run the loser again).
  await client.query(
    `SELECT pg_advisory_xact_lock($3, key)
     FROM (SELECT DISTINCT hashtext(canteen_id || ' ' || from_ms) AS key
           FROM unnest($1::text[], $2::bigint[]) AS day (canteen_id, from_ms)) AS days
     ORDER BY key`,
    [days.map((day) => day.canteenId), days.map((day) => day.from.getTime()), menuDayLockClass],
  );
}

/**
 * How many meals each canteen day holds that are not withdrawn, leaving out the meals a write itself writes (see
 * MenuDaysCheck), in the order of `days`: one statement, a range scan of the index meals_menu_order per day. Count
 * only days locked by lockMenuDays in the same transaction.
 */
export async function heldMeals(
  client: PoolClient,
  days: readonly ServingWindow[],
  except: readonly MealId[],
): Promise<number[]> {
  if (days.length === 0) return [];
  const { rows } = await client.query<{ held: number }>(
    `SELECT (SELECT count(*) FROM meals
        WHERE meals.canteen_id = day.canteen_id
          AND meals.served_at >= ${fromEpochMs('day.from_ms')} AND meals.served_at < ${fromEpochMs('day.until_ms')}
          AND meals.withdrawn_at IS NULL AND meals.meal_id <> ALL ($4::bigint[]))::integer AS held
     FROM unnest($1::text[], $2::bigint[], $3::bigint[]) WITH ORDINALITY AS day (canteen_id, from_ms, until_ms, n)
     ORDER BY day.n`,
    [
      days.map((day) => day.canteenId),
      days.map((day) => day.from.getTime()),
      days.map((day) => day.until.getTime()),
      except,
    ],
  );
  return rows.map((row) => row.held);
}
