import {
  dishSearchKey,
  type CanteenId,
  type DishId,
  type DishQueries,
  type DishSearchPage,
  type DishSummary,
  type DishView,
  type PageRequest,
  type PersonalMeal,
  type RatingHistogram,
  type UserId,
} from '@canteen-meals/domain';
import type { Pool } from 'pg';
import { dishSummaryColumns, dishSummaryFromRow, mostRecentFirst, readViews, servingFigures, StatementParameters, type DishSummaryRow } from './meal-views.js';

type DishViewRow = DishSummaryRow & {
  names: string[];
  marked: boolean;
  own_1: number;
  own_2: number;
  own_3: number;
  own_4: number;
  own_5: number;
};

/**
 * The dish, its figures as of $3, its names, and the reader's ($2) own marking and ratings over every serving, the
 * withdrawn ones included (as the dish's histogram counts them): one statement.
 */
const dishView = `SELECT ${dishSummaryColumns('dish', 'figures')},
    ARRAY (SELECT name FROM dish_names WHERE dish_names.dish_id = dish.dish_id) AS names,
    EXISTS (SELECT 1 FROM markings JOIN meals ON meals.meal_id = markings.meal_id
            WHERE markings.user_id = $2 AND meals.dish_id = dish.dish_id) AS marked,
    own.*
  FROM dishes dish
  CROSS JOIN LATERAL (${servingFigures('dish.dish_id', '$3')}) AS figures
  CROSS JOIN LATERAL (
    SELECT count(*) FILTER (WHERE rating = 1)::int AS own_1, count(*) FILTER (WHERE rating = 2)::int AS own_2,
      count(*) FILTER (WHERE rating = 3)::int AS own_3, count(*) FILTER (WHERE rating = 4)::int AS own_4,
      count(*) FILTER (WHERE rating = 5)::int AS own_5
    FROM ratings JOIN meals ON meals.meal_id = ratings.meal_id
    WHERE ratings.user_id = $2 AND meals.dish_id = dish.dish_id) AS own
  WHERE dish.dish_id = $1`;

/**
 * The dishes of canteen $1 one of whose names' search keys holds $2 (a LIKE pattern), above $3 (null: from the start),
 * by id, at most $4, with their figures as of $5.
 */
const dishSearch = `SELECT ${dishSummaryColumns('dish', 'figures')}
  FROM dishes dish
  CROSS JOIN LATERAL (${servingFigures('dish.dish_id', '$5')}) AS figures
  WHERE dish.dish_id IN (SELECT dish_id FROM dish_names WHERE canteen_id = $1 AND search_key LIKE $2 ESCAPE '\\')
    AND ($3::bigint IS NULL OR dish.dish_id > $3::bigint)
  ORDER BY dish.dish_id
  LIMIT $4`;

/** Every read is one statement, as MealQueries' are. */
export class PostgresDishQueries implements DishQueries {
  constructor(private readonly pool: Pool) {}

  async dish(dishId: DishId, reader: UserId | null, asOf: Date): Promise<DishView | undefined> {
    const { rows } = await this.pool.query<DishViewRow>(dishView, [dishId, reader, asOf.getTime()]);
    const row = rows[0];
    if (row === undefined) return undefined;
    const histogram: RatingHistogram = [row.own_1, row.own_2, row.own_3, row.own_4, row.own_5];
    return {
      dish: dishSummaryFromRow(row),
      // Sorted here, by UTF-16 code units as the other adapters sort: the database's collation need not agree.
      names: [...row.names].sort(),
      personal: reader === null ? null : { marked: row.marked, histogram },
    };
  }

  async servings(dishId: DishId, reader: UserId | null, page: PageRequest, asOf: Date): Promise<PersonalMeal[]> {
    const parameters = new StatementParameters();
    const ofDish = `dish_id = ${parameters.add(dishId)}::bigint`;
    return readViews(this.pool, parameters, reader, asOf, mostRecentFirst(parameters, ofDish, page));
  }

  /** The text is compared as dishSearchKey makes it, and matched literally: its %, _ and \ are escaped. */
  async search(canteenId: CanteenId, text: string, { after, limit }: DishSearchPage, asOf: Date): Promise<DishSummary[]> {
    const pattern = `%${dishSearchKey(text).replace(/[\\%_]/gu, (character) => `\\${character}`)}%`;
    const { rows } = await this.pool.query<DishSummaryRow>(dishSearch, [canteenId, pattern, after, limit, asOf.getTime()]);
    return rows.map(dishSummaryFromRow);
  }
}
