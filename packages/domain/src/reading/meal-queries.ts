import type { CanteenId } from '../canteen/canteen.js';
import type { MealId } from '../meal/meal.js';
import type { UserId } from '../shared/user-id.js';
import type { PersonalMeal, PageRequest } from './personal-meal.js';

/**
 * The read side: meals together with their histogram and the reader's own state. Every method runs a number of
 * database queries that does not depend on how many meals it returns, and reads one consistent state.
 */
/** The meals one canteen serves in a span of time: `from` inclusive, `until` exclusive. */
export interface ServingWindow {
  readonly canteenId: CanteenId;
  readonly from: Date;
  readonly until: Date;
}

export interface MealQueries {
  /**
   * The views of those of `ids` that exist and are not withdrawn, each once, in any order; other ids are left out.
   * Every method answers each meal's dish as of `asOf` (which servings are past, which next).
   */
  viewsByIds(userId: UserId, ids: readonly MealId[], asOf: Date): Promise<PersonalMeal[]>;

  /**
   * The meals of each window's canteen with `from <= servedAt < until` that are not withdrawn, each once, ordered by
   * `servedAt`, then `position`, then meal id, all ascending.
   */
  viewsServedIn(userId: UserId, windows: readonly ServingWindow[], asOf: Date): Promise<PersonalMeal[]>;

  /** One page of the meals `userId` has marked, not withdrawn, most recently served first (see ServedPosition). */
  markedMeals(userId: UserId, page: PageRequest, asOf: Date): Promise<PersonalMeal[]>;

  /** One page of the meals `userId` has rated, not withdrawn, most recently served first; `personalRating` is set. */
  ratedMeals(userId: UserId, page: PageRequest, asOf: Date): Promise<PersonalMeal[]>;
}
