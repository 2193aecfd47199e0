import { defaultUpcomingDays, maxUpcomingDays, maxUpcomingServings } from '@canteen-meals/domain';
import { Type, type Static } from '@sinclair/typebox';
import { MealData } from './read-schemas.js';
import { AllQuery, HideQuery, LabelFilterQuery } from './label-schemas.js';

export const UpcomingQuery = Type.Object(
  {
    days: Type.Optional(
      Type.String({
        pattern: '^([1-9]|1[0-4])$',
        description: `How many days, today included, on each canteen's clocks: 1 to ${maxUpcomingDays}; ${defaultUpcomingDays} when absent`,
      }),
    ),
    ...LabelFilterQuery,
    ...AllQuery,
    ...HideQuery,
  },
  { additionalProperties: false },
);
export type UpcomingQuery = Static<typeof UpcomingQuery>;

/** A coming serving of a favourite dish: the meal as every menu answers it, and its canteen's day. */
export const UpcomingServingData = Type.Object({
  ...MealData.properties,
  date: Type.String({
    pattern: '^[0-9]{4}-[0-9]{2}-[0-9]{2}$',
    description: "The calendar day the meal is served on, on its canteen's clocks (YYYY-MM-DD)",
  }),
});
export type UpcomingServingData = Static<typeof UpcomingServingData>;

export const UpcomingData = Type.Object({
  servings: Type.Array(UpcomingServingData, {
    maxItems: maxUpcomingServings,
    description:
      'The servings that are not withdrawn, from the start of today to the end of the last day, of every dish the caller marked a serving of (any serving, past or withdrawn ones included), in serving order: served_at, then canteen_id, then menu position, then meal_id',
  }),
  truncated: Type.Boolean({
    description: `True when more than ${maxUpcomingServings} servings were due: the answer holds the earliest ${maxUpcomingServings}`,
  }),
});
export type UpcomingData = Static<typeof UpcomingData>;
