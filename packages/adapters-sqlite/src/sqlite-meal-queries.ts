import type {
  MealId,
  MealQueries,
  MenuPageRequest,
  PersonalMeal,
  PersonalState,
  PageRequest,
  RatingValue,
  ServingWindow,
  UserId,
} from '@canteen-meals/domain';
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

interface PersonalStateRow {
  meal_id: MealId;
  marked: 0 | 1;
  personal_rating: RatingValue | null;
}

/** Every read is one statement, so its cost in queries is the same for one meal or a hundred. */
export class SqliteMealQueries implements MealQueries {
  private readonly byIds: Statement<ViewParameters & { ids: string }, ViewRow>;
  private readonly servedIn: Statement<ViewParameters & { windows: string }, ViewRow>;
  private readonly servedInPage: MenuPageStatements<{ windows: string }>;
  private readonly personalStates: Statement<{ user: UserId; windows: string }, PersonalStateRow>;
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
    // Driven by the user's own rows, two ranges of the keys (user_id, meal_id) of markings and ratings, so it is as
    // cheap for a user with few of them however long the menu is: each of the user's meals once (UNION), its meal,
    // marking and rating by primary key, and only then the windows. (SQLite's FULL JOIN of the two ranges would scan
    // one of them again for every row of the other.)
    this.personalStates = db.prepare(`SELECT meals.meal_id AS meal_id, marking.meal_id IS NOT NULL AS marked,
        rating.rating AS personal_rating
      FROM (SELECT meal_id FROM markings WHERE user_id = @user UNION SELECT meal_id FROM ratings WHERE user_id = @user) AS own
      JOIN meals ON meals.meal_id = own.meal_id
      LEFT JOIN markings AS marking ON marking.user_id = @user AND marking.meal_id = own.meal_id
      LEFT JOIN ratings AS rating ON rating.user_id = @user AND rating.meal_id = own.meal_id
      WHERE meals.withdrawn_at IS NULL AND EXISTS (
        SELECT 1 FROM json_each(@windows) AS span
        WHERE meals.canteen_id = json_extract(span.value, '$[0]')
          AND meals.served_at >= json_extract(span.value, '$[1]') AND meals.served_at < json_extract(span.value, '$[2]'))
      ORDER BY meals.served_at, meals.position, meals.meal_id`);
    this.marked = pageStatements(db, 'meals.meal_id IN (SELECT meal_id FROM markings WHERE user_id = @user)');
    this.rated = pageStatements(db, 'meals.meal_id IN (SELECT meal_id FROM ratings WHERE user_id = @user)');
  }

  async viewsByIds(userId: UserId, ids: readonly MealId[], asOf: Date): Promise<PersonalMeal[]> {
    return this.byIds.all({ user: userId, as_of: asOf.getTime(), ids: JSON.stringify(ids) }).map(viewFromRow);
  }

  async viewsServedIn(
    reader: UserId | null,
    windows: readonly ServingWindow[],
    asOf: Date,
    page?: MenuPageRequest,
  ): Promise<PersonalMeal[]> {
    const parameters = { user: reader, as_of: asOf.getTime(), windows: windowsParameter(windows) };
    return page === undefined ? this.servedIn.all(parameters).map(viewFromRow) : readMenuPage(this.servedInPage, parameters, page);
  }

  async personalStatesServedIn(userId: UserId, windows: readonly ServingWindow[]): Promise<PersonalState[]> {
    return this.personalStates.all({ user: userId, windows: windowsParameter(windows) }).map((row) => ({
      mealId: row.meal_id,
      marked: row.marked === 1,
      personalRating: row.personal_rating,
    }));
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
