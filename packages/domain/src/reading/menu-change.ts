import type { Availability } from '../availability/availability.js';
import type { DishId } from '../dish/dish.js';
import type { MealId } from '../meal/meal.js';
import type { RatingHistogram } from '../rating/rating-histogram.js';

/**
 * What a write changed in the menus that readers see, told after it committed, for whoever keeps copies of menu
 * answers (caches, live streams). Personal state (markings, a user's own ratings) is not part of it.
 */
export type MenuChange =
  /** One meal's histogram moved, and with it that of its dish (the figures every serving of the dish shows). */
  | {
      readonly kind: 'rating';
      readonly mealId: MealId;
      readonly histogram: RatingHistogram;
      readonly dish: { readonly id: DishId; readonly histogram: RatingHistogram } | null;
    }
  /** The kitchen changed a serving's availability: every answer that shows the meal differs. */
  | { readonly kind: 'availability'; readonly mealId: MealId; readonly availability: Availability }
  /**
   * Meals, dishes, canteens or many statistics changed at once (upsert, import, withdrawal, merge, erasure): any menu
   * may differ.
   */
  | { readonly kind: 'menus' };

/**
 * Where a change comes from: `local` for a write of this process, `remote` for one another instance made (relayed
 * through the database, see `publishRemote`) or a catch-up after the relay lost its connection.
 */
export type MenuChangeOrigin = 'local' | 'remote';

export type MenuChangeListener = (change: MenuChange, origin: MenuChangeOrigin) => void;

/** How a use case tells of a change it committed (the hub's `publish`). */
export type AnnounceMenuChange = (change: MenuChange) => void;

/**
 * Where the use cases tell their menu changes, and where readers subscribe to them. A listener runs synchronously
 * after the write committed; one that throws is reported to `onListenerError` and never fails the write.
 */
export class MenuChangeHub {
  private readonly listeners = new Set<MenuChangeListener>();

  constructor(private readonly onListenerError: (error: unknown) => void = () => {}) {}

  /** Adds a listener; the answer removes it again. */
  subscribe(listener: MenuChangeListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Tells every listener of a change this process committed. */
  readonly publish = (change: MenuChange): void => this.tell(change, 'local');

  /**
   * Tells every listener of a change another instance committed: readers act on it as on their own, and a relay
   * that sends local changes to the other instances skips it (it came from them), so changes never echo.
   */
  readonly publishRemote = (change: MenuChange): void => this.tell(change, 'remote');

  private tell(change: MenuChange, origin: MenuChangeOrigin): void {
    for (const listener of this.listeners) {
      try {
        listener(change, origin);
      } catch (error) {
        this.onListenerError(error);
      }
    }
  }
}

/** For a use case built without a hub: nobody listens. */
export const nobodyListens: AnnounceMenuChange = () => {};
