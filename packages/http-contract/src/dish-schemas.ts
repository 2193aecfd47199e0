import { maxDishesPerMerge, maxDishSearchLength, maxPageSize } from '@canteen-meals/domain';
import { LabelFilterQuery } from './label-schemas.js';
import { Type, type Static } from '@sinclair/typebox';
import { DishSummaryData, MealData, RatingDistribution } from './read-schemas.js';

export const DishParams = Type.Object({
  dish_id: Type.String({
    pattern: '^[1-9][0-9]{0,15}$',
    description: 'Dish id: a positive integer, no sign, no leading zero',
  }),
});

const Limit = Type.String({
  pattern: `^([1-9]|[1-9][0-9]|${maxPageSize})$`,
  description: `1 to ${maxPageSize}; 20 when absent`,
});
const Cursor = Type.String({ description: 'The next_cursor of the previous page (opaque)' });

export const DishQuery = Type.Object(
  { limit: Type.Optional(Limit), cursor: Type.Optional(Cursor), ...LabelFilterQuery },
  {
    additionalProperties: false,
    description: 'Pages of the servings; without= and only= filter each page (a page may then hold fewer)',
  },
);

const dishSearchFilter =
  'without= and only= keep the dishes of which a serving that is not withdrawn passes the filter; each page is full';

export const DishSearchQuery = Type.Object(
  {
    q: Type.Optional(
      Type.String({
        maxLength: maxDishSearchLength,
        description:
          'Any part of a name of the dish (case, width and accents do not matter); absent or empty: every dish, by id',
      }),
    ),
    limit: Type.Optional(Limit),
    cursor: Type.Optional(Cursor),
    ...LabelFilterQuery,
  },
  {
    additionalProperties: false,
    description: dishSearchFilter,
  },
);

/** GET /dishes: the same search across canteens, or in one named by `canteen`. */
export const AllDishSearchQuery = Type.Object(
  {
    q: DishSearchQuery.properties.q,
    canteen: Type.Optional(Type.String({ description: 'Only this canteen; absent: every canteen' })),
    limit: Type.Optional(Limit),
    cursor: Type.Optional(Cursor),
    ...LabelFilterQuery,
  },
  { additionalProperties: false, description: dishSearchFilter },
);

/** One dish with its distribution, its names and one page of its servings; with a token, the caller's own figures. */
export const DishData = Type.Object({
  ...DishSummaryData.properties,
  canteen_id: Type.String(),
  rating_distribution: RatingDistribution,
  names: Type.Array(Type.String(), { description: 'Every name the dish is known by, merged ones included' }),
  personal: Type.Union(
    [
      Type.Object({
        marked: Type.Boolean({ description: 'Whether the caller marked any serving' }),
        rating_count: Type.Integer({ minimum: 0 }),
        rating_average: Type.Union([Type.Number(), Type.Null()]),
        rating_distribution: RatingDistribution,
      }),
      Type.Null(),
    ],
    { description: "The caller's own ratings over every serving; null without a token" },
  ),
  servings: Type.Array(MealData, { description: 'Servings that are not withdrawn, most recently served first' }),
  next_cursor: Type.Union([Type.String(), Type.Null()], { description: 'The next page of servings; null on the last' }),
});
export type DishData = Static<typeof DishData>;

export const DishSearchData = Type.Object({
  dishes: Type.Array(Type.Object({ ...DishSummaryData.properties, canteen_id: Type.String() }), {
    description: 'By dish id',
  }),
  next_cursor: Type.Union([Type.String(), Type.Null()], { description: 'null on the last page' }),
});
export type DishSearchData = Static<typeof DishSearchData>;

export const MergeDishesBody = Type.Object(
  {
    from: Type.Array(Type.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER }), {
      minItems: 1,
      maxItems: maxDishesPerMerge,
      description: 'The dishes to merge into the one of the path',
    }),
  },
  { additionalProperties: false, examples: [{ from: [7] }] },
);
export type MergeDishesBody = Static<typeof MergeDishesBody>;

export const WithdrawMealData = Type.Object({
  meal_id: Type.Integer({ minimum: 1 }),
  withdrawn_at: Type.String({ format: 'date-time', description: 'When it was withdrawn (the first time)' }),
});
export type WithdrawMealData = Static<typeof WithdrawMealData>;
