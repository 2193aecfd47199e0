import type {
  AuditNote,
  CanteenId,
  DishId,
  DishMerge,
  DishMergeOutcome,
  DishMergeRefusal,
  RatingHistogram,
  Result,
} from '@canteen-meals/domain';
import type { DishMergeDecision, DishRepository } from '@canteen-meals/domain/ports';
import type { Database, Statement, Transaction } from 'better-sqlite3';
import { SqliteAuditWriter } from './sqlite-audit-log.js';
import { histogramColumns, histogramFromRow, type HistogramRow } from './sqlite-rating-repository.js';
import { personalPartCacheOf } from './personal-part-cache.js';
import type { SqliteStorageHealth } from './storage-health.js';

type DishRow = HistogramRow & { dish_id: DishId; canteen_id: CanteenId };

type Merge = (
  target: DishId,
  from: readonly DishId[],
  decide: DishMergeDecision,
  audit: AuditNote<DishMergeOutcome> | undefined,
) => Result<DishMerge, DishMergeRefusal>;

export class SqliteDishRepository implements DishRepository {
  private readonly mergeInTransaction: Transaction<Merge>;

  constructor(
    db: Database,
    private readonly health?: SqliteStorageHealth,
  ) {
    const dishColumns = `dish_id, canteen_id, ${histogramColumns}`;
    const byId: Statement<[DishId], DishRow> = db.prepare(`SELECT ${dishColumns} FROM dishes WHERE dish_id = ?`);
    // Lists of dishes are one JSON array parameter: one statement whatever their number.
    const byIds: Statement<[string], DishRow> = db.prepare(
      `SELECT ${dishColumns} FROM dishes WHERE dish_id IN (SELECT value FROM json_each(?))`,
    );
    const moveServings = db.prepare<[DishId, string]>(
      'UPDATE meals SET dish_id = ? WHERE dish_id IN (SELECT value FROM json_each(?))',
    );
    const moveNames = db.prepare<[DishId, string]>(
      'UPDATE dish_names SET dish_id = ? WHERE dish_id IN (SELECT value FROM json_each(?))',
    );
    const setHistogram = db.prepare<[...RatingHistogram, DishId]>(
      'UPDATE dishes SET rated_1 = ?, rated_2 = ?, rated_3 = ?, rated_4 = ?, rated_5 = ? WHERE dish_id = ?',
    );
    const deleteDishes = db.prepare<[string]>('DELETE FROM dishes WHERE dish_id IN (SELECT value FROM json_each(?))');
    // Aversions follow their dish; one who avoided two merged dishes keeps the earliest instant.
    const moveAversions = db.prepare<[DishId, string]>(`INSERT INTO dish_aversions (user_id, dish_id, since)
        SELECT user_id, ?, min(since) FROM dish_aversions WHERE dish_id IN (SELECT value FROM json_each(?)) GROUP BY user_id
        ON CONFLICT (user_id, dish_id) DO UPDATE SET since = min(since, excluded.since)`);
    const dropAversions = db.prepare<[string]>(
      'DELETE FROM dish_aversions WHERE dish_id IN (SELECT value FROM json_each(?))',
    );
    // The merged dishes' aversions move: the parts of every user who avoided one change.
    const personalParts = personalPartCacheOf(db);
    const summaryOf = (row: DishRow) => ({
      id: row.dish_id,
      canteenId: row.canteen_id,
      histogram: histogramFromRow(row),
    });

    const auditLog = new SqliteAuditWriter(db);
    this.mergeInTransaction = db.transaction((target, from, decide, audit) => {
      const found = byId.get(target);
      const decision = decide({
        target: found === undefined ? undefined : summaryOf(found),
        sources: byIds.all(JSON.stringify([...new Set(from)])).map(summaryOf),
      });
      if (!decision.ok) return decision;
      const merge = decision.value;
      const sources = JSON.stringify(merge.sources);
      moveServings.run(merge.target, sources);
      moveNames.run(merge.target, sources);
      moveAversions.run(merge.target, sources);
      dropAversions.run(sources);
      personalParts.forgetAll();
      setHistogram.run(...merge.histogram, merge.target);
      deleteDishes.run(sources);
      if (audit !== undefined && found !== undefined) auditLog.append(audit({ ...merge, canteenId: found.canteen_id }));
      return decision;
    });
  }

  async merge(
    target: DishId,
    from: readonly DishId[],
    decide: DishMergeDecision,
    audit?: AuditNote<DishMergeOutcome>,
  ): Promise<Result<DishMerge, DishMergeRefusal>> {
    // IMMEDIATE: no rating change of another connection can slip between reading the histograms and writing their sum.
    const merge = () => this.mergeInTransaction.immediate(target, from, decide, audit);
    return this.health === undefined ? merge() : this.health.guard(merge);
  }
}
