import type { CanteenId } from '../canteen/canteen.js';
import type { AuditAction, AuditEntry, AuditRecord } from './audit-entry.js';

/** Where a page of the trail continues: after the entry with this instant and id (newest first). */
export interface AuditCursor {
  readonly at: Date;
  readonly id: string;
}

/** Which entries a list answers; every filter is optional and they combine with AND. */
export interface AuditFilter {
  /** Only these canteens' entries (a manager's canteens); undefined: every entry, those of no canteen too. */
  readonly canteenIds?: readonly CanteenId[] | undefined;
  /** Only entries of a canteen (not those of no canteen, such as a webhook's). */
  readonly ofCanteens?: boolean | undefined;
  readonly actor?: string | undefined;
  readonly action?: AuditAction | undefined;
  /** From this instant, included. */
  readonly from?: Date | undefined;
  /** Before this instant, excluded. */
  readonly to?: Date | undefined;
}

export interface AuditQuery extends AuditFilter {
  readonly limit: number;
  readonly after?: AuditCursor | undefined;
}

/**
 * The audit trail. Changes append their entries in their own transactions (the repositories take an
 * AuditNote); this port appends what has no transaction of its own (a feed fetched by hand), reads and forgets.
 */
export interface AuditLog {
  /** Appends the records, each with a new id, in one unit of work. */
  append(records: readonly AuditRecord[]): Promise<void>;
  /** Up to `limit` entries matching the filter, newest first (by instant, then id descending), after the cursor. */
  list(query: AuditQuery): Promise<readonly AuditEntry[]>;
  /** Deletes the entries recorded before `before`; answers how many. */
  deleteOlderThan(before: Date): Promise<number>;
}

/** Whether an entry passes a filter: the rule every store's query follows (the memory store uses it as it is). */
export function auditEntryMatches(entry: AuditEntry, filter: AuditFilter): boolean {
  if (filter.canteenIds !== undefined && (entry.canteenId === null || !filter.canteenIds.includes(entry.canteenId)))
    return false;
  if (filter.ofCanteens === true && entry.canteenId === null) return false;
  if (filter.actor !== undefined && entry.actor !== filter.actor) return false;
  if (filter.action !== undefined && entry.action !== filter.action) return false;
  if (filter.from !== undefined && entry.at.getTime() < filter.from.getTime()) return false;
  if (filter.to !== undefined && entry.at.getTime() >= filter.to.getTime()) return false;
  return true;
}

/** The trail's order, newest first: by instant, then by id, both descending. */
export function compareAuditEntriesNewestFirst(a: AuditCursor, b: AuditCursor): number {
  const byTime = b.at.getTime() - a.at.getTime();
  if (byTime !== 0) return byTime;
  return a.id < b.id ? 1 : a.id > b.id ? -1 : 0;
}
