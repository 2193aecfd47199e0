import type {
  ErrorCode,
  MarkMealBody,
  MarkMealData,
  MealData,
  MealPageData,
  MealsData,
  RateMealBody,
  RateMealData,
  UpsertMealsBody,
  UpsertMealsData,
  UserDataErasureData,
  UserDataExportData,
} from '@canteen-meals/http-contract';
import type { Static } from '@sinclair/typebox';

// The types of the wire, from the very schemas that the server validates with: a change there is a compile error here.
export type MarkMealRequest = Static<typeof MarkMealBody>;
export type MarkMealResult = Static<typeof MarkMealData>;
export type RateMealRequest = Static<typeof RateMealBody>;
export type RatingStatistics = Static<typeof RateMealData>;
export type UpsertMealsRequest = Static<typeof UpsertMealsBody>;
export type UpsertMealsResult = Static<typeof UpsertMealsData>;
export type MealView = Static<typeof MealData>;
export type MealsResult = Static<typeof MealsData>;
export type MealPage = Static<typeof MealPageData>;
export type UserDataExport = Static<typeof UserDataExportData>;
export type UserDataErasure = Static<typeof UserDataErasureData>;

// Query strings are text on the wire (the server matches each against a pattern); the client takes numbers.
/** `GET /meals`: exactly one of a list of ids (up to 100) or a calendar day `YYYY-MM-DD` in the canteen's zone. */
export type MealsQuery = { readonly ids: readonly number[]; readonly date?: never } | { readonly date: string; readonly ids?: never };
/** A page of a list: `limit` 1 to 100 (20 when absent), `cursor` the previous page's `next_cursor`. */
export interface PageRequest {
  readonly limit?: number;
  readonly cursor?: string;
}

/** Every code an error envelope can carry. */
export type MealsErrorCode = ErrorCode;
