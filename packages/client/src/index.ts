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
  MealsErrorCode,
  RateMealRequest,
  RatingStatistics,
  UpsertMealsRequest,
  UpsertMealsResult,
} from './wire-types.js';
