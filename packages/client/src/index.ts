export { isMealsErrorCode, MealsApiError, type MealsApiErrorSource } from './meals-api-error.js';
export {
  apiPrefix,
  createMealsClient,
  type CallOptions,
  type MealsClient,
  type MealsClientOptions,
} from './meals-client.js';
export type {
  MarkMealRequest,
  MarkMealResult,
  MealPage,
  MealsErrorCode,
  MealsQuery,
  MealsResult,
  MealView,
  PageRequest,
  RateMealRequest,
  RatingStatistics,
  UpsertMealsRequest,
  UpsertMealsResult,
  UserDataErasure,
  UserDataExport,
} from './wire-types.js';
