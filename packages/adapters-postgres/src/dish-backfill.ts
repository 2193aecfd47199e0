import type { PoolClient } from 'pg';
import { placeInDishes } from './dish-assignment.js';

/**
 * Puts every meal that has no dish yet (those of a database migrated to 004) into its dish, as a write would: grouped
 * by canteen and name key, each new dish named after the meal with the lowest id, its histogram the sum of its meals'.
 * One transaction on `client`, which the caller holds the migration lock on; only meals whose dish_id IS NULL, so
 * running it again does nothing. Answers how many meals it placed.
 */
export async function backfillDishes(client: PoolClient): Promise<number> {
  await client.query('BEGIN');
  try {
    // Meal rows first, as every writer locks them.
    const { rows } = await client.query<{ meal_id: string; canteen_id: string; name: string }>(
      'SELECT meal_id, canteen_id, name FROM meals WHERE dish_id IS NULL ORDER BY meal_id FOR NO KEY UPDATE',
    );
    if (rows.length > 0) {
      const meals = rows.map((row) => ({ id: Number(row.meal_id), canteenId: row.canteen_id, name: row.name }));
      const { dishOf } = await placeInDishes(client, meals);
      await client.query(
        `UPDATE meals SET dish_id = given.dish_id FROM unnest($1::bigint[], $2::bigint[]) AS given (meal_id, dish_id)
         WHERE meals.meal_id = given.meal_id`,
        [meals.map((meal) => meal.id), meals.map((meal) => dishOf.get(meal.id)!)],
      );
    }
    await client.query('COMMIT');
    return rows.length;
  } catch (error) {
    await client.query('ROLLBACK');
    throw error;
  }
}
