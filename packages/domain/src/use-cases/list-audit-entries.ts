import type { AuditAction, AuditEntry } from '../audit/audit-entry.js';
import type { AuditCursor, AuditLog } from '../audit/audit-log.js';
import type { CanteenId } from '../canteen/canteen.js';
import { accept, refuse, type Result } from '../shared/refusal.js';

export const listAuditEntriesRefusals = ['forbidden'] as const;

/** The most entries one page holds. */
export const maxAuditPageSize = 500;

export interface ListAuditEntriesQuery {
  /**
   * Whose entries the caller may read: every one (meals:write), those of every canteen (meals:manage for all of them:
   * not the webhooks'), or those of these canteens (meals:manage for each).
   */
  readonly visible: 'all' | 'canteens' | readonly CanteenId[];
  readonly canteenId?: CanteenId | undefined;
  readonly actor?: string | undefined;
  readonly action?: AuditAction | undefined;
  readonly from?: Date | undefined;
  readonly to?: Date | undefined;
  readonly after?: AuditCursor | undefined;
  readonly limit: number;
}

/** A page of the trail, newest first, and where the next one starts (null: this was the last). */
export interface AuditPage {
  readonly entries: readonly AuditEntry[];
  readonly next: AuditCursor | null;
}

/**
 * Who changed what: the trail filtered by canteen, person, action and period, newest first, a page at a time.
 * A manager reads their canteens' entries only; asking for another canteen's is refused, naming it.
 */
export class ListAuditEntries {
  constructor(private readonly deps: { readonly audit: AuditLog }) {}

  async execute(query: ListAuditEntriesQuery): Promise<Result<AuditPage, 'forbidden'>> {
    const { visible, canteenId } = query;
    if (typeof visible !== 'string' && canteenId !== undefined && !visible.includes(canteenId)) {
      return refuse('forbidden', `You may not read the activity of the canteen "${canteenId}".`);
    }
    const limit = Math.min(Math.max(1, Math.trunc(query.limit)), maxAuditPageSize);
    const canteenIds = canteenId !== undefined ? [canteenId] : typeof visible === 'string' ? undefined : visible;
    // One more than the page: whether a next page exists, without a count.
    const entries = await this.deps.audit.list({
      canteenIds,
      ofCanteens: visible === 'canteens',
      actor: query.actor,
      action: query.action,
      from: query.from,
      to: query.to,
      after: query.after,
      limit: limit + 1,
    });
    const page = entries.slice(0, limit);
    const last = page.at(-1);
    return accept({
      entries: page,
      next: entries.length > limit && last !== undefined ? { at: last.at, id: last.id } : null,
    });
  }
}
