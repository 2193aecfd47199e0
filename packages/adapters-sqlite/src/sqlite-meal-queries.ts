import type { MealId, MealQueries, PersonalMeal, PageRequest, ServingWindow, UserId } from '@canteen-meals/domain';
import type { Database, Statement } from 'better-sqlite3';
import { pageStatements, readPage, selectViews, viewFromRow, type PageStatements, type ViewParameters, type ViewRow } from './sqlite-meal-view.js';

/** Every read is one statement, so its cost in queries is the same for one meal or a hundred. */
export class SqliteMealQueries implements MealQueries {
  private readonly byIds: Statement<ViewParameters & { ids: string }, ViewRow>;
  private readonly servedIn: Statement<ViewParameters & { windows: string }, ViewRow>;
  private readonly marked: PageStatements<object>;
  private readonly rated: PageStatements<object>;

  constructor(db: Database) {
    // json_each turns one JSON array parameter into a list: one statement whatever the number of ids.
    this.byIds = db.prepare(`${selectViews}
      WHERE meals.meal_id IN (SELECT value FROM json_each(@ids)) AND meals.withdrawn_at IS NULL`);
    // Each window [canteen_id, from, until] is one range of the index (canteen_id, served_at, position, meal_id);
    // IN answers a meal of overlapping windows once.
    this.servedIn = db.prepare(`${selectViews}
      WHERE meals.meal_id IN (
        SELECT served.meal_id FROM json_each(@windows) AS span
        JOIN meals AS served ON served.canteen_id = json_extract(span.value, '$[0]')
          AND served.served_at >= json_extract(span.value, '$[1]') AND served.served_at < json_extract(span.value, '$[2]'))
        AND meals.withdrawn_at IS NULL
      ORDER BY meals.served_at, meals.position, meals.meal_id`);
    this.marked = pageStatements(db, 'meals.meal_id IN (SELECT meal_id FROM markings WHERE user_id = @user)');
    this.rated = pageStatements(db, 'meals.meal_id IN (SELECT meal_id FROM ratings WHERE user_id = @user)');
  }

  async viewsByIds(userId: UserId, ids: readonly MealId[], asOf: Date): Promise<PersonalMeal[]> {
    return this.byIds.all({ user: userId, as_of: asOf.getTime(), ids: JSON.stringify(ids) }).map(viewFromRow);
  }

  async viewsServedIn(userId: UserId, windows: readonly ServingWindow[], asOf: Date): Promise<PersonalMeal[]> {
    const ranges = windows.map((window) => [window.canteenId, window.from.getTime(), window.until.getTime()]);
    return this.servedIn.all({ user: userId, as_of: asOf.getTime(), windows: JSON.stringify(ranges) }).map(viewFromRow);
  }

  async markedMeals(userId: UserId, page: PageRequest, asOf: Date): Promise<PersonalMeal[]> {
    return readPage(this.marked, { user: userId, as_of: asOf.getTime() }, page);
  }

  async ratedMeals(userId: UserId, page: PageRequest, asOf: Date): Promise<PersonalMeal[]> {
    return readPage(this.rated, { user: userId, as_of: asOf.getTime() }, page);
  }
}
