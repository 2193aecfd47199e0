import {
  accept,
  maxOpenMensaId,
  openMensaIdTakenMessage,
  refuse,
  type AuditNote,
  type Canteen,
  type CanteenId,
  type CanteenRecord,
  type OpenMensaId,
  type Result,
  type StoredCanteen,
} from '@canteen-meals/domain';
import type { CanteenRepository } from '@canteen-meals/domain/ports';
import { InMemoryDatabase } from './in-memory-database.js';

export class InMemoryCanteenRepository implements CanteenRepository {
  constructor(private readonly db: InMemoryDatabase = new InMemoryDatabase()) {}

  async save(
    canteen: Canteen,
    audit?: AuditNote<{ readonly created: boolean; readonly canteen: StoredCanteen }>,
  ): Promise<Result<{ readonly created: boolean; readonly canteen: StoredCanteen }, 'openmensa_id_taken'>> {
    const stored = this.db.canteens.get(canteen.id);
    const holder = canteen.openmensaId === undefined ? undefined : this.holderOf(canteen.openmensaId);
    if (holder !== undefined && holder.id !== canteen.id) {
      return refuse('openmensa_id_taken', openMensaIdTakenMessage(holder.openmensaId, holder.id));
    }
    const openmensaId = canteen.openmensaId ?? stored?.openmensaId ?? this.unusedNumber();
    const saved = copyOf({ ...canteen, openmensaId });
    this.db.appendAudit(audit?.({ created: stored === undefined, canteen: copyOf(saved) }) ?? []);
    this.db.canteens.set(canteen.id, saved);
    this.db.canteenArchivedAt.delete(canteen.id);
    return accept({ created: stored === undefined, canteen: copyOf(saved) });
  }

  async find(id: CanteenId): Promise<StoredCanteen | undefined> {
    const canteen = this.db.canteens.get(id);
    return canteen === undefined || this.db.canteenArchivedAt.has(id) ? undefined : copyOf(canteen);
  }

  async findByOpenMensaId(openmensaId: OpenMensaId): Promise<StoredCanteen | undefined> {
    const canteen = this.holderOf(openmensaId);
    return canteen === undefined || this.db.canteenArchivedAt.has(canteen.id) ? undefined : copyOf(canteen);
  }

  async list(): Promise<readonly StoredCanteen[]> {
    return this.byId()
      .filter((canteen) => !this.db.canteenArchivedAt.has(canteen.id))
      .map(copyOf);
  }

  async archive(id: CanteenId, at: Date, audit?: AuditNote<{ readonly archivedAt: Date }>): Promise<Date | undefined> {
    if (!this.db.canteens.has(id)) return undefined;
    this.db.appendAudit(audit?.({ archivedAt: this.db.canteenArchivedAt.get(id) ?? at }) ?? []);
    if (!this.db.canteenArchivedAt.has(id)) this.db.canteenArchivedAt.set(id, new Date(at.getTime()));
    return new Date(this.db.canteenArchivedAt.get(id)!.getTime());
  }

  async listWithArchived(): Promise<readonly CanteenRecord[]> {
    return this.byId().map((canteen) => {
      const archivedAt = this.db.canteenArchivedAt.get(canteen.id);
      return { ...copyOf(canteen), archivedAt: archivedAt === undefined ? null : new Date(archivedAt.getTime()) };
    });
  }

  private byId(): StoredCanteen[] {
    return [...this.db.canteens.values()].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  }

  private holderOf(openmensaId: OpenMensaId): StoredCanteen | undefined {
    return [...this.db.canteens.values()].find((canteen) => canteen.openmensaId === openmensaId);
  }

  /** One above the highest in use; at the top of the range, the lowest free one (as the SQL adapters do). */
  private unusedNumber(): OpenMensaId {
    const used = new Set([...this.db.canteens.values()].map((canteen) => canteen.openmensaId));
    const highest = Math.max(0, ...used);
    if (highest < maxOpenMensaId) return highest + 1;
    let candidate = 1;
    while (used.has(candidate)) candidate += 1;
    return candidate;
  }
}

function copyOf(canteen: StoredCanteen): StoredCanteen {
  return {
    ...canteen,
    coordinates: canteen.coordinates === null ? null : { ...canteen.coordinates },
    feeds: canteen.feeds.map((feed) => ({ ...feed })),
    noteLabels: { ...canteen.noteLabels },
    placeholderNames: [...(canteen.placeholderNames ?? [])],
  };
}
