import type { DishId, MealId, RatingHistogram, RatingValue, UserId } from '@canteen-meals/domain';

/**
 * The two statements of a batch of rating changes. Both run outside any explicit transaction: each is its own
 * transaction and its own commit, so a batch costs two round trips whatever its size.
 */

/** An instant as whole epoch milliseconds, read and compared by the same expression (exact, whatever its precision). */
const epochMs = (column: string) => `floor(extract(epoch FROM ${column}) * 1000)::bigint`;

/**
 * The read: for each (meal, user) of the batch, in batch order (`n`, 1-based), what the rules read of the meal, its
 * histogram, its dish's, and the user's rating. No locks: the write checks what it relies on. A missing or withdrawn
 * meal has no row. Named statements are parsed once per pooled connection.
 */
export const readBatch = {
  name: 'meals-rating-batch-read',
  rowMode: 'array' as const,
  text: `SELECT g.n::int, m.name, ${epochMs('m.served_at')}, m.rateable, m.dish_id,
      m.rated_1, m.rated_2, m.rated_3, m.rated_4, m.rated_5,
      d.rated_1, d.rated_2, d.rated_3, d.rated_4, d.rated_5, r.rating
    FROM unnest($1::bigint[], $2::text[]) WITH ORDINALITY AS g (meal_id, user_id, n)
    JOIN meals m ON m.meal_id = g.meal_id AND m.withdrawn_at IS NULL
    LEFT JOIN dishes d ON d.dish_id = m.dish_id
    LEFT JOIN ratings r ON r.meal_id = g.meal_id AND r.user_id = g.user_id`,
};

export type ReadRow = [
  n: number,
  name: string,
  servedMs: string,
  rateable: boolean,
  dishId: string | null,
  ...histogram: RatingHistogram,
  dish1: number | null,
  dish2: number | null,
  dish3: number | null,
  dish4: number | null,
  dish5: number | null,
  rating: RatingValue | null,
];

/**
 * The write, one statement (see the README, "How a rating change stays atomic across instances"):
 *
 * 1. `locked` locks the rows of the batch's meals in id order, and only those that still have the rule fields the
 *    decisions read (served, rateable, not withdrawn): the lock order of every writer, meal rows first. Nothing of a
 *    meal that changed meanwhile is written; its items run again in the next batch.
 * 2. Each change is a compare-and-set of its rating row, applied only if the row still holds what was read: a new
 *    rating is inserted only where none exists, an update or a deletion only of the value read. A rating row is thus
 *    written only under its meal's lock (as every writer of ratings does), and `applied` says which succeeded.
 * 3. The applied changes' histogram deltas (as the domain's decisions computed them) are added to their meals, and
 *    through each meal's current dish (RETURNING) to the dishes, whose rows are locked in id order first. The
 *    answer is, per applied change, its meal's and dish's histograms after the whole batch.
 *
 * Every part that writes or locks depends on the one before through the rows it reads, which is what orders
 * PostgreSQL's evaluation of the CTEs: a rating is written only once its meal row is ours, and a dish row is locked
 * only once every meal row is (both aggregates read all their input first).
 */
