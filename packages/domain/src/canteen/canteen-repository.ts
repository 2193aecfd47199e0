import type { Canteen, CanteenId } from './canteen.js';

export interface CanteenRepository {
  /** Creates the canteen or replaces every field of the one with its id; answers whether it was created. */
  save(canteen: Canteen): Promise<{ readonly created: boolean }>;
  find(id: CanteenId): Promise<Canteen | undefined>;
  /** Every canteen, by id ascending. */
  list(): Promise<readonly Canteen[]>;
}
