import type { AuditNote } from '../audit/audit-entry.js';
import type { MealId } from '../meal/meal.js';
import type { Result } from '../shared/refusal.js';
import type { AvailabilityChange, AvailabilityRefusal, AvailabilitySnapshot } from './availability.js';

/** Synchronous on purpose: an embedded database cannot hold a transaction open across an await. */
export type AvailabilityDecision = (
  snapshot: AvailabilitySnapshot | undefined,
) => Result<AvailabilityChange, AvailabilityRefusal>;

export interface AvailabilityRepository {
  /**
   * One unit of work: read the meal (undefined when it does not exist or is withdrawn) with its availability and its
   * canteen's time zone, call `decide`, and when it accepts a change of status (see `availabilityChanged`), write the
   * new availability and record one `meal.availability_changed` (`availabilityEvent`) in the webhook outbox, occurred
   * at the new instant. The same status again writes and records nothing; a refusal writes nothing and is answered.
   * Two changes of one meal at once are applied one after the other: the second decides on what the first wrote.
   * With `audit`, the records it answers for the accepted change are appended to the audit trail in the same unit of
   * work (a change and its entry are written together or not at all).
   */
  change(
    mealId: MealId,
    decide: AvailabilityDecision,
    audit?: AuditNote<AvailabilityChange>,
  ): Promise<Result<AvailabilityChange, AvailabilityRefusal>>;
}
