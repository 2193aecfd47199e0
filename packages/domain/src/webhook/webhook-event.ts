import type { AvailabilityStatus } from '../availability/availability.js';
import type { CanteenId } from '../canteen/canteen.js';
import type { DishId } from '../dish/dish.js';
import type { MealId } from '../meal/meal.js';
import type { LocalDate } from '../menu/local-time.js';
import type { UserId } from '../shared/user-id.js';

/** The events a webhook can subscribe to: the catalogue, in the order the docs list it. */
export const webhookEventTypes = [
  'menu.published',
  'favourites.upcoming',
  'meal.withdrawn',
  'meal.availability_changed',
] as const;

export type WebhookEventType = (typeof webhookEventTypes)[number];

export function isWebhookEventType(value: unknown): value is WebhookEventType {
  return typeof value === 'string' && (webhookEventTypes as readonly string[]).includes(value);
}

/** What wrote a canteen day's menu. A feed fetch imports, but receivers want to tell it from an admin's import. */
export type MenuWriteCause = 'upsert' | 'import' | 'feed';

/** A canteen day was created or changed: a summary of what changed, not the menu (receivers read that if they want). */
export interface MenuPublished {
  readonly canteenId: CanteenId;
  readonly date: LocalDate;
  readonly cause: MenuWriteCause;
  /** Meals new to the catalog on this day. */
  readonly added: readonly MealId[];
  /** Meals that existed and were written again (an upsert) or changed (an import), served on this day now. */
  readonly changed: readonly MealId[];
  /** Meals this write took off the day (an import of a coming day that no longer lists them). */
  readonly withdrawn: readonly MealId[];
}

/** A meal left the menus (an admin's correction, or an import that no longer lists a coming meal). */
export interface MealWithdrawn {
  readonly mealId: MealId;
  readonly canteenId: CanteenId;
  readonly date: LocalDate;
  readonly dishId: DishId | null;
  readonly withdrawnAt: Date;
}

/** The kitchen changed how much of a serving is left (the same status again records nothing). */
export interface MealAvailabilityChanged {
  readonly mealId: MealId;
  readonly canteenId: CanteenId;
  /** The meal's day on its canteen's clocks. */
  readonly date: LocalDate;
  readonly availability: AvailabilityStatus;
  readonly availabilityChangedAt: Date;
}

/** For one user and one canteen day: servings of dishes the user marked (favourites) that appeared on a future day. */
export interface FavouritesUpcoming {
  readonly userId: UserId;
  readonly canteenId: CanteenId;
  readonly date: LocalDate;
  readonly meals: readonly {
    readonly mealId: MealId;
    readonly dishId: DishId;
    readonly name: string;
    readonly servedAt: Date;
  }[];
}

export type WebhookEvent =
  | { readonly type: 'menu.published'; readonly data: MenuPublished }
  | { readonly type: 'favourites.upcoming'; readonly data: FavouritesUpcoming }
  | { readonly type: 'meal.withdrawn'; readonly data: MealWithdrawn }
  | { readonly type: 'meal.availability_changed'; readonly data: MealAvailabilityChanged };

/**
 * An event as the outbox holds it. `id` is given by the adapter that records it (unique, at most 64 characters of
 * [A-Za-z0-9_-], e.g. `evt_` and a random UUID's hex) and is the `webhook-id` of every delivery and every retry.
 */
export type RecordedEvent = WebhookEvent & {
  readonly id: string;
  /** When the change that caused it committed (the `timestamp` of the body). */
  readonly occurredAt: Date;
};
