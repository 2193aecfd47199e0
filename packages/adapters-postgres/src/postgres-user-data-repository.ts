import type { DishId, ErasedUserData, RatingHistogram, RatingValue, UserData, UserId } from '@canteen-meals/domain';
import type { ErasedFromMeal, UserDataRepository } from '@canteen-meals/domain/ports';
import type { Pool } from 'pg';
import { mealColumns, mealFromRow, type MealRow } from './meal-rows.js';
import { lockDishes } from './dish-assignment.js';
import type { TransactionRunner } from './transaction.js';

/** The first key of the per-user erasure lock (any constant; the second key is a hash of the user id). */
const userErasureLockClass = 0x6d65616c;

type OwnRow = MealRow & { marked: boolean; rating: RatingValue | null };

export class PostgresUserDataRepository implements UserDataRepository {
  constructor(
    private readonly pool: Pool,
    private readonly transactions: TransactionRunner,
  ) {}

  /** One statement, so one snapshot: the export never shows half of a concurrent change. */
  async exportAll(userId: UserId): Promise<UserData> {
    const { rows } = await this.pool.query<OwnRow>(
      `SELECT ${mealColumns},
         EXISTS (SELECT 1 FROM markings WHERE markings.user_id = $1 AND markings.meal_id = meals.meal_id) AS marked,
         (SELECT rating FROM ratings WHERE ratings.meal_id = meals.meal_id AND ratings.user_id = $1) AS rating
       FROM meals
       WHERE meal_id IN (SELECT meal_id FROM markings WHERE user_id = $1 UNION SELECT meal_id FROM ratings WHERE user_id = $1)
       ORDER BY meal_id`,
      [userId],
    );
    return {
      markings: rows.filter((row) => row.marked).map(mealFromRow),
      ratings: rows.flatMap((row) => (row.rating === null ? [] : [{ meal: mealFromRow(row), rating: row.rating }])),
    };
  }

