import {
  availabilityChanged,
  availabilityRefusals,
  decideAvailability,
  type Availability,
  type AvailabilityRefusal,
  type AvailabilityStatus,
} from '../availability/availability.js';
import type { AuditActor } from '../audit/audit-entry.js';
import { availabilityAudit } from '../audit/audit-notes.js';
import type { AvailabilityRepository } from '../availability/availability-repository.js';
import type { MealId } from '../meal/meal.js';
import { nobodyListens, type AnnounceMenuChange } from '../reading/menu-change.js';
import type { Clock } from '../shared/clock.js';
import { mapResult, type Result } from '../shared/refusal.js';

export interface SetMealAvailabilityCommand {
  readonly mealId: MealId;
  readonly status: AvailabilityStatus;
  /** An admin may correct any day; the kitchen changes today's servings only. */
  readonly anyDay: boolean;
  /** Who sets it: the change is then recorded in the audit trail, in its own unit of work. */
  readonly by?: AuditActor | undefined;
}

export const setMealAvailabilityRefusals = availabilityRefusals;

/**
 * The kitchen says how much of a serving is left. The change is decided and written in one unit of work (with its
 * webhook event); once committed, menus and live streams are told. Setting the status a serving has changes nothing.
 */
export class SetMealAvailability {
  constructor(
    private readonly deps: {
      readonly availability: AvailabilityRepository;
      readonly clock: Clock;
      readonly announce?: AnnounceMenuChange;
    },
  ) {}

  async execute({
    mealId,
    status,
    anyDay,
    by,
  }: SetMealAvailabilityCommand): Promise<Result<Availability, AvailabilityRefusal>> {
    const now = this.deps.clock.now();
    const decision = await this.deps.availability.change(
      mealId,
      (snapshot) => decideAvailability(snapshot, { status, now, anyDay }),
      by === undefined ? undefined : availabilityAudit(by),
    );
    if (decision.ok && availabilityChanged(decision.value)) {
      (this.deps.announce ?? nobodyListens)({ kind: 'availability', mealId, availability: decision.value.next });
    }
    return mapResult(decision, (change) => change.next);
  }
}
