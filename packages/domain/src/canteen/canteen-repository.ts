import type { Canteen, CanteenId, CanteenRecord } from './canteen.js';

/** Its reads see active canteens only: an archived canteen is not found and not listed, except by `listWithArchived`. */
export interface CanteenRepository {
  /**
   * Creates the canteen or replaces every field of the one with its id; answers whether it was created. A saved
   * canteen is active: saving an archived one restores it.
   */
  save(canteen: Canteen): Promise<{ readonly created: boolean }>;
  /** The active canteen with this id; undefined for an archived one too. */
  find(id: CanteenId): Promise<Canteen | undefined>;
  /** Every active canteen, by id ascending. */
  list(): Promise<readonly Canteen[]>;
  /**
   * Archives the canteen at `at` unless it is archived already; answers when it was archived (the first time), or
   * undefined when no canteen has this id. Nothing of it is deleted.
   */
  archive(id: CanteenId, at: Date): Promise<Date | undefined>;
  /** Every canteen, archived ones too, by id ascending. */
  listWithArchived(): Promise<readonly CanteenRecord[]>;
}
