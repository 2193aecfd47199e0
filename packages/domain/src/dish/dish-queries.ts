import type { CanteenId } from '../canteen/canteen.js';
import type { RatingHistogram } from '../rating/rating-histogram.js';
import type { PageRequest, PersonalMeal } from '../reading/personal-meal.js';
import type { UserId } from '../shared/user-id.js';
import type { LabelFilter } from '../label/label-filter.js';
import type { DishId, DishSummary } from './dish.js';

/** One dish as a reader sees it at one instant. */
export interface DishView {
  readonly dish: DishSummary;
  /** Every name the dish is known by (the ones merged into it included), by name. */
  readonly names: readonly string[];
  /** The reader's own figures over all servings; null for an anonymous reader. */
  readonly personal: { readonly marked: boolean; readonly histogram: RatingHistogram } | null;
}

/** One page of a search: at most `limit` dishes with an id above `after` (null: from the start). */
export interface DishSearchPage {
  readonly after: DishId | null;
  readonly limit: number;
}

/**
 * The read side of dishes; like MealQueries, each method runs a number of queries that does not grow with its answer.
 */
export interface DishQueries {
  /** The dish with its statistics as of `asOf`; undefined when there is none. */
  dish(dishId: DishId, reader: UserId | null, asOf: Date): Promise<DishView | undefined>;

  /** One page of the dish's servings that are not withdrawn, most recently served first (see ServedPosition). */
  servings(dishId: DishId, reader: UserId | null, page: PageRequest, asOf: Date): Promise<PersonalMeal[]>;

  /**
   * The dishes of the canteen one of whose names holds `text` (compared by `dishSearchKey`: case, width and accents
   * do not matter), by dish id ascending. With a `filter` that names a code, only the dishes of which a serving that
   * is not withdrawn passes it (see passesLabelFilter; meals are written with their labels' parents, see
   * MealLabelling): the filter is applied before the page is cut, so a page is full as long as dishes are left.
   */
  search(
    canteenId: CanteenId | null,
    text: string,
    page: DishSearchPage,
    asOf: Date,
    filter?: LabelFilter,
  ): Promise<DishSummary[]>;

  /**
   * Every dish of the canteen that has a serving that is not withdrawn (served or to come), with its figures as of
   * `asOf`, by dish id ascending: what a ranking of the canteen's dishes reads, in one statement.
   */
  ofCanteen(canteenId: CanteenId, asOf: Date): Promise<DishSummary[]>;

  /**
   * For each of `dishIds`, how many users have marked one of its servings or more (withdrawn ones included, as the
   * dish's histogram counts their ratings): a user who marked three servings counts once. A dish nobody marked is left
   * out. One statement, whatever the number of ids.
   */
  markingCounts(dishIds: readonly DishId[]): Promise<ReadonlyMap<DishId, number>>;
}
