import type { CanteenRecord } from '../canteen/canteen.js';
import type { CanteenRepository } from '../canteen/canteen-repository.js';

/** Every canteen, archived ones too, by id (admin): what a console shows to restore one. */
export class ListCanteensWithArchived {
  constructor(private readonly deps: { readonly canteens: CanteenRepository }) {}

  async execute(): Promise<readonly CanteenRecord[]> {
    return this.deps.canteens.listWithArchived();
  }
}
