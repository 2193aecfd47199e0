import type { MealId, MealQueries, MealView, PageRequest, RatingValue, UserId } from '@canteen-meals/domain';
import type { Database, Statement } from 'better-sqlite3';
import { mealColumns, mealFromRow, type MealRow } from './sqlite-meal-row.js';
import { histogramColumns, histogramFromRow, type HistogramRow } from './sqlite-rating-repository.js';

type ViewRow = MealRow & HistogramRow & { marked: 0 | 1; personal_rating: RatingValue | null };

interface PageParameters {
  user: UserId;
  limit: number;
  served_at: number;
  meal_id: MealId;
}

/** The meal, its histogram (kept in the meals row) and the reader's own state, in one row per meal. */
const viewColumns = `${mealColumns}, ${histogramColumns},
  EXISTS (SELECT 1 FROM markings WHERE markings.user_id = @user AND markings.meal_id = meals.meal_id) AS marked,
  (SELECT rating FROM ratings WHERE ratings.meal_id = meals.meal_id AND ratings.user_id = @user) AS personal_rating`;

const mostRecentFirst = 'ORDER BY served_at DESC, meal_id DESC LIMIT @limit';
const afterPosition = '(served_at, meal_id) < (@served_at, @meal_id)';

/** Every read is one statement, so its cost in queries is the same for one meal or a hundred. */
export class SqliteMealQueries implements MealQueries {
  private readonly byIds: Statement<{ user: UserId; ids: string }, ViewRow>;
  private readonly servedBetween: Statement<{ user: UserId; from: number; until: number }, ViewRow>;
  private readonly marked: PageStatements;
  private readonly rated: PageStatements;

  constructor(db: Database) {
    // json_each turns one JSON array parameter into a list: one statement whatever the number of ids.
    this.byIds = db.prepare(`SELECT ${viewColumns} FROM meals
      WHERE meal_id IN (SELECT value FROM json_each(@ids))`);
    this.servedBetween = db.prepare(`SELECT ${viewColumns} FROM meals
      WHERE served_at >= @from AND served_at < @until ORDER BY served_at, meal_id`);
    this.marked = pageStatements(db, 'SELECT meal_id FROM markings WHERE user_id = @user');
    this.rated = pageStatements(db, 'SELECT meal_id FROM ratings WHERE user_id = @user');
  }

  async viewsByIds(userId: UserId, ids: readonly MealId[]): Promise<MealView[]> {
    return this.byIds.all({ user: userId, ids: JSON.stringify(ids) }).map(viewFromRow);
  }

  async viewsServedBetween(userId: UserId, from: Date, until: Date): Promise<MealView[]> {
    return this.servedBetween.all({ user: userId, from: from.getTime(), until: until.getTime() }).map(viewFromRow);
  }

  async markedMeals(userId: UserId, page: PageRequest): Promise<MealView[]> {
    return readPage(this.marked, userId, page);
  }

  async ratedMeals(userId: UserId, page: PageRequest): Promise<MealView[]> {
    return readPage(this.rated, userId, page);
  }
}

interface PageStatements {
  readonly first: Statement<Pick<PageParameters, 'user' | 'limit'>, ViewRow>;
  readonly after: Statement<PageParameters, ViewRow>;
}

/** The meals whose ids `ownMealIds` selects, most recently served first; a first page and a following one. */
function pageStatements(db: Database, ownMealIds: string): PageStatements {
  const own = `SELECT ${viewColumns} FROM meals WHERE meal_id IN (${ownMealIds})`;
  return {
    first: db.prepare(`${own} ${mostRecentFirst}`),
    after: db.prepare(`${own} AND ${afterPosition} ${mostRecentFirst}`),
  };
}

function readPage(statements: PageStatements, user: UserId, { after, limit }: PageRequest): MealView[] {
  const rows =
    after === null
      ? statements.first.all({ user, limit })
      : statements.after.all({ user, limit, served_at: after.servedAt.getTime(), meal_id: after.mealId });
  return rows.map(viewFromRow);
}

function viewFromRow(row: ViewRow): MealView {
  return {
    meal: mealFromRow(row),
    histogram: histogramFromRow(row),
    marked: row.marked === 1,
    personalRating: row.personal_rating,
  };
}
