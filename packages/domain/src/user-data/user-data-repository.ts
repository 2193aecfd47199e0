import type { DishId } from '../dish/dish.js';
import type { DetailedMeal, MealId } from '../meal/meal.js';
import type { RatingHistogram } from '../rating/rating-histogram.js';
import type { RatingValue } from '../rating/rating.js';
import type { UserId } from '../shared/user-id.js';

/** Every marking and rating the service holds for one user (GDPR art. 15), each with the meal it concerns. */
export interface UserData {
  /** The marked meals, by meal id ascending. */
  readonly markings: readonly DetailedMeal[];
  /** The rated meals with the user's rating, by meal id ascending. */
  readonly ratings: readonly { readonly meal: DetailedMeal; readonly rating: RatingValue }[];
}

/** A meal whose figures an erasure changed: its histogram and its dish's, as they are after the erasure. */
export interface ErasedFromMeal {
  readonly mealId: MealId;
  readonly histogram: RatingHistogram;
  readonly dish: { readonly id: DishId; readonly histogram: RatingHistogram } | null;
}

/** How many markings and ratings an erasure removed, and the meals whose figures it changed (by meal id). */
export interface ErasedUserData {
  readonly markings: number;
  readonly ratings: number;
  /** One per erased rating: what readers of the menus are told (live streams re-read nothing for it). */
  readonly meals: readonly ErasedFromMeal[];
  /** Label filters removed (0 or 1), when the erasure covered preferences. */
  readonly preferences?: number;
  /** Avoided dishes removed, when the erasure covered preferences. */
  readonly aversions?: number;
  /** Push subscriptions removed, and notification settings (0 or 1), when the store keeps them. */
  readonly pushSubscriptions?: number;
  readonly notificationSettings?: number;
}

/** A user's own data as a whole: to hand it out and to erase it. */
export interface UserDataRepository {
  exportAll(userId: UserId): Promise<UserData>;

  /**
   * GDPR art. 17, in one transaction: deletes every marking and rating of `userId` and removes each of those ratings
   * from its meal's histogram and its dish's, whether or not the meal's rating period is over or it was withdrawn. No
   * other user's data changes.
   * Idempotent: erasing again removes nothing and answers zeros. Also deletes every webhook delivery of an event about
   * the user (`favourites.upcoming`, which carries their id), pending or in the log: it is personal data too.
   * Answers, per meal the erased ratings were of, its histogram and its dish's as they are when the erasure commits.
   */
  eraseAll(userId: UserId): Promise<ErasedUserData>;
}