  /**
   * One transaction, in the lock order of every writer: the rows of the meals the user rated first (in id order),
   * then their rating rows, deleted with the update of the meals' histograms in one statement, which also answers the
   * counts per dish and whether the user holds ratings of other meals (added meanwhile). If so, another round locks
   * those meals in turn; the rounds end when the user has no rating left. Only then are the dish rows locked (in id
   * order) and the counts taken out of their histograms, in one statement with the deletion of the markings: a round
   * that waited for a meal row while holding dish rows would deadlock against a rating change, which holds its meal
   * and waits for its dish. Normally there is one round, so the statements do not grow with the data. Two erasures of
   * one user queue on a per-user advisory lock first: a later round of one locks a lower meal id while holding higher
   * ones, which would deadlock against the other's first round. Ratings of withdrawn meals are erased too, and leave
   * their dish's histogram.
   */
  async eraseAll(userId: UserId): Promise<ErasedUserData> {
    return this.transactions.run(async (client) => {
      // The two-key form: its key space does not overlap the single-key locks of migrations and imports.
      await client.query('SELECT pg_advisory_xact_lock($1, hashtext($2))', [userErasureLockClass, userId]);
      let ratings = 0;
      const mealFigures: MealFigures[] = [];
      const uncounted = new Map<DishId, number[]>();
      for (;;) {
        const locked = await client.query<{ meal_id: string }>(
          `SELECT meal_id FROM meals WHERE meal_id IN (SELECT meal_id FROM ratings WHERE user_id = $1)
           ORDER BY meal_id FOR NO KEY UPDATE`,
          [userId],
        );
        if (locked.rows.length === 0) break;
        // One row per dish with the counts erased from it; the extra row of NULLs makes sure of one row in any case.
        const { rows } = await client.query<{
          dish_id: string | null;
          counts: number[];
          erased: number;
          more: boolean;
          figures: MealFigures[] | null;
        }>(
          `WITH mine AS (
             DELETE FROM ratings WHERE user_id = $1 AND meal_id = ANY ($2::bigint[]) RETURNING meal_id, rating),
           uncounted AS (
             UPDATE meals SET
               rated_1 = rated_1 - (mine.rating = 1)::int, rated_2 = rated_2 - (mine.rating = 2)::int,
               rated_3 = rated_3 - (mine.rating = 3)::int, rated_4 = rated_4 - (mine.rating = 4)::int,
               rated_5 = rated_5 - (mine.rating = 5)::int
             FROM mine WHERE meals.meal_id = mine.meal_id
             RETURNING meals.meal_id, meals.dish_id, mine.rating,
               ARRAY[meals.rated_1, meals.rated_2, meals.rated_3, meals.rated_4, meals.rated_5] AS histogram)
           SELECT dish_id, ARRAY[count(*) FILTER (WHERE rating = 1), count(*) FILTER (WHERE rating = 2),
               count(*) FILTER (WHERE rating = 3), count(*) FILTER (WHERE rating = 4), count(*) FILTER (WHERE rating = 5)]::int[] AS counts,
             (SELECT count(*)::int FROM mine) AS erased,
             (SELECT json_agg(json_build_array(meal_id, dish_id, histogram)) FROM uncounted) AS figures,
             EXISTS (SELECT 1 FROM ratings WHERE user_id = $1 AND meal_id <> ALL ($2::bigint[])) AS more
           FROM (SELECT dish_id, rating FROM uncounted UNION ALL SELECT NULL, NULL) AS erased_ratings
           GROUP BY dish_id`,
          [userId, locked.rows.map((row) => row.meal_id)],
        );
        for (const row of rows) {
          if (row.dish_id === null) continue;
          const counts = uncounted.get(Number(row.dish_id)) ?? [0, 0, 0, 0, 0];
          row.counts.forEach((count, index) => (counts[index]! += count));
          uncounted.set(Number(row.dish_id), counts);
        }
        ratings += rows[0]?.erased ?? 0;
        mealFigures.push(...(rows[0]?.figures ?? []));
        if (rows[0]?.more !== true) break;
      }
      await lockDishes(client, [...uncounted.keys()]);
      const dishIds = [...uncounted.keys()];
      const column = (index: number) => dishIds.map((dishId) => uncounted.get(dishId)![index]!);
      const { rows } = await client.query<{ markings: number; dishes: [string, RatingHistogram][] }>(
        `WITH uncounted AS (
           UPDATE dishes SET rated_1 = rated_1 - n.n1, rated_2 = rated_2 - n.n2, rated_3 = rated_3 - n.n3,
             rated_4 = rated_4 - n.n4, rated_5 = rated_5 - n.n5
           FROM unnest($2::bigint[], $3::integer[], $4::integer[], $5::integer[], $6::integer[], $7::integer[])
             AS n (dish_id, n1, n2, n3, n4, n5)
           WHERE dishes.dish_id = n.dish_id
           RETURNING dishes.dish_id, ARRAY[dishes.rated_1, dishes.rated_2, dishes.rated_3, dishes.rated_4, dishes.rated_5] AS histogram),
         -- The deliveries of events about the user (favourites.upcoming), pending or in the log: personal data too.
         deliveries AS (DELETE FROM webhook_deliveries WHERE user_id = $1),
         unmarked AS (DELETE FROM markings WHERE user_id = $1 RETURNING 1)
         SELECT (SELECT count(*)::int FROM unmarked) AS markings,
           coalesce((SELECT json_agg(json_build_array(dish_id::text, histogram)) FROM uncounted), '[]') AS dishes`,
        [userId, dishIds, column(0), column(1), column(2), column(3), column(4)],
      );
      // The figures as the erasure leaves them (its meal and dish rows stay locked until it commits).
      const dishes = new Map(rows[0]!.dishes.map(([dishId, histogram]) => [Number(dishId), histogram]));
      const meals = mealFigures
        .map(([mealId, dishId, histogram]): ErasedFromMeal => {
          const dish = dishId === null ? undefined : dishes.get(Number(dishId));
          return {
            mealId: Number(mealId),
            histogram,
            dish: dish === undefined ? null : { id: Number(dishId), histogram: dish },
          };
        })
        .sort((a, b) => a.mealId - b.mealId);
      return { markings: rows[0]!.markings, ratings, meals };
    });
  }
}

/** One meal the erasure uncounted, as json_build_array answers it: meal id, dish id (bigints in JSON) and histogram. */
type MealFigures = [number | string, number | string | null, RatingHistogram];
