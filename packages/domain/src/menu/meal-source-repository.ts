import type { LocalDate } from './local-time.js';
import type { MenuWriteCause } from '../webhook/webhook-event.js';
import type { ServingWindow } from '../reading/meal-queries.js';
import type { Result } from '../shared/refusal.js';
import type { MenuImportDecision, MenuImportPlan, MenuImportRefusal } from './menu-import-plan.js';

/** The days of one source that an import covers: what it may have added to before. */
export interface MenuImportScope {
  readonly source: string;
  readonly days: readonly LocalDate[];
  /** The canteen days the import serves meals on, whose meals the snapshot counts (`held`). */
  readonly servedIn: readonly ServingWindow[];
  /** What the `menu.published` events of the import name as its cause (absent: `import`). */
  readonly cause?: Exclude<MenuWriteCause, 'upsert'> | undefined;
}

/**
 * The meals that came from menus, by their source keys. One unit of work per import, like RatingRepository.change:
 * read the known meals of the scope, the next free meal id and what the `servedIn` days hold, call `decide`, and write
 * what it returns (new meals with their keys, updated meals) atomically, answering the decision. Nothing awaits in
 * between, so an embedded database can run it in one transaction; when `decide` refuses or throws, nothing is
 * written. An import and any other write that adds meals to one of its days never both count it before the other
 * has written (see MealCatalog.upsertMany). With the plan it records the plan's events in the webhook outbox
 * (`importEvents`, with the canteen's time zone as stored and the dishes of the withdrawn meals), occurred at the
 * plan's instant; a refused or failed import records nothing.
 */
export interface MealSourceRepository {
  importMenu(scope: MenuImportScope, decide: MenuImportDecision): Promise<Result<MenuImportPlan, MenuImportRefusal>>;
}
