import type { ErasedUserData, RatingValue, UserData, UserDataRepository, UserId } from '@canteen-meals/domain';
import type { Pool } from 'pg';
import { mealColumns, mealFromRow, type MealRow } from './meal-rows.js';
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
   * One transaction, in the lock order of every rating change: the rows of the meals the user rated first (in id
   * order), then their rating rows, deleted with the histogram update in one statement. A rating the user adds on
   * another meal meanwhile is found by the next round, which locks that meal first in turn; the rounds end when the
   * user has no rating left. Normally that is the second round, so the statements do not grow with the data.
   * Two erasures of one user queue on a per-user advisory lock first: a later round of one locks a lower meal id
   * while holding higher ones, which would deadlock against the other's first round.
   */
  async eraseAll(userId: UserId): Promise<ErasedUserData> {
    return this.transactions.run(async (client) => {
      // The two-key form: its key space does not overlap the single-key locks of migrations and imports.
      await client.query('SELECT pg_advisory_xact_lock($1, hashtext($2))', [userErasureLockClass, userId]);
      let ratings = 0;
      for (;;) {
        const locked = await client.query<{ meal_id: string }>(
          `SELECT meal_id FROM meals WHERE meal_id IN (SELECT meal_id FROM ratings WHERE user_id = $1)
           ORDER BY meal_id FOR NO KEY UPDATE`,
          [userId],
        );
        if (locked.rows.length === 0) break;
        const { rows } = await client.query<{ erased: number }>(
          `WITH mine AS (
             DELETE FROM ratings WHERE user_id = $1 AND meal_id = ANY ($2::bigint[]) RETURNING meal_id, rating),
           uncounted AS (
             UPDATE meals SET
               rated_1 = rated_1 - (mine.rating = 1)::int, rated_2 = rated_2 - (mine.rating = 2)::int,
               rated_3 = rated_3 - (mine.rating = 3)::int, rated_4 = rated_4 - (mine.rating = 4)::int,
               rated_5 = rated_5 - (mine.rating = 5)::int
             FROM mine WHERE meals.meal_id = mine.meal_id)
           SELECT count(*)::int AS erased FROM mine`,
          [userId, locked.rows.map((row) => row.meal_id)],
        );
        ratings += rows[0]?.erased ?? 0;
      }
      const markings = await client.query('DELETE FROM markings WHERE user_id = $1', [userId]);
      return { markings: markings.rowCount ?? 0, ratings };
    });
  }
}
