import { nobodyListens, type AnnounceMenuChange } from '../reading/menu-change.js';
import {
  decideDishMerge,
  dishMergeRefusals,
  type DishId,
  type DishMerge,
  type DishMergeRefusal,
} from '../dish/dish.js';
import type { AuditActor } from '../audit/audit-entry.js';
import { dishMergeAudit } from '../audit/audit-notes.js';
import type { DishQueries } from '../dish/dish-queries.js';
import type { DishRepository } from '../dish/dish-repository.js';
import { dishReadingOf } from '../reading/meal-reading.js';
import type { Clock } from '../shared/clock.js';
import { accept, type Result } from '../shared/refusal.js';
import type { DishDetails } from './get-dish.js';

export const mergeDishesRefusals = dishMergeRefusals;

/** Renames: moves every serving and name of the `from` dishes into `target`; answers the merged dish. */
export class MergeDishes {
  constructor(
    private readonly deps: {
      readonly dishes: DishRepository;
      readonly dishQueries: DishQueries;
      readonly clock: Clock;
      readonly announce?: AnnounceMenuChange;
    },
  ) {}

  async execute({
    target,
    from,
    by,
  }: {
    readonly target: DishId;
    readonly from: readonly DishId[];
    /** Who merges them, recorded in the audit trail in the merge's own unit of work. */
    readonly by?: AuditActor | undefined;
  }): Promise<Result<{ readonly merge: DishMerge; readonly dish: DishDetails }, DishMergeRefusal>> {
    const merged = await this.deps.dishes.merge(
      target,
      from,
      (snapshot) => decideDishMerge({ target, from }, snapshot),
      by === undefined ? undefined : dishMergeAudit(by, this.deps.clock.now()),
    );
    if (!merged.ok) return merged;
    (this.deps.announce ?? nobodyListens)({ kind: 'menus' });
    const view = await this.deps.dishQueries.dish(target, null, this.deps.clock.now());
    if (view === undefined) throw new Error(`dish ${target} vanished right after a merge into it`);
    return accept({ merge: merged.value, dish: { ...view, dish: dishReadingOf(view.dish) } });
  }
}