export const writeBatch = {
  name: 'meals-rating-batch-write',
  rowMode: 'array' as const,
  text: `WITH locked AS MATERIALIZED (
      SELECT meals.meal_id FROM meals
      JOIN unnest($1::bigint[], $2::bigint[], $3::boolean[]) AS read (meal_id, served_ms, rateable) ON read.meal_id = meals.meal_id
      WHERE meals.withdrawn_at IS NULL AND meals.rateable = read.rateable AND ${epochMs('meals.served_at')} = read.served_ms
      ORDER BY meals.meal_id
      FOR NO KEY UPDATE OF meals),
    changes AS MATERIALIZED (
      SELECT * FROM unnest($4::int[], $5::bigint[], $6::text[], $7::smallint[], $8::smallint[],
          $9::int[], $10::int[], $11::int[], $12::int[], $13::int[])
        AS c (n, meal_id, user_id, previous, next, d1, d2, d3, d4, d5)
      WHERE c.meal_id IN (SELECT meal_id FROM locked)),
    inserted AS (
      INSERT INTO ratings (meal_id, user_id, rating)
      SELECT meal_id, user_id, next FROM changes WHERE previous IS NULL AND next IS NOT NULL
      ON CONFLICT (meal_id, user_id) DO NOTHING
      RETURNING meal_id, user_id),
    updated AS (
      UPDATE ratings SET rating = c.next FROM changes c
      WHERE ratings.meal_id = c.meal_id AND ratings.user_id = c.user_id AND ratings.rating = c.previous AND c.next IS NOT NULL
      RETURNING ratings.meal_id, ratings.user_id),
    deleted AS (
      DELETE FROM ratings USING changes c
      WHERE ratings.meal_id = c.meal_id AND ratings.user_id = c.user_id AND ratings.rating = c.previous AND c.next IS NULL
      RETURNING ratings.meal_id, ratings.user_id),
    applied AS MATERIALIZED (
      SELECT c.* FROM changes c
      JOIN (SELECT * FROM inserted UNION ALL SELECT * FROM updated UNION ALL SELECT * FROM deleted) AS done
        ON done.meal_id = c.meal_id AND done.user_id = c.user_id),
    meal_deltas AS (
      SELECT meal_id, sum(d1)::int AS d1, sum(d2)::int AS d2, sum(d3)::int AS d3, sum(d4)::int AS d4, sum(d5)::int AS d5
      FROM applied GROUP BY meal_id),
    meals_after AS MATERIALIZED (
      UPDATE meals SET rated_1 = rated_1 + s.d1, rated_2 = rated_2 + s.d2, rated_3 = rated_3 + s.d3,
        rated_4 = rated_4 + s.d4, rated_5 = rated_5 + s.d5
      FROM meal_deltas s WHERE meals.meal_id = s.meal_id
      RETURNING meals.meal_id, meals.dish_id, meals.rated_1, meals.rated_2, meals.rated_3, meals.rated_4, meals.rated_5,
        s.d1, s.d2, s.d3, s.d4, s.d5),
    dish_deltas AS MATERIALIZED (
      SELECT dish_id, sum(d1)::int AS d1, sum(d2)::int AS d2, sum(d3)::int AS d3, sum(d4)::int AS d4, sum(d5)::int AS d5
      FROM meals_after WHERE dish_id IS NOT NULL GROUP BY dish_id),
    dishes_locked AS MATERIALIZED (
      SELECT dish_id FROM dishes WHERE dish_id IN (SELECT dish_id FROM dish_deltas) ORDER BY dish_id FOR NO KEY UPDATE),
    dishes_after AS (
      UPDATE dishes SET rated_1 = dishes.rated_1 + s.d1, rated_2 = dishes.rated_2 + s.d2, rated_3 = dishes.rated_3 + s.d3,
        rated_4 = dishes.rated_4 + s.d4, rated_5 = dishes.rated_5 + s.d5
      FROM dish_deltas s JOIN dishes_locked USING (dish_id)
      WHERE dishes.dish_id = s.dish_id
      RETURNING dishes.dish_id, dishes.rated_1, dishes.rated_2, dishes.rated_3, dishes.rated_4, dishes.rated_5)
    SELECT a.n, m.dish_id, m.rated_1, m.rated_2, m.rated_3, m.rated_4, m.rated_5,
      d.rated_1, d.rated_2, d.rated_3, d.rated_4, d.rated_5
    FROM applied a JOIN meals_after m ON m.meal_id = a.meal_id LEFT JOIN dishes_after d ON d.dish_id = m.dish_id`,
};

export type WriteRow = [
  n: number,
  dishId: string | null,
  ...histogram: RatingHistogram,
  dish1: number | null,
  dish2: number | null,
  dish3: number | null,
  dish4: number | null,
  dish5: number | null,
];

/** One accepted change of a batch, as the write takes it. */
export interface BatchChange {
  /** Its position in the batch (1-based), which the answer rows name. */
  readonly n: number;
  readonly mealId: MealId;
  readonly userId: UserId;
  /** The rating read (compare-and-set: written only if the row still holds it). */
  readonly previous: RatingValue | null;
  readonly next: RatingValue | null;
  /** What the decision adds to the meal's histogram (and to its dish's). */
  readonly delta: RatingHistogram;
}

/** The rule fields of a meal as the batch read them, which the write checks. */
export interface ReadMeal {
  readonly mealId: MealId;
  readonly servedMs: string;
  readonly rateable: boolean;
}

export function writeBatchValues(meals: readonly ReadMeal[], changes: readonly BatchChange[]): unknown[] {
  const delta = (index: number) => changes.map((change) => change.delta[index]!);
  return [
    meals.map((meal) => meal.mealId),
    meals.map((meal) => meal.servedMs),
    meals.map((meal) => meal.rateable),
    changes.map((change) => change.n),
    changes.map((change) => change.mealId),
    changes.map((change) => change.userId),
    changes.map((change) => change.previous),
    changes.map((change) => change.next),
    delta(0),
    delta(1),
    delta(2),
    delta(3),
    delta(4),
  ];
}

export function dishIdOf(value: string | null): DishId | null {
  return value === null ? null : Number(value);
}
