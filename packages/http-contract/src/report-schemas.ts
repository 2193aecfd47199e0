import { maxReportDays } from '@canteen-meals/domain';
import { Type, type Static } from '@sinclair/typebox';

const calendarDay = '^[0-9]{4}-[0-9]{2}-[0-9]{2}$';

/** `GET /admin/reports/ratings.csv`: one canteen's days `from` to `to`, both included. */
export const RatingsReportQuery = Type.Object(
  {
    // Required, but checked by the route: an unknown parameter is named first, as on every route.
    canteen: Type.Optional(Type.String({ description: 'The canteen (required)' })),
    from: Type.Optional(
      Type.String({ pattern: calendarDay, description: "First day YYYY-MM-DD, on the canteen's clocks (required)" }),
    ),
    to: Type.Optional(
      Type.String({
        pattern: calendarDay,
        description: `Last day YYYY-MM-DD, included (required): not before from, at most ${maxReportDays} days from it`,
      }),
    ),
  },
  { additionalProperties: false, description: 'canteen, from and to: all three' },
);
export type RatingsReportQuery = Static<typeof RatingsReportQuery>;

/**
 * The header row of the ratings report, in order: one row per meal follows. `date` is the meal's calendar day on its
 * canteen's clocks, `served_at` the instant (ISO 8601, UTC), `dish` the dish's name (the name it was first served
 * under), `name` the meal's own; `rating_average` has at most 2 decimals (a dot), `rating_average` and
 * `rating_median` are empty without ratings; `stars_1` to `stars_5` count the ratings of each value; `sold_out_at` is
 * the instant (ISO 8601, UTC) the kitchen
 * said the meal sold out, empty unless it is sold out (appended last: the columns before it keep their places).
 */
export const ratingsReportColumns = [
  'date',
  'served_at',
  'meal_id',
  'dish_id',
  'dish',
  'name',
  'category',
  'rating_count',
  'rating_average',
  'rating_median',
  'stars_1',
  'stars_2',
  'stars_3',
  'stars_4',
  'stars_5',
  'sold_out_at',
] as const;
export type RatingsReportColumn = (typeof ratingsReportColumns)[number];
