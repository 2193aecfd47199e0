import { maxRankingDays } from '@canteen-meals/domain';
import { AvailabilityStatusData } from './meal-schemas.js';
import { LabelFilterQuery, MealLabels, PlaceholdersQuery } from './label-schemas.js';
import { Type, type Static } from '@sinclair/typebox';

const localDate = '^[0-9]{4}-[0-9]{2}-[0-9]{2}$';

/** `?canteen=ID` with `date`, or `from` with `to` (meals), or `scope=dishes`; `by` rating (default) or marks. */
export const RankingsQuery = Type.Object(
  {
    // Required, but checked by the route: an unknown parameter is named first, as on every route.
    canteen: Type.Optional(Type.String({ description: 'The canteen (required)' })),
    scope: Type.Optional(
      Type.Unsafe<'meals' | 'dishes'>({
        type: 'string',
        enum: ['meals', 'dishes'],
        description:
          '`meals` (default): the meals of the days asked for; `dishes`: every dish of the canteen over all its servings (no days)',
      }),
    ),
    date: Type.Optional(Type.String({ pattern: localDate, description: 'One calendar day YYYY-MM-DD (meals)' })),
    from: Type.Optional(Type.String({ pattern: localDate, description: 'First day of a range (with to; meals)' })),
    to: Type.Optional(
      Type.String({
        pattern: localDate,
        description: `Last day of a range, included; at most ${maxRankingDays} days from from`,
      }),
    ),
    by: Type.Optional(
      Type.Unsafe<'rating' | 'marks'>({
        type: 'string',
        enum: ['rating', 'marks'],
        description: '`rating` (default): by score, unrated items last; `marks`: by number of markings (favourites)',
      }),
    ),
    ...LabelFilterQuery,
    ...PlaceholdersQuery,
  },
  {
    additionalProperties: false,
    description: 'canteen, and either exactly one of date or from with to (meals), or scope=dishes without days',
  },
);
export type RankingsQuery = Static<typeof RankingsQuery>;

const Count = Type.Integer({ minimum: 0 });

const rankedFields = {
  rank: Type.Integer({
    minimum: 1,
    description: '1 for the first item, then 2, 3…: ties are broken, every item has its own',
  }),
  name: Type.String(),
  score: Type.Union([Type.Number({ minimum: 1, maximum: 5 }), Type.Null()], {
    description:
      'A lower bound of the expected rating (1 to 5) that accounts for the number of votes; null without ratings: an unrated item has no score to show, and ranks last',
  }),
  rating_count: Count,
  rating_average: Type.Union([Type.Number(), Type.Null()], { description: 'Unrounded; null without ratings' }),
  marks: Type.Optional(
    Type.Integer({
      minimum: 0,
      description: 'Only with by=marks: how many users marked it (a dish: one of its servings)',
    }),
  ),
};

export const RankedMealData = Type.Object({
  meal_id: Type.Integer({ minimum: 1 }),
  ...rankedFields,
  labels: MealLabels,
  availability: AvailabilityStatusData,
  availability_changed_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()], {
    description: 'When the kitchen last changed the availability; null until it does',
  }),
});
export type RankedMealData = Static<typeof RankedMealData>;

export const RankedDishData = Type.Object({ dish_id: Type.Integer({ minimum: 1 }), ...rankedFields });
export type RankedDishData = Static<typeof RankedDishData>;

export const RankingsData = Type.Union([
  Type.Object({
    scope: Type.Literal('meals'),
    by: Type.Union([Type.Literal('rating'), Type.Literal('marks')]),
    items: Type.Array(RankedMealData, { description: 'Every meal of the days, in rank order' }),
  }),
  Type.Object({
    scope: Type.Literal('dishes'),
    by: Type.Union([Type.Literal('rating'), Type.Literal('marks')]),
    items: Type.Array(RankedDishData, { description: 'Every dish of the canteen still served, in rank order' }),
  }),
]);
export type RankingsData = Static<typeof RankingsData>;
