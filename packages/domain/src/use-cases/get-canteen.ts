import type { CanteenId, StoredCanteen } from '../canteen/canteen.js';
import type { CanteenRepository } from '../canteen/canteen-repository.js';
import { accept, refuse, type Result } from '../shared/refusal.js';

export const getCanteenRefusals = ['canteen_not_found'] as const;

export class GetCanteen {
  constructor(private readonly deps: { readonly canteens: CanteenRepository }) {}

  async execute(id: CanteenId): Promise<Result<StoredCanteen, 'canteen_not_found'>> {
    const canteen = await this.deps.canteens.find(id);
    return canteen === undefined ? refuse('canteen_not_found') : accept(canteen);
  }
}
