import {
  availabilityStatuses,
  maxChosenMealId,
  type AvailabilityStatus,
  mealLabelsMaxCount,
  mealNameMaxLength,
  mealNotesMaxCount,
  mealTextMaxLength,
} from '@canteen-meals/domain';
import { Type, type Static } from '@sinclair/typebox';
import { CanteenId } from './canteen-schemas.js';
import {
  exampleAvailabilityRequest,
  exampleMarkRequest,
  exampleRateRequest,
  exampleUpsertRequest,
} from './examples.js';
import { bidiRule, visibleTextWithoutBidiControls, withoutBidiControls } from './text-patterns.js';
import { LabelCode } from './label-schemas.js';

export const MealId = Type.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER, description: 'Meal id' });

/** The ids an upsert may choose: imports number their meals above the highest in use, so these never run out. */
const ChosenMealId = Type.Integer({
  minimum: 1,
  maximum: maxChosenMealId,
  description: 'Meal id chosen by the upsert, 1 to 2^31 - 1 (imported meals are numbered above the highest id in use)',
});

const textRule = `not blank; no control character (U+0000-U+001F, U+007F-U+009F), ${bidiRule}, no unpaired surrogate`;

export const MarkMealBody = Type.Object(
  { meal_id: MealId, marked: Type.Boolean({ description: 'true marks the meal as a favourite; false unmarks it' }) },
  { additionalProperties: false, examples: [exampleMarkRequest] },
);
export type MarkMealBody = Static<typeof MarkMealBody>;

export const MarkMealData = Type.Object({ marked: Type.Boolean() });
export type MarkMealData = Static<typeof MarkMealData>;

export const RateMealBody = Type.Object(
  {
    meal_id: MealId,
    rating: Type.Union([Type.Integer({ minimum: 1, maximum: 5 }), Type.Null()], {
      description: '1 to 5 sets the rating; null deletes it',
    }),
  },
  { additionalProperties: false, examples: [exampleRateRequest] },
);
export type RateMealBody = Static<typeof RateMealBody>;

export const RateMealData = Type.Object({
  rating_count: Type.Integer({ minimum: 0 }),
  rating_average: Type.Union([Type.Number(), Type.Null()], { description: 'Arithmetic mean; null without ratings' }),
  rating_median: Type.Union([Type.Number(), Type.Null()], {
    description: 'For an even count, the mean of the two middle values; null without ratings',
  }),
  rating_personal: Type.Union([Type.Integer({ minimum: 1, maximum: 5 }), Type.Null()], {
    description: "The caller's own rating; null when unrated",
  }),
});
export type RateMealData = Static<typeof RateMealData>;

/** RFC 3339 date-time with an explicit offset (Z or ±hh:mm). */
export const DateTimeWithOffset = Type.String({
  format: 'date-time',
  pattern: '^\\d{4}-\\d{2}-\\d{2}[Tt]\\d{2}:\\d{2}:\\d{2}(\\.\\d+)?([Zz]|[+-]\\d{2}:\\d{2})$',
});

const MealText = Type.String({
  minLength: 1,
  maxLength: mealTextMaxLength,
  pattern: visibleTextWithoutBidiControls,
  description: textRule,
});

/** A euro amount as a decimal string ("2.60", "3", "0.5"); stored in canonical form ("2.60", "3.00", "0.50"). */
export const PriceAmount = Type.String({
  pattern: '^\\d{1,7}(\\.\\d{1,6})?$',
  description: 'Euro amount, e.g. "2.60"',
});

/** Prices per OpenMensa role, the same object in an upsert and in every meal answer. */
export const MealPrices = Type.Object(
  {
    student: Type.Optional(PriceAmount),
    employee: Type.Optional(PriceAmount),
    pupil: Type.Optional(PriceAmount),
    other: Type.Optional(PriceAmount),
  },
  {
    additionalProperties: false,
    description: 'Euro amounts as decimal strings per OpenMensa role; a role without a price is left out',
  },
);

export const MealInput = Type.Object(
  {
    meal_id: ChosenMealId,
    name: Type.String({
      minLength: 1,
      maxLength: mealNameMaxLength,
      pattern: withoutBidiControls,
      description: textRule,
    }),
    served_at: DateTimeWithOffset,
    rateable: Type.Boolean(),
    category: Type.Optional(Type.Union([MealText, Type.Null()], { description: 'Menu line; absent means null' })),
    notes: Type.Optional(Type.Array(MealText, { maxItems: mealNotesMaxCount, description: 'Absent means []' })),
    prices: Type.Optional(MealPrices),
    canteen_id: Type.Optional(CanteenId),
    labels: Type.Optional(
      Type.Array(LabelCode, {
        maxItems: mealLabelsMaxCount,
        description:
          'Label codes of GET /api/v1/labels; absent means none. The codes the notes name are added, and every parent',
      }),
    ),
  },
  { additionalProperties: false },
);

export const maxMealsPerUpsert = 1000;

/** The longest list of closed days one upsert may carry. */
export const maxClosedDaysPerUpsert = 62;

/** A day a canteen is closed, as a JSON import says what a feed's `<day date="…"><closed/></day>` says. */
export const ClosedDayInput = Type.Object(
  {
    canteen_id: Type.Optional(CanteenId),
    date: Type.String({
      pattern: '^[0-9]{4}-[0-9]{2}-[0-9]{2}$',
      description: "A day on the canteen's calendar, YYYY-MM-DD",
    }),
  },
  { additionalProperties: false },
);

export const UpsertMealsBody = Type.Object(
  {
    meals: Type.Array(MealInput, { minItems: 1, maxItems: maxMealsPerUpsert }),
    closed_days: Type.Optional(
      Type.Array(ClosedDayInput, {
        maxItems: maxClosedDaysPerUpsert,
        description:
          "Days the canteens are closed, recorded before the meals are written (a feed's <closed/>): each day's meals still to be served are withdrawn",
      }),
    ),
  },
  {
    additionalProperties: false,
    examples: [exampleUpsertRequest],
  },
);
export type UpsertMealsBody = Static<typeof UpsertMealsBody>;

export const UpsertMealsData = Type.Object({ upserted: Type.Integer({ minimum: 0 }) });
export type UpsertMealsData = Static<typeof UpsertMealsData>;

/** What the kitchen says is left of a serving: the same closed set in every answer, event and request. */
// An enum, not a union of literals: a refusal then names every allowed value ("must be one of ...").
export const AvailabilityStatusData = Type.Unsafe<AvailabilityStatus>({
  type: 'string',
  enum: [...availabilityStatuses],
  description: 'What the kitchen says is left of the serving: available, few_left or sold_out',
});

/** `PUT /kitchen/meals/{meal_id}/availability`: the serving's new status. */
export const AvailabilityBody = Type.Object(
  { status: AvailabilityStatusData },
  { additionalProperties: false, examples: [exampleAvailabilityRequest] },
);
export type AvailabilityBody = Static<typeof AvailabilityBody>;

/** The answer of the availability PUT: the serving's availability as it now is. */
export const AvailabilityData = Type.Object({
  meal_id: MealId,
  availability: AvailabilityStatusData,
  availability_changed_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()], {
    description:
      'When the status last changed; unchanged when the same status is set again; null when it never changed',
  }),
});
export type AvailabilityData = Static<typeof AvailabilityData>;
