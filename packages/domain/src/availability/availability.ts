import { localDayOf } from '../calendar/local-day.js';
import type { CanteenId } from '../canteen/canteen.js';
import type { MealId } from '../meal/meal.js';
import type { LocalDate } from '../menu/local-time.js';
import { accept, refuse, type Result } from '../shared/refusal.js';

/** How much of a serving is left, as the kitchen says it: a closed set, in the order a kitchen's day goes. */
export const availabilityStatuses = ['available', 'few_left', 'sold_out'] as const;

export type AvailabilityStatus = (typeof availabilityStatuses)[number];

export function isAvailabilityStatus(value: unknown): value is AvailabilityStatus {
  return typeof value === 'string' && (availabilityStatuses as readonly string[]).includes(value);
}

/** A serving's availability: its status and when the kitchen last changed it (null: never, as every serving starts). */
export interface Availability {
  readonly status: AvailabilityStatus;
  readonly changedAt: Date | null;
}

/** What every serving starts with: available, never changed. */
export const initialAvailability: Availability = Object.freeze({ status: 'available', changedAt: null });

/** What a change of availability reads in its unit of work: the meal (not withdrawn) and its canteen's time zone. */
export interface AvailabilitySnapshot {
  readonly mealId: MealId;
  readonly canteenId: CanteenId;
  readonly servedAt: Date;
  readonly timeZone: string;
  readonly availability: Availability;
}

/** What a change decided: the meal's availability before and after, on its canteen's day. */
export interface AvailabilityChange {
  readonly mealId: MealId;
  readonly canteenId: CanteenId;
  /** The meal's day on its canteen's clocks. */
  readonly date: LocalDate;
  readonly previous: Availability;
  readonly next: Availability;
}

/** Whether the change writes anything: setting the status a serving has is no change (no event, no new instant). */
export function availabilityChanged(change: AvailabilityChange): boolean {
  return change.previous.status !== change.next.status;
}

export const availabilityRefusals = ['meal_not_found', 'meal_not_today'] as const;
export type AvailabilityRefusal = (typeof availabilityRefusals)[number];

export interface AvailabilityRequest {
  readonly status: AvailabilityStatus;
  readonly now: Date;
  /**
   * Whether a meal of any day may be changed (an admin correcting the record); otherwise only a meal served on its
   * canteen's today, as the kitchen at the counter sees it.
   */
  readonly anyDay: boolean;
}

/**
 * The transition: an unknown or withdrawn meal (no snapshot) is refused; a meal of another day than its canteen's
 * today is refused unless `anyDay`; the same status again keeps the serving as it is (idempotent, its instant too);
 * any other status moves to it at `now`. Every status may follow every other: a kitchen undoes a wrong tap.
 */
export function decideAvailability(
  snapshot: AvailabilitySnapshot | undefined,
  { status, now, anyDay }: AvailabilityRequest,
): Result<AvailabilityChange, AvailabilityRefusal> {
  if (snapshot === undefined) return refuse('meal_not_found');
  const date = localDayOf(snapshot.servedAt, snapshot.timeZone).date;
  if (!anyDay) {
    const today = localDayOf(now, snapshot.timeZone).date;
    if (date !== today) {
      return refuse('meal_not_today', `The meal is served on ${date}, not on its canteen's today (${today}).`);
    }
  }
  const previous = snapshot.availability;
  const next = previous.status === status ? previous : { status, changedAt: new Date(now.getTime()) };
  return accept({ mealId: snapshot.mealId, canteenId: snapshot.canteenId, date, previous, next });
}
