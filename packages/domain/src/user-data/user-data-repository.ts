import type { DetailedMeal } from '../meal/meal.js';
import type { RatingValue } from '../rating/rating.js';
import type { UserId } from '../shared/user-id.js';

/** Every marking and rating the service holds for one user (GDPR art. 15), each with the meal it concerns. */
export interface UserData {
  /** The marked meals, by meal id ascending. */
  readonly markings: readonly DetailedMeal[];
  /** The rated meals with the user's rating, by meal id ascending. */
  readonly ratings: readonly { readonly meal: DetailedMeal; readonly rating: RatingValue }[];
}

/** How many markings and ratings an erasure removed. */
export interface ErasedUserData {
  readonly markings: number;
  readonly ratings: number;
  /** Label filters removed (0 or 1), when the erasure covered preferences. */
  readonly preferences?: number;
  /** Avoided dishes removed, when the erasure covered preferences. */
  readonly aversions?: number;
}

/** A user's own data as a whole: to hand it out and to erase it. */
export interface UserDataRepository {
  exportAll(userId: UserId): Promise<UserData>;

  /**
   * GDPR art. 17, in one transaction: deletes every marking and rating of `userId` and removes each of those ratings
   * from its meal's histogram and its dish's, whether or not the meal's rating period is over or it was withdrawn. No other user's data changes.
   * Idempotent: erasing again removes nothing and answers zeros. Also deletes every webhook delivery of an event about
   * the user (`favourites.upcoming`, which carries their id), pending or in the log: it is personal data too.
   */
  eraseAll(userId: UserId): Promise<ErasedUserData>;
}
