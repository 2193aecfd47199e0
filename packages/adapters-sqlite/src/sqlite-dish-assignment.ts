import {
  defaultCanteenId,
  dishNameKey,
  dishSearchKey,
  type CanteenId,
  type DishId,
  type Meal,
  type MealId,
} from '@canteen-meals/domain';
import type { Database, Statement } from 'better-sqlite3';

/** A meal as it stands before a write: its dish (null on a file not yet backfilled) and its histogram. */
type StoredServing = [dishId: DishId | null, ...histogram: [number, number, number, number, number]];

type HistogramDelta = [number, number, number, number, number, DishId];

/**
 * Puts a meal that is about to be written into its dish (see DishRepository): the dish of its canteen whose name key
 * is the meal's, created with that name when there is none. A meal that moves takes its histogram's counts from the
 * old dish to the new one. Name keys need Unicode NFKC and case folding, which SQL cannot compute, hence TypeScript;
 * call it inside the write's transaction, before the meal row is written (the row references the dish).
 */
export class SqliteDishAssignment {
  private readonly findDish: Statement<[CanteenId, string], DishId>;
  private readonly insertDish: Statement<[CanteenId, string], DishId>;
  private readonly insertName: Statement<[CanteenId, string, string, string, DishId]>;
  private readonly storedServing: Statement<[MealId], StoredServing>;
  private readonly addToDish: Statement<HistogramDelta>;

  constructor(db: Database) {
    this.findDish = db
      .prepare<[CanteenId, string], DishId>('SELECT dish_id FROM dish_names WHERE canteen_id = ? AND name_key = ?')
      .pluck();
    this.insertDish = db
      .prepare<[CanteenId, string], DishId>('INSERT INTO dishes (canteen_id, name) VALUES (?, ?) RETURNING dish_id')
      .pluck();
    this.insertName = db.prepare(
      'INSERT INTO dish_names (canteen_id, name_key, search_key, name, dish_id) VALUES (?, ?, ?, ?, ?)',
    );
    this.storedServing = db
      .prepare<[MealId], StoredServing>(
        'SELECT dish_id, rated_1, rated_2, rated_3, rated_4, rated_5 FROM meals WHERE meal_id = ?',
      )
      .raw(true);
    // Signed counts: the CHECK (rated_n >= 0) refuses a dish histogram that would go negative.
    this.addToDish = db.prepare(`UPDATE dishes SET rated_1 = rated_1 + ?, rated_2 = rated_2 + ?, rated_3 = rated_3 + ?,
      rated_4 = rated_4 + ?, rated_5 = rated_5 + ? WHERE dish_id = ?`);
  }

  /** The dish the meal belongs to once written; moves the histogram of a meal that changes dish. */
  assign(meal: Pick<Meal, 'id' | 'name' | 'canteenId'>): DishId {
    const canteenId = meal.canteenId ?? defaultCanteenId;
    const key = dishNameKey(meal.name);
    let dishId = this.findDish.get(canteenId, key);
    if (dishId === undefined) {
      dishId = this.insertDish.get(canteenId, meal.name)!;
      this.insertName.run(canteenId, key, dishSearchKey(meal.name), meal.name, dishId);
    }
    const stored = this.storedServing.get(meal.id);
    if (stored === undefined) return dishId;
    const [before, ...histogram] = stored;
    if (before === dishId || histogram.every((count) => count === 0)) return dishId;
    if (before !== null) this.addToDish.run(...negated(histogram), before);
    this.addToDish.run(...histogram, dishId);
    return dishId;
  }
}

function negated([r1, r2, r3, r4, r5]: readonly [number, number, number, number, number]): [
  number,
  number,
  number,
  number,
  number,
] {
  return [-r1, -r2, -r3, -r4, -r5];
}
