import {
  inOrderOfMeals,
  type MealId,
  type PersonalMeal,
  type PersonalPart,
  type PersonalState,
  type PageRequest,
  type RatingValue,
  type UserId,
} from '@canteen-meals/domain';
import type { MealQueries, MenuPageRequest, ServingWindow } from '@canteen-meals/domain/ports';
import type { Database, Statement } from 'better-sqlite3';
import {
  menuPageStatements,
  pageStatements,
  readMenuPage,
  readPage,
  selectViews,
  viewFromRow,
  windowsCondition,
  type MenuPageStatements,
  type PageStatements,
  type ViewParameters,
  type ViewRow,
} from './sqlite-meal-view.js';
import { personalPartCacheOf, type PersonalPartCache } from './personal-part-cache.js';
import {
  preferenceColumns,
  preferenceJoin,
  preferencesFromRow,
  type PreferenceRow,
} from './sqlite-preference-repository.js';

/** Every read is one statement, so its cost in queries is the same for one meal or a hundred. */
export class SqliteMealQueries implements MealQueries {
  private readonly byIds: Statement<ViewParameters & { ids: string }, ViewRow>;
  private readonly servedIn: Statement<ViewParameters & { windows: string }, ViewRow>;
  private readonly servedInPage: MenuPageStatements<{ windows: string }>;
  private readonly personalPart: Statement<[{ user: UserId; low: MealId; high: MealId }], PersonalPartRow>;
  private readonly personalParts: PersonalPartCache<PersonalPartRow>;
  private readonly markingCountsOf: Statement<{ ids: string }, { meal_id: MealId; marks: number }>;
  private readonly favouriteServings: Statement<
    ViewParameters & { windows: string; earliest: number; latest: number; limit: number },
    ViewRow
  >;
  private readonly marked: PageStatements<object>;
  private readonly rated: PageStatements<object>;

  constructor(db: Database) {
    // json_each turns one JSON array parameter into a list: one statement whatever the number of ids.
    this.byIds = db.prepare(`${selectViews}
      WHERE meals.meal_id IN (SELECT value FROM json_each(@ids)) AND meals.withdrawn_at IS NULL`);
    this.servedIn = db.prepare(`${selectViews}
      WHERE ${windowsCondition('meals')} AND meals.withdrawn_at IS NULL
      ORDER BY meals.served_at, meals.position, meals.meal_id`);
    this.servedInPage = menuPageStatements(db, windowsCondition('paged'));
    // Two ranges of the keys (user_id, meal_id) of markings and ratings, bounded by the lowest and highest meal id
    // asked for: a menu's meals are a few ids close together, so the ranges hold little beyond them, however many
    // rows the user has elsewhere. The rows come back as one text, `meal_id:m` for a marking and `meal_id:rating` for a
    // rating, comma-separated: better-sqlite3 pays for every row it hands over, and this read runs on every overlay.
    // The person's preferences in the same statement: every personalized read needs both.
    this.personalPart = db.prepare(`SELECT (SELECT group_concat(own, ',') FROM (
          SELECT meal_id || ':m' AS own FROM markings WHERE user_id = $user AND meal_id BETWEEN $low AND $high
          UNION ALL SELECT meal_id || ':' || rating FROM ratings WHERE user_id = $user AND meal_id BETWEEN $low AND $high)) AS own,
        ${preferenceColumns}
      FROM (SELECT 1) ${preferenceJoin}`);
    this.personalParts = personalPartCacheOf(db);
    // Ranges of the index markings_by_meal (meal_id, user_id), one per meal: the markings table itself is not read.
    this.markingCountsOf = db.prepare(`SELECT meal_id, count(*) AS marks FROM markings
      WHERE meal_id IN (SELECT value FROM json_each(@ids)) GROUP BY meal_id`);
    this.favouriteServings = db.prepare(favouriteServingsSql);
    this.marked = pageStatements(db, 'meals.meal_id IN (SELECT meal_id FROM markings WHERE user_id = @user)');
    this.rated = pageStatements(db, 'meals.meal_id IN (SELECT meal_id FROM ratings WHERE user_id = @user)');
  }

  async viewsByIds(userId: UserId | null, ids: readonly MealId[], asOf: Date): Promise<PersonalMeal[]> {
    return this.byIds.all({ user: userId, as_of: asOf.getTime(), ids: JSON.stringify(ids) }).map(viewFromRow);
  }

  async viewsServedIn(
    reader: UserId | null,
    windows: readonly ServingWindow[],
    asOf: Date,
    page?: MenuPageRequest,
  ): Promise<PersonalMeal[]> {
    const parameters = { user: reader, as_of: asOf.getTime(), windows: windowsParameter(windows) };
    return page === undefined
      ? this.servedIn.all(parameters).map(viewFromRow)
      : readMenuPage(this.servedInPage, parameters, page);
  }

