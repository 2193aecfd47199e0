import type { MealId } from '../meal/meal.js';
import type { UserId } from '../shared/user-id.js';
import type { MealView, PageRequest } from './meal-view.js';

/**
 * The read side: meals together with their histogram and the reader's own state. Every method runs a number of
 * database queries that does not depend on how many meals it returns, and reads one consistent state.
 */
export interface MealQueries {
  /** The views of those of `ids` that exist, each once, in any order; ids that do not exist are left out. */
  viewsByIds(userId: UserId, ids: readonly MealId[]): Promise<MealView[]>;

  /** The meals with `from <= servedAt < until`, ordered by `servedAt`, then meal id, both ascending. */
  viewsServedBetween(userId: UserId, from: Date, until: Date): Promise<MealView[]>;

  /** One page of the meals `userId` has marked, most recently served first (see ServedPosition). */
  markedMeals(userId: UserId, page: PageRequest): Promise<MealView[]>;

  /** One page of the meals `userId` has rated, most recently served first; `personalRating` is never null. */
  ratedMeals(userId: UserId, page: PageRequest): Promise<MealView[]>;
}
