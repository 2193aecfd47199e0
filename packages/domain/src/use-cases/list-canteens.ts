import type { StoredCanteen } from '../canteen/canteen.js';
import type { CanteenRepository } from '../canteen/canteen-repository.js';

/** Every canteen, by id. */
export class ListCanteens {
  constructor(private readonly deps: { readonly canteens: CanteenRepository }) {}

  async execute(): Promise<readonly StoredCanteen[]> {
    return this.deps.canteens.list();
  }
}