  async personalPartOf(userId: UserId, mealIds: readonly MealId[]): Promise<PersonalPart> {
    // No meal asked for: an empty range.
    let low = mealIds[0] ?? 1;
    let high = mealIds[0] ?? 0;
    for (const id of mealIds) {
      if (id < low) low = id;
      else if (id > high) high = id;
    }
    // Kept by the process until one of its writes changes it (see PersonalPartCache): exact, as the one writer.
    let row = this.personalParts.get(userId, low, high);
    if (row === undefined)
      this.personalParts.keep(userId, low, high, (row = this.personalPart.get({ user: userId, low, high })!));
    return { states: statesOf(mealIds, row.own), preferences: preferencesFromRow(row) };
  }

  async markingCounts(mealIds: readonly MealId[]): Promise<ReadonlyMap<MealId, number>> {
    if (mealIds.length === 0) return new Map();
    return new Map(this.markingCountsOf.all({ ids: JSON.stringify(mealIds) }).map((row) => [row.meal_id, row.marks]));
  }

  async favouriteServingsIn(
    userId: UserId,
    windows: readonly ServingWindow[],
    asOf: Date,
    limit: number,
  ): Promise<PersonalMeal[]> {
    if (windows.length === 0) return [];
    return this.favouriteServings
      .all({
        user: userId,
        as_of: asOf.getTime(),
        windows: windowsParameter(windows),
        earliest: windows.map((window) => window.from.getTime()).reduce((a, b) => Math.min(a, b)),
        latest: windows.map((window) => window.until.getTime()).reduce((a, b) => Math.max(a, b)),
        limit,
      })
      .map(viewFromRow);
  }

  async markedMeals(userId: UserId, page: PageRequest, asOf: Date): Promise<PersonalMeal[]> {
    return readPage(this.marked, { user: userId, as_of: asOf.getTime() }, page);
  }

  async ratedMeals(userId: UserId, page: PageRequest, asOf: Date): Promise<PersonalMeal[]> {
    return readPage(this.rated, { user: userId, as_of: asOf.getTime() }, page);
  }
}

/** The windows as one JSON parameter, each `[canteen_id, from, until]` with the bounds in epoch milliseconds. */
function windowsParameter(windows: readonly ServingWindow[]): string {
  return JSON.stringify(windows.map((window) => [window.canteenId, window.from.getTime(), window.until.getTime()]));
}

/**
 * The servings of the user's favourite dishes in the windows: from the user's markings (the key user_id, meal_id) to
 * their meals' dishes, then each dish's servings between the earliest and the latest bound of all windows, a range of
 * the index meals_by_dish_served (dish_id, served_at, withdrawn_at). Each of those few rows is checked against the
 * windows of its canteen; the menus of canteens without a favourite are never read. The LIMIT cuts the meals alone, so
 * the views' figures are read for the answer's meals only.
 */
const favouriteServingsSql = `${selectViews}
  WHERE meals.meal_id IN (
    SELECT upcoming.meal_id FROM meals AS upcoming
    WHERE upcoming.dish_id IN (
        SELECT marked.dish_id FROM markings JOIN meals AS marked ON marked.meal_id = markings.meal_id
        WHERE markings.user_id = @user)
      AND upcoming.served_at >= @earliest AND upcoming.served_at < @latest AND upcoming.withdrawn_at IS NULL
      AND EXISTS (SELECT 1 FROM json_each(@windows) AS span
        WHERE json_extract(span.value, '$[0]') = upcoming.canteen_id
          AND upcoming.served_at >= json_extract(span.value, '$[1]') AND upcoming.served_at < json_extract(span.value, '$[2]'))
    ORDER BY upcoming.served_at, upcoming.canteen_id, upcoming.position, upcoming.meal_id LIMIT @limit)
  ORDER BY meals.served_at, meals.canteen_id, meals.position, meals.meal_id`;

type PersonalPartRow = PreferenceRow & { readonly own: string | null };

/** The states of `meal_id:m` and `meal_id:rating` items of `own`, in the order of `mealIds`. */
function statesOf(mealIds: readonly MealId[], own: string | null): PersonalState[] {
  if (own === null) return [];
  const states = new Map<MealId, { mealId: MealId; marked: boolean; personalRating: RatingValue | null }>();
  for (const row of own.split(',')) {
    const colon = row.indexOf(':');
    const mealId = Number(row.slice(0, colon));
    const value = row.slice(colon + 1);
    let state = states.get(mealId);
    if (state === undefined) states.set(mealId, (state = { mealId, marked: false, personalRating: null }));
    if (value === 'm') state.marked = true;
    else state.personalRating = Number(value) as RatingValue;
  }
  return inOrderOfMeals(mealIds, states);
}
