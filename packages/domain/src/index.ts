// The one public entry point of the domain: ports, pure transitions, use cases.
export {
  isMealId,
  maxChosenMealId,
  noMealDetails,
  withMealDetails,
  type DetailedMeal,
  type Meal,
  type MealDetails,
  type MealId,
} from './meal/meal.js';
export type { MealCatalog } from './meal/meal-catalog.js';
export {
  canonicalPrice,
  isCanonicalPrice,
  isPriceRole,
  priceRoles,
  type MealPrices,
  type PriceRole,
} from './meal/meal-prices.js';
export {
  assertValidMeals,
  mealFieldProblem,
  mealNameMaxLength,
  mealNotesMaxCount,
  mealTextMaxLength,
} from './meal/meal-validation.js';
export {
  instantOfLocalTime,
  isLocalDate,
  isLocalTime,
  isTimeZone,
  utcOffsetMs,
  type LocalDate,
  type LocalTime,
} from './menu/local-time.js';
export {
  comparable,
  mealSourceKey,
  type MealSourceKey,
  type MenuCandidate,
  type SourcedMeal,
} from './menu/meal-source.js';
export type { MealSourceRepository, MenuImportScope } from './menu/meal-source-repository.js';
export type { MenuDay, MenuItem, ServiceTime } from './menu/menu.js';
export {
  planMenuImport,
  sameMeal,
  type MenuImportDecision,
  type MenuImportPlan,
  type MenuImportSnapshot,
} from './menu/menu-import-plan.js';
export type { MarkingRepository } from './marking/marking-repository.js';
export { isRatingValue, ratingValues, type RatingValue } from './rating/rating.js';
export {
  applyRatingChange,
  emptyHistogram,
  histogramOf,
  type RatingHistogram,
} from './rating/rating-histogram.js';
export { ratingStatistics, type RatingStatistics } from './rating/rating-statistics.js';
export { ratingPeriodMs, ratingRefusal, type RatingRefusal } from './rating/rating-rules.js';
export {
  changesAnything,
  decideRatingChange,
  type RatingChange,
  type RatingSnapshot,
} from './rating/rating-transition.js';
export type { RatingDecision, RatingRepository } from './rating/rating-repository.js';
export { systemClock, type Clock } from './shared/clock.js';
export { DomainError, domainErrorCodes, isDomainError, type DomainErrorCode } from './shared/domain-error.js';
export { isStorageUnavailable, StorageUnavailableError } from './shared/storage-unavailable.js';
export { hasControlCharacter, isStorableText } from './shared/storable-text.js';
export { isUserId, userIdMaxLength, type UserId } from './shared/user-id.js';
export { MarkMeal, type MarkMealCommand, type MarkMealResult } from './use-cases/mark-meal.js';
export { RateMeal, type RateMealCommand, type RateMealResult } from './use-cases/rate-meal.js';
export { UpsertMeals } from './use-cases/upsert-meals.js';
export { localDayRange, type InstantRange } from './calendar/local-day.js';
export type { MealOverview } from './reading/meal-overview.js';
export { defaultPageSize, maxPageSize, type MealPage } from './reading/meal-page.js';
export type { MealQueries } from './reading/meal-queries.js';
export type { MealView, PageRequest, ServedPosition } from './reading/meal-view.js';
export type { ErasedUserData, UserData, UserDataRepository } from './user-data/user-data-repository.js';
export { EraseUserData } from './use-cases/erase-user-data.js';
export { ExportUserData, type UserDataExport } from './use-cases/export-user-data.js';
export { GetMeal } from './use-cases/get-meal.js';
export { GetMeals, maxMealIdsPerRead, type GetMealsQuery, type GetMealsResult } from './use-cases/get-meals.js';
export { ListMarkedMeals, type ListUserMealsQuery } from './use-cases/list-marked-meals.js';
export { ListRatedMeals } from './use-cases/list-rated-meals.js';
export { ImportMenu, type ImportMenuCommand } from './use-cases/import-menu.js';
export { createUseCases, type Repositories, type UseCaseOptions, type UseCases } from './use-cases/create-use-cases.js';
