import type { OpenMensaId, StoredCanteen } from '../canteen/canteen.js';
import type { CanteenRepository } from '../canteen/canteen-repository.js';
import { accept, refuse, type Result } from '../shared/refusal.js';

export const findCanteenByOpenMensaIdRefusals = ['canteen_not_found'] as const;

/** The canteen with an OpenMensa number: how OpenMensa's apps name it. */
export class FindCanteenByOpenMensaId {
  constructor(private readonly deps: { readonly canteens: CanteenRepository }) {}

  async execute(openmensaId: OpenMensaId): Promise<Result<StoredCanteen, 'canteen_not_found'>> {
    const canteen = await this.deps.canteens.findByOpenMensaId(openmensaId);
    return canteen === undefined ? refuse('canteen_not_found') : accept(canteen);
  }
}
