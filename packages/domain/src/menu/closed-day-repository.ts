import type { AuditNote } from '../audit/audit-entry.js';
import type { CanteenId } from '../canteen/canteen.js';
import type { LocalDate } from './local-time.js';

/** One day of a canteen's calendar, and whether its menu says it is closed. */
export interface DayClosure {
  readonly date: LocalDate;
  readonly closed: boolean;
}

/**
 * The days a canteen's menu says it is closed (a feed's `<closed/>`, an import's `closed: true`, an admin's word). A
 * day that is not listed is open, or unknown when nothing is served on it.
 */
export interface ClosedDayRepository {
  /**
   * Records each day as closed, or as not closed (which forgets it), in one unit of work, with the audit records
   * `audit` answers for the days.
   */
  record(canteenId: CanteenId, days: readonly DayClosure[], audit?: AuditNote<readonly DayClosure[]>): Promise<void>;
  /** The closed days from `from` to `to`, both included, ascending. */
  closedIn(canteenId: CanteenId, from: LocalDate, to: LocalDate): Promise<readonly LocalDate[]>;
}
