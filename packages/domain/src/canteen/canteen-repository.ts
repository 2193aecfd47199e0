import type { AuditNote } from '../audit/audit-entry.js';
import type { Result } from '../shared/refusal.js';
import type { Canteen, CanteenId, CanteenRecord, OpenMensaId, StoredCanteen } from './canteen.js';

/**
 * Its reads see active canteens only: an archived canteen is not found and not listed, except by `listWithArchived`.
 */
export interface CanteenRepository {
  /**
   * Creates the canteen or replaces every field of the one with its id, in one unit of work; answers the canteen as
   * stored and whether it was created. Without an `openmensaId` a stored canteen keeps its number and a new one gets
   * one no canteen has; a number another canteen has is refused (`openmensa_id_taken`) and nothing is written. A
   * saved canteen is active: saving an archived one restores it. With `audit`, the records it answers for the saved
   * canteen are appended to the audit trail in the same unit of work.
   */
  save(
    canteen: Canteen,
    audit?: AuditNote<{ readonly created: boolean; readonly canteen: StoredCanteen }>,
  ): Promise<Result<{ readonly created: boolean; readonly canteen: StoredCanteen }, 'openmensa_id_taken'>>;
  /** The active canteen with this id; undefined for an archived one too. */
  find(id: CanteenId): Promise<StoredCanteen | undefined>;
  /** The active canteen with this OpenMensa number, if any. */
  findByOpenMensaId(openmensaId: OpenMensaId): Promise<StoredCanteen | undefined>;
  /** Every active canteen, by id ascending. */
  list(): Promise<readonly StoredCanteen[]>;
  /**
   * Archives the canteen at `at` unless it is archived already; answers when it was archived (the first time), or
   * undefined when no canteen has this id. Nothing of it is deleted. With `audit`, in the same unit of work, the
   * records it answers (given when the canteen was archived) are appended to the audit trail.
   */
  archive(id: CanteenId, at: Date, audit?: AuditNote<{ readonly archivedAt: Date }>): Promise<Date | undefined>;
  /** Every canteen, archived ones too, by id ascending. */
  listWithArchived(): Promise<readonly CanteenRecord[]>;
}

/** The refusal of a save whose number another canteen has, naming the field as the wire does. */
export function openMensaIdTakenMessage(openmensaId: OpenMensaId, holder: CanteenId): string {
  return `openmensa_id ${openmensaId} is taken by the canteen "${holder}".`;
}
