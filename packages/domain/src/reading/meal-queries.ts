import type { CanteenId } from '../canteen/canteen.js';
import type { DetailedMeal, MealId } from '../meal/meal.js';
import type { UserId } from '../shared/user-id.js';
import type { RatingValue } from '../rating/rating.js';
import type { PersonalMeal, PageRequest } from './personal-meal.js';
import type { PersonPreferences } from '../preference/preference-repository.js';

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

/** Where a meal stands in menu order: `servedAt`, then `position`, then meal id, all ascending. */
export interface MenuPosition {
  readonly servedAt: Date;
  readonly position: number;
  readonly mealId: MealId;
}

/** One page of a menu: at most `limit` meals that come strictly after `after` in menu order. */
export interface MenuPageRequest {
  /** null: from the start of the menu. */
  readonly after: MenuPosition | null;
  readonly limit: number;
}

/** One user's own state of one meal: what the personal overlay of a menu answers. */
export interface PersonalState {
  readonly mealId: MealId;
  readonly marked: boolean;
  readonly personalRating: RatingValue | null;
}

/**
 * What a personalized menu read needs of its reader: their own states of the menu's meals, and their preferences
 * (the label filter and the avoided dishes) that say which of those meals they see.
 */
export interface PersonalPart {
  readonly states: readonly PersonalState[];
  readonly preferences: PersonPreferences;
}

export interface MealQueries {
  /**
   * The views of those of `ids` that exist and are not withdrawn, each once, in any order; other ids are left out.
   * Every method answers each meal's dish as of `asOf` (which servings are past, which next). A null reader is
   * anonymous: every meal unmarked and unrated.
   */
  viewsByIds(userId: UserId | null, ids: readonly MealId[], asOf: Date): Promise<PersonalMeal[]>;

  /**
   * The meals of each window's canteen with `from <= servedAt < until` that are not withdrawn, each once, in menu
   * order (see MenuPosition); with `page`, only its part of that list. A null reader is anonymous: every meal
   * unmarked and unrated.
   */
  viewsServedIn(
    reader: UserId | null,
    windows: readonly ServingWindow[],
    asOf: Date,
    page?: MenuPageRequest,
  ): Promise<PersonalMeal[]>;

  /**
   * `states`: the user's own state of those of `mealIds` that the user has marked or rated, each once, in the order
   * of `mealIds`: the small personal part of a menu whose meals the caller knows, read without statistics nor dishes.
   * `preferences`: what PreferenceRepository.preferencesOf answers. At most one statement for both: every
   * personalized read needs both. Answers are exact: an adapter may answer from what it read before only where it
   * sees every write of these rows (SQLite, which one process writes); where instances share the database
   * (PostgreSQL) it reads each time, as one instance cannot know that another changed them.
   */
  personalPartOf(userId: UserId, mealIds: readonly MealId[]): Promise<PersonalPart>;

  /**
   * How many users have marked each of `mealIds`, withdrawn or not; a meal nobody marked (or that does not exist) is
   * left out. One statement, whatever the number of ids: what a ranking by marks reads.
   */
  markingCounts(mealIds: readonly MealId[]): Promise<ReadonlyMap<MealId, number>>;

  /**
   * The meals of the windows that are not withdrawn, each once, that are servings of one of the user's favourite
   * dishes: a dish is a favourite when the user has marked any of its servings, past or to come, withdrawn ones
   * included. In serving order (see `inServingOrder`), at most `limit`: what the upcoming favourites read, in one
   * statement
   * that starts from the user's markings, whatever the number of windows.
   */
  favouriteServingsIn(
    userId: UserId,
    windows: readonly ServingWindow[],
    asOf: Date,
    limit: number,
  ): Promise<PersonalMeal[]>;

  /** One page of the meals `userId` has marked, not withdrawn, most recently served first (see ServedPosition). */
  markedMeals(userId: UserId, page: PageRequest, asOf: Date): Promise<PersonalMeal[]>;

  /** One page of the meals `userId` has rated, not withdrawn, most recently served first; `personalRating` is set. */
  ratedMeals(userId: UserId, page: PageRequest, asOf: Date): Promise<PersonalMeal[]>;
}

/**
 * For adapters: the states of `byMeal` (each meal's at most once) as `personalPartOf` answers them, in the order of
 * `mealIds`, each meal once, leaving out those not asked for. Takes the states away from `byMeal`.
 */
export function inOrderOfMeals(mealIds: readonly MealId[], byMeal: Map<MealId, PersonalState>): PersonalState[] {
  const answered: PersonalState[] = [];
  for (const mealId of mealIds) {
    const state = byMeal.get(mealId);
    if (state === undefined) continue;
    answered.push(state);
    byMeal.delete(mealId);
  }
  return answered;
}

/**
 * Serving order, across canteens: negative when `a` comes first. By `servedAt`, then canteen id, then `position`, then
 * meal id, all ascending: within one canteen it is menu order, and meals of two canteens served at the same instant
 * keep their canteens apart. The order of the upcoming favourites.
 */
export function inServingOrder(a: DetailedMeal, b: DetailedMeal): number {
  return (
    a.servedAt.getTime() - b.servedAt.getTime() ||
    (a.canteenId < b.canteenId ? -1 : a.canteenId > b.canteenId ? 1 : 0) ||
    a.position - b.position ||
    a.id - b.id
  );
}
