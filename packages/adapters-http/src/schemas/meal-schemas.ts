import { mealNameMaxLength, mealNotesMaxCount, mealTextMaxLength } from '@meals/domain';
import { Type, type Static } from '@sinclair/typebox';

export const MealId = Type.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER, description: 'Meal id' });

export const MarkMealBody = Type.Object(
  { meal_id: MealId, marked: Type.Boolean() },
  { additionalProperties: false },
);
export type MarkMealBody = Static<typeof MarkMealBody>;

export const MarkMealData = Type.Object({ marked: Type.Boolean() });

export const RateMealBody = Type.Object(
  {
    meal_id: MealId,
    rating: Type.Union([Type.Integer({ minimum: 1, maximum: 5 }), Type.Null()], {
      description: '1 to 5 sets the rating; null deletes it',
    }),
  },
  { additionalProperties: false },
);
export type RateMealBody = Static<typeof RateMealBody>;

const NullableNumber = Type.Union([Type.Number(), Type.Null()]);

export const RateMealData = Type.Object({
  rating_count: Type.Integer({ minimum: 0 }),
  rating_average: NullableNumber,
  rating_median: NullableNumber,
  rating_personal: Type.Union([Type.Integer({ minimum: 1, maximum: 5 }), Type.Null()]),
});

/** RFC 3339 date-time with an explicit offset (Z or ±hh:mm). */
export const DateTimeWithOffset = Type.String({
  format: 'date-time',
  pattern: '^\\d{4}-\\d{2}-\\d{2}[Tt]\\d{2}:\\d{2}:\\d{2}(\\.\\d+)?([Zz]|[+-]\\d{2}:\\d{2})$',
});

const MealText = Type.String({ minLength: 1, maxLength: mealTextMaxLength, pattern: '\\S' });

/** A euro amount as a decimal string ("2.60", "3", "0.5"); stored in canonical form ("2.60", "3.00", "0.50"). */
export const PriceAmount = Type.String({ pattern: '^\\d{1,7}(\\.\\d{1,6})?$', description: 'Euro amount, e.g. "2.60"' });

export const MealPricesInput = Type.Object(
  {
    student: Type.Optional(PriceAmount),
    employee: Type.Optional(PriceAmount),
    pupil: Type.Optional(PriceAmount),
    other: Type.Optional(PriceAmount),
  },
  { additionalProperties: false, description: 'Price per OpenMensa role' },
);

export const MealInput = Type.Object(
  {
    meal_id: MealId,
    name: Type.String({ minLength: 1, maxLength: mealNameMaxLength }),
    served_at: DateTimeWithOffset,
    rateable: Type.Boolean(),
    category: Type.Optional(Type.Union([MealText, Type.Null()], { description: 'Menu line; absent means null' })),
    notes: Type.Optional(Type.Array(MealText, { maxItems: mealNotesMaxCount, description: 'Absent means []' })),
    prices: Type.Optional(MealPricesInput),
  },
  { additionalProperties: false },
);

export const maxMealsPerUpsert = 1000;

export const UpsertMealsBody = Type.Object(
  { meals: Type.Array(MealInput, { minItems: 1, maxItems: maxMealsPerUpsert }) },
  { additionalProperties: false },
);
export type UpsertMealsBody = Static<typeof UpsertMealsBody>;

export const UpsertMealsData = Type.Object({ upserted: Type.Integer({ minimum: 0 }) });
