import type { AuditNote, DishId, DishMerge, DishMergeOutcome, DishMergeRefusal, Result } from '@canteen-meals/domain';
import type { DishMergeDecision, DishRepository } from '@canteen-meals/domain/ports';
import { appendAuditRecords } from './postgres-audit-log.js';
import { histogramColumns, histogramFromRow, type HistogramRow } from './meal-rows.js';
import { ConcurrentChangeError, type TransactionRunner } from './transaction.js';

export class PostgresDishRepository implements DishRepository {
  constructor(private readonly transactions: TransactionRunner) {}

  /**
   * One transaction, in the lock order of every writer: the rows of the sources' servings first (in meal id order),
   * then the dish rows of target and sources (in dish id order, FOR UPDATE as the sources are deleted), read while
   * locked (never waiting for a meal row while holding them); then `decide`, and what it accepts: the servings and
   * names move to the target, whose histogram becomes
   * the merge's, and the sources are deleted. A refusal writes nothing.
   */
  async merge(
    target: DishId,
    from: readonly DishId[],
    decide: DishMergeDecision,
    audit?: AuditNote<DishMergeOutcome>,
  ): Promise<Result<DishMerge, DishMergeRefusal>> {
    const sources = [...new Set(from)];
    return this.transactions.run(async (client) => {
      const servings = await client.query<{ meal_id: string }>(
        'SELECT meal_id FROM meals WHERE dish_id = ANY ($1::bigint[]) ORDER BY meal_id FOR NO KEY UPDATE',
        [sources],
      );
      const { rows } = await client.query<HistogramRow & { dish_id: string; canteen_id: string }>(
        `SELECT dish_id, canteen_id, ${histogramColumns} FROM dishes WHERE dish_id = ANY ($1::bigint[]) ORDER BY dish_id FOR UPDATE`,
        [[target, ...sources]],
      );
      // A serving that joined a source after the first statement (its writer held the dish row we waited for) is not
      // ours: waiting for its row now, holding dish rows, could deadlock with a rating change of it. Run again instead.
      // With the dish rows ours, no further serving can join.
      const joined = await client.query<{ meal_id: string }>(
        'SELECT meal_id FROM meals WHERE dish_id = ANY ($1::bigint[]) AND meal_id <> ALL ($2::bigint[]) LIMIT 1',
        [sources, servings.rows.map((row) => row.meal_id)],
      );
      if (joined.rows[0] !== undefined)
        throw new ConcurrentChangeError(`meal ${joined.rows[0].meal_id} joined a merged dish meanwhile`);
      const dishes = new Map(
        rows.map((row) => [
          Number(row.dish_id),
          { id: Number(row.dish_id), canteenId: row.canteen_id, histogram: histogramFromRow(row) },
        ]),
      );
      const decision = decide({
        target: dishes.get(target),
        sources: sources.flatMap((id) => dishes.get(id) ?? []),
      });
      if (!decision.ok) return decision;
      const merge = decision.value;
      const moved = [...new Set(merge.sources)];
      await client.query('UPDATE meals SET dish_id = $1 WHERE dish_id = ANY ($2::bigint[])', [merge.target, moved]);
      await client.query('UPDATE dish_names SET dish_id = $1 WHERE dish_id = ANY ($2::bigint[])', [
        merge.target,
        moved,
      ]);
      await client.query(
        'UPDATE dishes SET rated_1 = $2, rated_2 = $3, rated_3 = $4, rated_4 = $5, rated_5 = $6 WHERE dish_id = $1',
        [merge.target, ...merge.histogram],
      );
      // Aversions follow their dish; one who avoided two merged dishes keeps the earliest instant.
      await client.query(
        `INSERT INTO dish_aversions (user_id, dish_id, since)
           SELECT user_id, $1, min(since) FROM dish_aversions WHERE dish_id = ANY ($2::bigint[]) GROUP BY user_id
         ON CONFLICT (user_id, dish_id) DO UPDATE SET since = least(dish_aversions.since, excluded.since)`,
        [merge.target, moved],
      );
      await client.query('DELETE FROM dish_aversions WHERE dish_id = ANY ($1::bigint[])', [moved]);
      await client.query('DELETE FROM dishes WHERE dish_id = ANY ($1::bigint[])', [moved]);
      const canteenId = dishes.get(target)?.canteenId;
      if (audit !== undefined && canteenId !== undefined)
        await appendAuditRecords(client, audit({ ...merge, canteenId }));
      return decision;
    });
  }
}
