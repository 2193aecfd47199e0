import {
  dishSearchKey,
  type CanteenId,
  type DishId,
  type DishSummary,
  type LabelFilter,
  isNoLabelFilter,
  noLabelFilter,
  type PageRequest,
  type PersonalMeal,
  type RatingHistogram,
  type UserId,
} from '@canteen-meals/domain';
import type { DishQueries, DishSearchPage, DishView } from '@canteen-meals/domain/ports';
import type { Database, Statement } from 'better-sqlite3';
import {
  dishSummaryColumns,
  dishSummaryFromRow,
  pageStatements,
  readPage,
  type DishSummaryRow,
  type PageStatements,
  type ViewParameters,
} from './sqlite-meal-view.js';

type DishViewRow = DishSummaryRow & { names: string; marked: 0 | 1; personal_histogram: string };

interface SearchParameters {
  canteen: CanteenId | null;
  pattern: string;
  after: DishId | null;
  limit: number;
  as_of: number;
  filtered: 0 | 1;
  without: string;
  only: string;
}

/** Like SqliteMealQueries, every read is one statement, whatever the number of servings, names or dishes. */
export class SqliteDishQueries implements DishQueries {
  private readonly byId: Statement<ViewParameters & { dish: DishId }, DishViewRow>;
  private readonly servingPages: PageStatements<{ dish: DishId }>;
  private readonly searchNames: Statement<SearchParameters, DishSummaryRow>;
  private readonly servedOfCanteen: Statement<{ canteen: CanteenId; as_of: number }, DishSummaryRow>;
  private readonly markingCountsOf: Statement<{ ids: string }, { dish_id: DishId; marks: number }>;

  constructor(db: Database) {
    // The reader's figures count every serving, withdrawn ones too, as the dish's histogram does.
    this.byId = db.prepare(`SELECT ${dishSummaryColumns('dish')},
        (SELECT json_group_array(name) FROM dish_names WHERE dish_names.dish_id = dish.dish_id) AS names,
        EXISTS (SELECT 1 FROM meals AS mine JOIN markings ON markings.user_id = @user AND markings.meal_id = mine.meal_id
          WHERE mine.dish_id = dish.dish_id) AS marked,
        (SELECT json_array(coalesce(sum(rating = 1), 0), coalesce(sum(rating = 2), 0), coalesce(sum(rating = 3), 0),
            coalesce(sum(rating = 4), 0), coalesce(sum(rating = 5), 0))
          FROM meals AS mine JOIN ratings ON ratings.user_id = @user AND ratings.meal_id = mine.meal_id
          WHERE mine.dish_id = dish.dish_id) AS personal_histogram
      FROM dishes AS dish WHERE dish.dish_id = @dish`);
    this.servingPages = pageStatements(db, 'meals.dish_id = @dish');
    // The names of one canteen are one range of dish_names' primary key; \ escapes LIKE's % and _ in the text.
    this.searchNames = db.prepare(`SELECT ${dishSummaryColumns('dish')}
      FROM (SELECT DISTINCT dish_id FROM dish_names
        WHERE (@canteen IS NULL OR canteen_id = @canteen) AND search_key LIKE @pattern ESCAPE '\\' AND (@after IS NULL OR dish_id > @after)
          AND (@filtered = 0 OR EXISTS (SELECT 1 FROM meals AS serving
            WHERE serving.dish_id = dish_names.dish_id AND serving.withdrawn_at IS NULL
              AND NOT EXISTS (SELECT 1 FROM json_each(serving.labels) AS label WHERE label.value IN (SELECT value FROM json_each(@without)))
              AND (SELECT count(*) FROM json_each(serving.labels) AS label WHERE label.value IN (SELECT value FROM json_each(@only)))
                = json_array_length(@only)))
        ORDER BY dish_id LIMIT @limit) AS found
      JOIN dishes AS dish ON dish.dish_id = found.dish_id
      ORDER BY dish.dish_id`);
    // Every dish has a name, and a canteen's names are a range of dish_names' primary key: dishes itself has no index
    // by canteen. A dish is still served while one of its servings is not withdrawn (a range of meals_by_dish_served).
    this.servedOfCanteen = db.prepare(`SELECT ${dishSummaryColumns('dish')}
      FROM (SELECT DISTINCT dish_id FROM dish_names WHERE canteen_id = @canteen) AS named
      JOIN dishes AS dish ON dish.dish_id = named.dish_id
      WHERE EXISTS (SELECT 1 FROM meals AS serving WHERE serving.dish_id = dish.dish_id AND serving.withdrawn_at IS NULL)
      ORDER BY dish.dish_id`);
    // Each dish's servings (meals_by_dish_served), then each serving's markings (markings_by_meal): no table scan.
    this.markingCountsOf = db.prepare(`SELECT serving.dish_id AS dish_id, count(DISTINCT markings.user_id) AS marks
      FROM meals AS serving JOIN markings ON markings.meal_id = serving.meal_id
      WHERE serving.dish_id IN (SELECT value FROM json_each(@ids))
      GROUP BY serving.dish_id`);
  }

  async dish(dishId: DishId, reader: UserId | null, asOf: Date): Promise<DishView | undefined> {
    const row = this.byId.get({ dish: dishId, user: reader, as_of: asOf.getTime() });
    if (row === undefined) return undefined;
    return {
      dish: dishSummaryFromRow(row),
      // Sorted here as the in-memory adapter sorts (UTF-16 code units), not by SQLite's byte order.
      names: (JSON.parse(row.names) as string[]).sort(),
      personal:
        reader === null
          ? null
          : { marked: row.marked === 1, histogram: JSON.parse(row.personal_histogram) as RatingHistogram },
    };
  }

  async servings(dishId: DishId, reader: UserId | null, page: PageRequest, asOf: Date): Promise<PersonalMeal[]> {
    return readPage(this.servingPages, { dish: dishId, user: reader, as_of: asOf.getTime() }, page);
  }

  async search(
    canteenId: CanteenId | null,
    text: string,
    { after, limit }: DishSearchPage,
    asOf: Date,
    filter: LabelFilter = noLabelFilter,
  ): Promise<DishSummary[]> {
    const pattern = `%${dishSearchKey(text).replace(/[\\%_]/g, (special) => `\\${special}`)}%`;
    // Each side of the filter is a JSON array: a meal's labels are stored with their parents, so a code is carried
    // when it is among them (a label is listed once, so the count of `only` codes found is that of those carried).
    const labels = {
      filtered: isNoLabelFilter(filter) ? (0 as const) : (1 as const),
      without: JSON.stringify(filter.without),
      only: JSON.stringify(filter.only),
    };
    return this.searchNames
      .all({ canteen: canteenId, pattern, after, limit, as_of: asOf.getTime(), ...labels })
      .map(dishSummaryFromRow);
  }

  async ofCanteen(canteenId: CanteenId, asOf: Date): Promise<DishSummary[]> {
    return this.servedOfCanteen.all({ canteen: canteenId, as_of: asOf.getTime() }).map(dishSummaryFromRow);
  }

  async markingCounts(dishIds: readonly DishId[]): Promise<ReadonlyMap<DishId, number>> {
    if (dishIds.length === 0) return new Map();
    return new Map(this.markingCountsOf.all({ ids: JSON.stringify(dishIds) }).map((row) => [row.dish_id, row.marks]));
  }
}
