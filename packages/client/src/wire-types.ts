import type {
  ErrorCode,
  MarkMealBody,
  MarkMealData,
  RateMealBody,
  RateMealData,
  UpsertMealsBody,
  UpsertMealsData,
} from '@meals/adapters-http';
import type { Static } from '@sinclair/typebox';

// The types of the wire, from the very schemas that the server validates with: a change there is a compile error here.
export type MarkMealRequest = Static<typeof MarkMealBody>;
export type MarkMealResult = Static<typeof MarkMealData>;
export type RateMealRequest = Static<typeof RateMealBody>;
export type RatingStatistics = Static<typeof RateMealData>;
export type UpsertMealsRequest = Static<typeof UpsertMealsBody>;
export type UpsertMealsResult = Static<typeof UpsertMealsData>;

/** Every code an error envelope can carry. */
export type MealsErrorCode = ErrorCode;
