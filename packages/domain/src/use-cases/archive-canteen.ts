import { nobodyListens, type AnnounceMenuChange } from '../reading/menu-change.js';
import type { AuditActor } from '../audit/audit-entry.js';
import { canteenArchiveAudit } from '../audit/audit-notes.js';
import type { CanteenId } from '../canteen/canteen.js';
import type { CanteenRepository } from '../canteen/canteen-repository.js';
import { accept, refuse, type Result } from '../shared/refusal.js';
import type { Clock } from '../shared/clock.js';

export const archiveCanteenRefusals = ['canteen_not_found'] as const;

export interface ArchivedCanteen {
  readonly canteenId: CanteenId;
  /** When it was first archived: archiving it again keeps this instant. */
  readonly archivedAt: Date;
}

/**
 * Archives a canteen (admin): it leaves every list and read, its feeds are no longer fetched, and its meals and
 * ratings stay for the day a save restores it.
 */
export class ArchiveCanteen {
  constructor(
    private readonly deps: {
      readonly canteens: CanteenRepository;
      readonly clock: Clock;
      readonly announce?: AnnounceMenuChange;
    },
  ) {}

  /** `by`: who archives it, recorded in the audit trail (the first archiving only). */
  async execute(id: CanteenId, by?: AuditActor): Promise<Result<ArchivedCanteen, 'canteen_not_found'>> {
    const now = this.deps.clock.now();
    const archivedAt = await this.deps.canteens.archive(
      id,
      now,
      by === undefined ? undefined : canteenArchiveAudit(by, now, id),
    );
    if (archivedAt === undefined) return refuse('canteen_not_found');
    // Its menus are gone: caches forget them and live streams of its days end.
    (this.deps.announce ?? nobodyListens)({ kind: 'menus' });
    return accept({ canteenId: id, archivedAt });
  }
}
