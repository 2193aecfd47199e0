import type { MenuDaysCheck } from '../menu/menu-day-bound.js';
import type { Result } from '../shared/refusal.js';
import type { AuditNote } from '../audit/audit-entry.js';
import type { MenuUpsertOutcome, WithdrawalOutcome } from '../audit/audit-notes.js';
import type { CanteenId } from '../canteen/canteen.js';
import type { Meal, MealId } from './meal.js';

/** What a withdrawal found: no meal, or the meal with the instant it was withdrawn at (the first time). */
export type Withdrawal = { readonly found: false } | { readonly found: true; readonly withdrawnAt: Date };

export interface MealCatalog {
  /**
   * Inserts or updates every meal atomically: all of them or none. Ratings and markings stay attached; a withdrawn
   * meal that is written again is served again. Each meal lands in its dish (see DishRepository). Answers how many
   * meals it wrote.
   *
   * With `check`, one unit of work, like RatingRepository.change: count what each of `check.days` holds (one query
   * for the batch), call `check.decide`, and write only when it accepts; a refusal writes nothing and is answered.
   * Two writes that add meals to one day never both count it before the other has written. Without `check` (test
   * fixtures, tools that load meals checked before), no day is counted.
   *
   * In the same unit of work it records one `menu.published` per canteen day it wrote meals to in the webhook outbox
   * (`upsertEvents`, with the canteens' time zones as stored), occurred at `at` (absent, in fixtures and tools: the
   * time of the call); a refused or failed write records nothing. With `audit`, so does it with the records the note
   * answers for what it wrote (each meal with its canteen, and which meals existed before) in the audit trail.
   */
  upsertMany(
    meals: readonly Meal[],
    check?: MenuDaysCheck,
    at?: Date,
    audit?: AuditNote<MenuUpsertOutcome>,
  ): Promise<Result<number, 'menu_day_full'>>;
  count(): Promise<number>;
  /**
   * Withdraws the meal (a menu correction) at `at`: it leaves the menus and the reads, cannot be marked or rated, and
   * keeps its markings and ratings (they stay in the user's data and in its dish's statistics). Idempotent: a meal
   * withdrawn before keeps its first instant. The first withdrawal records a `meal.withdrawn` (`withdrawalEvent`) in
   * the
   * webhook outbox in the same unit of work; a repeated one records nothing. So does `audit`, in the audit trail.
   */
  withdraw(mealId: MealId, at: Date, audit?: AuditNote<WithdrawalOutcome>): Promise<Withdrawal>;
  /**
   * The canteen of each meal of `mealIds` that exists, withdrawn or not, its canteen archived or not: where an act on
   * it belongs (the staff access policy asks before an upsert moves or serves again a meal of another canteen).
   */
  canteensOf(mealIds: readonly MealId[]): Promise<ReadonlyMap<MealId, CanteenId>>;
}
