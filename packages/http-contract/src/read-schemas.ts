import { maxMealIdsPerRead, maxMealsPerDayPage, maxMenuDays, maxPageSize } from '@canteen-meals/domain';
import { Type, type Static } from '@sinclair/typebox';
import { AvailabilityStatusData, MealId, MealPrices } from './meal-schemas.js';
import { AllQuery, HideQuery, LabelFilterQuery, MealLabels, PlaceholdersQuery } from './label-schemas.js';

/** Query strings arrive as text and are never coerced: each value is matched as a string, then parsed. */
const mealIdText = '[1-9][0-9]{0,15}';

export const MealParams = Type.Object(
  {
    meal_id: Type.String({
      pattern: `^${mealIdText}$`,
      description: 'Meal id: a positive integer, no sign, no leading zero',
    }),
  },
  { additionalProperties: false },
);
export type MealParams = Static<typeof MealParams>;

/** A day of a menu query: a calendar day, or `today` and `tomorrow`, which the canteen's time zone makes a day. */
export const menuDayPattern = '^([0-9]{4}-[0-9]{2}-[0-9]{2}|today|tomorrow)$';

export const MealsQuery = Type.Object(
  {
    ids: Type.Optional(
      Type.String({
        pattern: `^${mealIdText}(,${mealIdText}){0,${maxMealIdsPerRead - 1}}$`,
        description: `Up to ${maxMealIdsPerRead} comma-separated meal ids (repeats count); each meal is answered once`,
      }),
    ),
    date: Type.Optional(
      Type.String({
        pattern: menuDayPattern,
        description:
          "A calendar day YYYY-MM-DD: the meals served that day, on each canteen's clocks; with canteen also `today` or `tomorrow`, on that canteen's calendar",
      }),
    ),
    canteen: Type.Optional(Type.String({ description: 'With date, or from and to: only this canteen' })),
    from: Type.Optional(
      Type.String({
        pattern: '^[0-9]{4}-[0-9]{2}-[0-9]{2}$',
        description: 'First day of a range (with canteen and to)',
      }),
    ),
    to: Type.Optional(
      Type.String({
        pattern: '^[0-9]{4}-[0-9]{2}-[0-9]{2}$',
        description: `Last day of a range, included; at most ${maxMenuDays} days from from`,
      }),
    ),
    cursor: Type.Optional(
      Type.String({
        description: `Every canteen's day (date without canteen) comes in pages of up to ${maxMealsPerDayPage} meals: the next_cursor of the previous page`,
      }),
    ),
    ...LabelFilterQuery,
    ...PlaceholdersQuery,
    ...AllQuery,
    ...HideQuery,
  },
  {
    additionalProperties: false,
    description:
      'Exactly one of ids, date, or from with to; canteen goes with date or from/to (and is required for a range)',
  },
);
export type MealsQuery = Static<typeof MealsQuery>;

export const PageQuery = Type.Object(
  {
    limit: Type.Optional(
      Type.String({
        pattern: `^([1-9]|[1-9][0-9]|${maxPageSize})$`,
        description: `Meals per page, 1 to ${maxPageSize}; 20 when absent`,
      }),
    ),
    cursor: Type.Optional(
      // Checked by the route, not here: whatever it holds, a cursor not handed out is invalid_cursor.
      Type.String({ description: 'The next_cursor of the previous page (opaque, for this list and caller only)' }),
    ),
  },
  { additionalProperties: false },
);
export type PageQuery = Static<typeof PageQuery>;

const Count = Type.Integer({ minimum: 0 });
const NullableNumber = Type.Union([Type.Number(), Type.Null()]);
const NullableRating = Type.Union([Type.Integer({ minimum: 1, maximum: 5 }), Type.Null()]);

export const RatingDistribution = Type.Object(
  { '1': Count, '2': Count, '3': Count, '4': Count, '5': Count },
  { description: 'How many ratings of each value 1..5 the meal holds' },
);

/** A dish over all its servings: what every meal answer carries about its dish. */
export const DishSummaryData = Type.Object({
  dish_id: Type.Integer({ minimum: 1 }),
  name: Type.String({ description: 'The name the dish was first served under' }),
  rating_count: Count,
  rating_average: NullableNumber,
  rating_median: NullableNumber,
  times_served: Type.Integer({ minimum: 0, description: 'Servings at or before now that are not withdrawn' }),
  last_served_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()], {
    description: 'The latest of those; null when none',
  }),
  next_served_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()], {
    description: 'The first serving after now that is not withdrawn; null when none',
  }),
});
export type DishSummaryData = Static<typeof DishSummaryData>;

