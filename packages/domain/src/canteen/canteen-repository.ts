import type { Result } from '../shared/refusal.js';
import type { Canteen, CanteenId, OpenMensaId, StoredCanteen } from './canteen.js';

export interface CanteenRepository {
  /**
   * Creates the canteen or replaces every field of the one with its id, in one unit of work; answers the canteen as
   * stored and whether it was created. Without an `openmensaId` a stored canteen keeps its number and a new one gets
   * one no canteen has; a number another canteen has is refused (`openmensa_id_taken`) and nothing is written.
   */
  save(canteen: Canteen): Promise<Result<{ readonly created: boolean; readonly canteen: StoredCanteen }, 'openmensa_id_taken'>>;
  find(id: CanteenId): Promise<StoredCanteen | undefined>;
  /** The canteen with this OpenMensa number, if any. */
  findByOpenMensaId(openmensaId: OpenMensaId): Promise<StoredCanteen | undefined>;
  /** Every canteen, by id ascending. */
  list(): Promise<readonly StoredCanteen[]>;
}

/** The refusal of a save whose number another canteen has, naming the field as the wire does. */
export function openMensaIdTakenMessage(openmensaId: OpenMensaId, holder: CanteenId): string {
  return `openmensa_id ${openmensaId} is taken by the canteen "${holder}".`;
}
