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
import type { Pool } from 'pg';
import {
  dishSummaryColumns,
  dishSummaryFromRow,
  mostRecentFirst,
  readViews,
  servingFigures,
  StatementParameters,
  type DishSummaryRow,
} from './meal-views.js';

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
 * by id, at most $4, with their figures as of $5. With a label filter ($6 false: none), only those of which a serving
 * that is not withdrawn carries none of the codes $7 and all of $8 (meals are written with their labels' parents).
 */
const dishSearch = `SELECT ${dishSummaryColumns('dish', 'figures')}
  FROM dishes dish
  CROSS JOIN LATERAL (${servingFigures('dish.dish_id', '$5')}) AS figures
  WHERE dish.dish_id IN (SELECT dish_id FROM dish_names WHERE ($1::text IS NULL OR canteen_id = $1::text) AND search_key LIKE $2 ESCAPE '\\')
    AND ($3::bigint IS NULL OR dish.dish_id > $3::bigint)
    AND (NOT $6::boolean OR EXISTS (SELECT 1 FROM meals serving
      WHERE serving.dish_id = dish.dish_id AND serving.withdrawn_at IS NULL
        AND NOT serving.labels ?| $7::text[] AND serving.labels ?& $8::text[]))
  ORDER BY dish.dish_id
  LIMIT $4`;

/**
 * The dishes of canteen $1 that have a serving that is not withdrawn, with their figures as of $2, by id. The canteen's
 * dishes are found by their names (dish_names' primary key leads with the canteen; dishes has no index by canteen).
 */
const servedDishesOfCanteen = `SELECT ${dishSummaryColumns('dish', 'figures')}
  FROM dishes dish
  CROSS JOIN LATERAL (${servingFigures('dish.dish_id', '$2')}) AS figures
  WHERE dish.dish_id IN (SELECT dish_id FROM dish_names WHERE canteen_id = $1)
    AND EXISTS (SELECT 1 FROM meals serving WHERE serving.dish_id = dish.dish_id AND serving.withdrawn_at IS NULL)
  ORDER BY dish.dish_id`;

/**
 * How many users marked a serving of each of the dishes $1 (each user once per dish): each dish's servings by the index
 * meals_by_dish, then their markings by markings_by_meal.
 */
const dishMarkingCounts = `SELECT serving.dish_id, count(DISTINCT markings.user_id)::int AS marks
  FROM meals serving JOIN markings ON markings.meal_id = serving.meal_id
  WHERE serving.dish_id = ANY ($1::bigint[])
  GROUP BY serving.dish_id`;

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
  async search(
    canteenId: CanteenId | null,
    text: string,
    { after, limit }: DishSearchPage,
    asOf: Date,
    filter: LabelFilter = noLabelFilter,
  ): Promise<DishSummary[]> {
    const pattern = `%${dishSearchKey(text).replace(/[\\%_]/gu, (character) => `\\${character}`)}%`;
    const labels = [!isNoLabelFilter(filter), filter.without, filter.only];
    const { rows } = await this.pool.query<DishSummaryRow>(dishSearch, [
      canteenId,
      pattern,
      after,
      limit,
      asOf.getTime(),
      ...labels,
    ]);
    return rows.map(dishSummaryFromRow);
  }

  async ofCanteen(canteenId: CanteenId, asOf: Date): Promise<DishSummary[]> {
    const { rows } = await this.pool.query<DishSummaryRow>(servedDishesOfCanteen, [canteenId, asOf.getTime()]);
    return rows.map(dishSummaryFromRow);
  }

  async markingCounts(dishIds: readonly DishId[]): Promise<ReadonlyMap<DishId, number>> {
    if (dishIds.length === 0) return new Map();
    const { rows } = await this.pool.query<{ dish_id: string; marks: number }>(dishMarkingCounts, [dishIds]);
    return new Map(rows.map((row) => [Number(row.dish_id), row.marks]));
  }
}
