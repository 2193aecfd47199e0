import { Type, type Static } from '@sinclair/typebox';
import { AvailabilityStatusData, MealId } from './meal-schemas.js';
import { RatingDistribution } from './read-schemas.js';

const Count = Type.Integer({ minimum: 0 });
const NullableNumber = Type.Union([Type.Number(), Type.Null()]);

export const LiveQuery = Type.Object(
  {
    // Required, but checked by the route: an unknown parameter is named first, as on every route.
    canteen: Type.Optional(Type.String({ description: 'The canteen (required)' })),
    date: Type.Optional(
      Type.String({ pattern: '^[0-9]{4}-[0-9]{2}-[0-9]{2}$', description: 'The calendar day YYYY-MM-DD (required)' }),
    ),
  },
  { additionalProperties: false, description: 'canteen and date' },
);
export type LiveQuery = Static<typeof LiveQuery>;

/** One meal's figures as a live stream sends them: the `data` of a `stats` event, and each meal of a `snapshot`. */
export const LiveMealStatsData = Type.Object({
  meal_id: MealId,
  rating_count: Count,
  rating_average: NullableNumber,
  rating_median: NullableNumber,
  rating_distribution: RatingDistribution,
  dish: Type.Object(
    {
      dish_id: Type.Integer({ minimum: 1 }),
      rating_count: Count,
      rating_average: NullableNumber,
      rating_median: NullableNumber,
    },
    { description: "The figures of the meal's dish over all its servings" },
  ),
});
export type LiveMealStatsData = Static<typeof LiveMealStatsData>;

/** A meal of a `snapshot`: its figures, and what the kitchen says is left of it (`availability` events follow it). */
export const LiveSnapshotMealData = Type.Composite([
  LiveMealStatsData,
  Type.Object({
    availability: AvailabilityStatusData,
    availability_changed_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  }),
]);
export type LiveSnapshotMealData = Static<typeof LiveSnapshotMealData>;

/** The `data` of a `snapshot` event: every meal of the day, in menu order. */
export const LiveSnapshotData = Type.Object({ meals: Type.Array(LiveSnapshotMealData) });
export type LiveSnapshotData = Static<typeof LiveSnapshotData>;

/** The `data` of an `availability` event: the kitchen changed what is left of one serving. */
export const LiveAvailabilityData = Type.Object({
  meal_id: MealId,
  availability: AvailabilityStatusData,
  availability_changed_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
});
export type LiveAvailabilityData = Static<typeof LiveAvailabilityData>;