export const MealData = Type.Object({
  meal_id: MealId,
  name: Type.String(),
  category: Type.Union([Type.String(), Type.Null()], { description: 'Menu line or counter; null when none' }),
  notes: Type.Array(Type.String(), {
    description: 'Ingredients, allergens, labels, in menu order, as the menu wrote them',
  }),
  labels: MealLabels,
  prices: MealPrices,
  served_at: Type.String({ format: 'date-time', description: 'ISO 8601, UTC' }),
  rateable: Type.Boolean(),
  canteen_id: Type.String({ description: 'The canteen that serves the meal' }),
  rating_open: Type.Boolean({ description: 'Whether POST /rate-meal would accept a rating of this meal right now' }),
  rating_count: Count,
  rating_average: NullableNumber,
  rating_median: NullableNumber,
  rating_distribution: RatingDistribution,
  marked: Type.Boolean(),
  rating_personal: NullableRating,
  avoided: Type.Optional(
    Type.Boolean({
      description: 'Personalized menus only: true when the caller avoids the dish (PUT /me/aversions/{dish_id})',
    }),
  ),
  dish_id: Type.Integer({ minimum: 1, description: 'The dish this meal is a serving of' }),
  dish: DishSummaryData,
  availability: AvailabilityStatusData,
  availability_changed_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()], {
    description: 'When the kitchen last changed the availability; null until it does (every serving starts available)',
  }),
});
export type MealData = Static<typeof MealData>;

export const MealsData = Type.Object({
  meals: Type.Array(MealData),
  unknown_ids: Type.Array(MealId, { description: 'Requested ids that name no meal; empty for a date' }),
  closed_days: Type.Optional(
    Type.Array(Type.String(), {
      description:
        "Only for a canteen's days: those of them the canteen is closed on (a feed's <closed/>, an admin's word), ascending",
    }),
  ),
  next_cursor: Type.Optional(
    Type.Union([Type.String(), Type.Null()], {
      description: `Only for every canteen's day (date without canteen): the cursor of the next page of up to ${maxMealsPerDayPage} meals; null on the last`,
    }),
  ),
});

/** A meal as the public menu answers it: everything but the reader's own marking and rating. */
export const PublicMealData = Type.Omit(MealData, ['marked', 'rating_personal', 'avoided']);
export type PublicMealData = Static<typeof PublicMealData>;

export const PublicMealsData = Type.Object({
  meals: Type.Array(PublicMealData),
  unknown_ids: Type.Array(MealId, { maxItems: 0, description: 'Always empty: a menu names no ids' }),
  closed_days: Type.Optional(
    Type.Array(Type.String(), {
      description:
        "Only for a canteen's days: those of them the canteen is closed on (a feed's <closed/>, an admin's word), ascending",
    }),
  ),
});

/** The days of one canteen's menu: `date`, or `from` with `to`. */
export const MenuDaysQuery = Type.Object(
  {
    // Required, but checked by the route: an unknown parameter is named first, as on every route.
    canteen: Type.Optional(Type.String({ description: 'The canteen (required)' })),
    date: Type.Optional(
      Type.String({
        pattern: menuDayPattern,
        description: "One calendar day YYYY-MM-DD, or `today` or `tomorrow` on the canteen's calendar",
      }),
    ),
    from: Type.Optional(
      Type.String({ pattern: '^[0-9]{4}-[0-9]{2}-[0-9]{2}$', description: 'First day of a range (with to)' }),
    ),
    to: Type.Optional(
      Type.String({
        pattern: '^[0-9]{4}-[0-9]{2}-[0-9]{2}$',
        description: `Last day of a range, included; at most ${maxMenuDays} days from from`,
      }),
    ),
    ...LabelFilterQuery,
    ...PlaceholdersQuery,
    ...AllQuery,
    ...HideQuery,
  },
  { additionalProperties: false, description: 'canteen, and exactly one of date or from with to' },
);
export type MenuDaysQuery = Static<typeof MenuDaysQuery>;

/** The caller's own state of one meal: the personal overlay of a menu. */
export const PersonalStateData = Type.Object({
  meal_id: MealId,
  marked: Type.Boolean(),
  rating_personal: NullableRating,
});
export type PersonalStateData = Static<typeof PersonalStateData>;

export const PersonalStatesData = Type.Object({
  meals: Type.Array(PersonalStateData, {
    description: 'Only the meals of those days that the caller has marked or rated, in menu order',
  }),
});

export const MealPageData = Type.Object({
  meals: Type.Array(MealData),
  next_cursor: Type.Union([Type.String(), Type.Null()], { description: 'null on the last page' }),
});
