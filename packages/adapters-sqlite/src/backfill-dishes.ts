import type { Database } from 'better-sqlite3';
import type { MealRow } from './sqlite-meal-row.js';
import { SqliteDishAssignment } from './sqlite-dish-assignment.js';

/**
 * Puts every meal that has no dish yet (the meals of a file that migration 005 upgraded) into its dish, in meal id
 * order, so that a dish created here is named after its lowest meal id's name, and adds each meal's histogram to its
 * dish's. Migration 005 cannot do it in SQL: name keys need Unicode NFKC and case folding. One IMMEDIATE transaction
 * that re-reads the meals without a dish, so that it is idempotent and two processes opening one file at once assign
 * each meal once. Answers how many meals it assigned.
 */
export function backfillDishes(db: Database): number {
  // The index (dish_id, served_at, withdrawn_at) answers this without reading the table: an open costs one lookup.
  const unassigned = db.prepare<[], 1>('SELECT 1 FROM meals WHERE dish_id IS NULL LIMIT 1').pluck();
  if (unassigned.get() === undefined) return 0;
  const meals = db.prepare<[], Pick<MealRow, 'meal_id' | 'name' | 'canteen_id'>>(
    'SELECT meal_id, name, canteen_id FROM meals WHERE dish_id IS NULL ORDER BY meal_id',
  );
  const setDish = db.prepare<[number, number]>('UPDATE meals SET dish_id = ? WHERE meal_id = ?');
  const dishes = new SqliteDishAssignment(db);
  return db
    .transaction(() => {
      let assigned = 0;
      for (const meal of meals.all()) {
        setDish.run(dishes.assign({ id: meal.meal_id, name: meal.name, canteenId: meal.canteen_id }), meal.meal_id);
        assigned += 1;
      }
      return assigned;
    })
    .immediate();
}
