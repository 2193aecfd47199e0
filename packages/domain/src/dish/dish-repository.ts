import type { AuditNote } from '../audit/audit-entry.js';
import type { DishMergeOutcome } from '../audit/audit-notes.js';
import type { Result } from '../shared/refusal.js';
import type { DishId, DishMerge, DishMergeRefusal, DishMergeSnapshot } from './dish.js';

/** Synchronous on purpose, like RatingDecision: it runs inside the adapter's transaction. */
export type DishMergeDecision = (snapshot: DishMergeSnapshot) => Result<DishMerge, DishMergeRefusal>;

/**
 * How dishes come to be, written down for adapters: every meal an upsert or an import writes belongs to the dish of
 * its canteen whose name or alias has the meal's `dishNameKey`; when there is none, the write creates it (named after
 * the meal) with that key as its first name. A meal whose key or canteen changes moves to the other dish, taking its
 * ratings' counts from the old dish's histogram to the new one's, in the same unit of work.
 */
export interface DishRepository {
  /**
   * One unit of work: read the target and the `from` dishes, call `decide`, and write what it accepts: every serving
   * and every name (alias) of the `from` dishes moves to the target, whose histogram becomes the merge's, and the
   * `from` dishes are gone. Later writes of those names land in the target. When `decide` refuses, nothing is written.
   * With `audit`, the records it answers for the merge (with the target's canteen) are appended in the same unit.
   */
  merge(
    target: DishId,
    from: readonly DishId[],
    decide: DishMergeDecision,
    audit?: AuditNote<DishMergeOutcome>,
  ): Promise<Result<DishMerge, DishMergeRefusal>>;
}
