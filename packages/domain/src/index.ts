// The domain's main entry, `@canteen-meals/domain`: the use cases and the domain's values (types, pure rules, limits).
// The ports that adapters implement are the other entry, `@canteen-meals/domain/ports` (ports.ts). Names only the
// domain itself uses are not exported.
export {
  canteenIdPattern,
  canteenTextMaxLength,
  defaultCanteenId,
  isCanteenId,
  isOpenMensaId,
  maxOpenMensaId,
  maxCanteenSpellings,
  validateCanteen,
  type Canteen,
  type CanteenId,
  type CanteenRecord,
  type OpenMensaId,
  type StoredCanteen,
  type Coordinates,
} from './canteen/canteen.js';
export { openMensaIdTakenMessage } from './canteen/canteen-repository.js';
export {
  maxFeedErrorLength,
  maxFeedsPerCanteen,
  maxFeedUrlLength,
  neverFetched,
  type CanteenFeed,
  type FeedImportCounts,
  type FeedState,
} from './feed/canteen-feed.js';
export { feedRetryDelayMs } from './feed/feed-retry.js';
export { BoundedRunner, runBounded, type RunBounds } from './shared/bounded-runs.js';
export { FeedSourceError, type CancelSignal } from './feed/feed-ports.js';
export { defaultFeedRunBounds, defaultScheduledFetchDeadlineMs, RunDueFeeds } from './use-cases/run-due-feeds.js';
export { ListFeeds, listFeedsRefusals, type FeedSummary } from './use-cases/list-feeds.js';
export { RunFeed, runFeedRefusals } from './use-cases/run-feed.js';
export {
  decideDishMerge,
  dishNameKey,
  dishSearchKey,
  maxDishesPerMerge,
  sumOf,
  withoutServing,
  type DishId,
  type DishMerge,
  type DishMergeRefusal,
  type DishMergeSnapshot,
  type DishSummary,
} from './dish/dish.js';
export { GetDish, getDishRefusals, type DishDetails } from './use-cases/get-dish.js';
export { ListDishServings, listDishServingsRefusals } from './use-cases/list-dish-servings.js';
export {
  maxDishSearchLength,
  SearchDishes,
  searchDishesRefusals,
  type DishSearchResult,
} from './use-cases/search-dishes.js';
export { MergeDishes, mergeDishesRefusals } from './use-cases/merge-dishes.js';
export { WithdrawMeal, withdrawMealRefusals } from './use-cases/withdraw-meal.js';
export {
  SetMealAvailability,
  setMealAvailabilityRefusals,
  type SetMealAvailabilityCommand,
} from './use-cases/set-meal-availability.js';
export {
  availabilityChanged,
  availabilityChangedAt,
  availabilityStatuses,
  decideAvailability,
  initialAvailability,
  isAvailabilityStatus,
  type Availability,
  type AvailabilityChange,
  type AvailabilityRefusal,
  type AvailabilityRequest,
  type AvailabilitySnapshot,
  type AvailabilityStatus,
} from './availability/availability.js';
export { SetDayClosed, setDayClosedRefusals } from './use-cases/set-day-closed.js';
export {
  FindCanteenByOpenMensaId,
  findCanteenByOpenMensaIdRefusals,
} from './use-cases/find-canteen-by-openmensa-id.js';
export { GetMenuDays, maxMenuDaysRead, type MenuDayReading, type MenuDaysReading } from './use-cases/get-menu-days.js';
export { GetCanteen, getCanteenRefusals } from './use-cases/get-canteen.js';
export { ListCanteens } from './use-cases/list-canteens.js';
export { ArchiveCanteen, archiveCanteenRefusals, type ArchivedCanteen } from './use-cases/archive-canteen.js';
export { ListCanteensWithArchived } from './use-cases/list-canteens-with-archived.js';
export { SaveCanteen, saveCanteenRefusals } from './use-cases/save-canteen.js';
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
export {
  canonicalPrice,
  isCanonicalPrice,
  isPriceRole,
  priceRoles,
  type MealPrices,
  type PriceRole,
} from './meal/meal-prices.js';
export {
  validateMeals,
  mealNameMaxLength,
  mealLabelsMaxCount,
  mealNotesMaxCount,
  mealPositionMax,
  mealTextMaxLength,
} from './meal/meal-validation.js';
export {
  addDays,
  instantOfLocalTime,
  isLocalDate,
  isLocalTime,
  isTimeZone,
  utcOffsetMs,
  type LocalDate,
  type LocalTime,
} from './menu/local-time.js';
export { mealSourceKey, type MealSourceKey, type MenuCandidate, type SourcedMeal } from './menu/meal-identity.js';
export type { MenuDay, MenuItem, ServiceTime } from './menu/menu.js';
export {
  canteenDaysOf,
  decideMenuDays,
  maxMealsPerCanteenDay,
  type CanteenDay,
  type MenuDaysCheck,
  type MenuDaysDecision,
  type ServedMeal,
} from './menu/menu-day-bound.js';
export {
  planMenuImport,
  servedAfterImport,
  type MenuImportDecision,
  type MenuImportPlan,
  type MenuImportRefusal,
  type MenuImportSnapshot,
} from './menu/menu-import-plan.js';
export { isRatingValue, ratingValues, type RatingValue } from './rating/rating.js';
export {
  applyRatingChange,
  emptyHistogram,
  histogramOf,
  type RatingHistogram,
} from './rating/rating-histogram.js';
export { ratingStatistics, type RatingStatistics } from './rating/rating-statistics.js';
export {
  defaultRankingSettings,
  rankingScore,
  rankingSettingsProblem,
  type RankingSettings,
} from './rating/ranking-score.js';
export { rankingOrders, rankItems, type Ranked, type RankingCandidate, type RankingOrder } from './rating/ranking.js';
export { ratingPeriodMs, ratingRefusal, type RatingRefusal } from './rating/rating-rules.js';
export {
  changesAnything,
  decideRatingChange,
  type RatingChange,
  type RatingSnapshot,
} from './rating/rating-transition.js';
export { systemClock } from './shared/clock.js';
export {
  accept,
  mapResult,
  refusalCodes,
  refuse,
  type Refusal,
  type RefusalCode,
  type Result,
} from './shared/refusal.js';
export { isStorageUnavailable, StorageUnavailableError } from './shared/storage-unavailable.js';
export { hasControlCharacter, hasNonCharacter, isBlankText } from './shared/storable-text.js';
export { isUserId, userIdMaxLength, type UserId } from './shared/user-id.js';
export { MarkMeal, markMealRefusals, type MarkMealCommand, type MarkMealResult } from './use-cases/mark-meal.js';
export { RateMeal, rateMealRefusals, type RateMealCommand, type RateMealResult } from './use-cases/rate-meal.js';
export { UpsertMeals, upsertMealsRefusals } from './use-cases/upsert-meals.js';
export { localDayOf, localDayRange, type InstantRange, type LocalDay } from './calendar/local-day.js';
export { readingsChangeAt, type DishReading, type MealReading } from './reading/meal-reading.js';
export {
  MenuChangeHub,
  type AnnounceMenuChange,
  type MenuChange,
  type MenuChangeListener,
  type MenuChangeOrigin,
} from './reading/menu-change.js';
export { defaultPageSize, maxPageSize, type MealPage } from './reading/meal-page.js';
export {
  inOrderOfMeals,
  inServingOrder,
  type MenuPosition,
  type PersonalPart,
  type PersonalState,
} from './reading/meal-queries.js';
export type { PersonalMeal, PageRequest, ServedPosition } from './reading/personal-meal.js';
export type { ErasedUserData, UserData } from './user-data/user-data-repository.js';
export { EraseUserData } from './use-cases/erase-user-data.js';
export { ExportUserData, type UserDataExport } from './use-cases/export-user-data.js';
export { GetMeal, getMealRefusals } from './use-cases/get-meal.js';
export {
  GetMeals,
  getMealsRefusals,
  maxMealIdsPerRead,
  maxMealsPerDayPage,
  maxMenuDays,
  type GetMealsQuery,
  type GetMealsResult,
  type MenuSpan,
} from './use-cases/get-meals.js';
export { GetCanteenDay } from './use-cases/get-canteen-day.js';
export { GetPersonalPart } from './use-cases/get-personal-part.js';
export { GetPublicMenu, getMenuRefusals, type MenuDays, type PublicMenu } from './use-cases/get-public-menu.js';
export {
  GetRatingsReport,
  getRatingsReportRefusals,
  maxReportDays,
  reportPageSize,
  type RatingsReport,
  type RatingsReportQuery,
  type RatingsReportRow,
} from './use-cases/get-ratings-report.js';
export { maxRankingDays, RankMeals, rankMealsRefusals, type MealRanking } from './use-cases/rank-meals.js';
export { RankDishes, rankDishesRefusals, type DishRanking } from './use-cases/rank-dishes.js';
export type { RankingOptions } from './use-cases/ranking-options.js';
export {
  byIdSelection,
  defaultMenuSelection,
  menuSelectionKey,
  menuSelectionOf,
  selects,
  withPreferences,
  type MenuSelection,
  type MenuSelectionRequest,
} from './menu/menu-selection.js';
export {
  aversionsOf,
  noAversions,
  personalViewOf,
  showingOf,
  type Aversions,
  type PersonalReadOptions,
  type PersonalView,
  type Showing,
} from './menu/personal-view.js';
export {
  defaultRankingOrder,
  defaultRankingScope,
  rankingScopes,
  rankingSelectionOf,
  shownScoreOf,
  type RankingRequest,
  type RankingScope,
  type RankingSelection,
  type RankingSelectionProblem,
} from './menu/ranking-selection.js';
export {
  GetPersonalizedMenu,
  type GetPersonalizedMenuQuery,
  type PersonalizedMenu,
} from './use-cases/get-personalized-menu.js';
export {
  GetPersonalizedMeals,
  type GetPersonalizedMealsQuery,
  type PersonalizedMeal,
  type PersonalizedMeals,
} from './use-cases/get-personalized-meals.js';
export {
  GetPersonalizedUpcoming,
  type GetPersonalizedUpcomingQuery,
  type PersonalizedServing,
  type PersonalizedUpcoming,
} from './use-cases/get-personalized-upcoming.js';
export { GetRanking, type RankingAnswer } from './use-cases/get-ranking.js';
export { ListMarkedMeals, type ListUserMealsQuery } from './use-cases/list-marked-meals.js';
export {
  comingDaysOf,
  defaultUpcomingDays,
  GetUpcomingFavourites,
  maxUpcomingDays,
  maxUpcomingServings,
  type UpcomingFavourites,
  type UpcomingServing,
} from './use-cases/get-upcoming-favourites.js';
export { ListRatedMeals } from './use-cases/list-rated-meals.js';
export {
  ImportMenu,
  importMenuRefusals,
  maxMealsPerImportWrite,
  type ImportMenuCommand,
} from './use-cases/import-menu.js';
export {
  createUseCases,
  type FeedPorts,
  type Repositories,
  type UseCaseOptions,
  type UseCases,
  type WebhookPorts,
} from './use-cases/create-use-cases.js';
export {
  isWebhookEventType,
  webhookEventTypes,
  type FavouritesUpcoming,
  type MealAvailabilityChanged,
  type MealWithdrawn,
  type MenuPublished,
  type MenuWriteCause,
  type RecordedEvent,
  type WebhookEvent,
  type WebhookEventType,
} from './webhook/webhook-event.js';
export {
  webhookIdPattern,
  webhookSecretPattern,
  type Webhook,
  type WebhookDefinition,
  type WebhookId,
} from './webhook/webhook.js';
export type { Delivery, DeliveryState } from './webhook/webhook-ports.js';
export {
  defaultWebhookRetryBaseMs,
  disablesEndpoint,
  nextAttemptAt,
  retryDelayMs,
  webhookDisableAfterMs,
  webhookRetryCapMs,
  webhookRetryPeriodMs,
  type RetrySettings,
} from './webhook/retry-schedule.js';
export { isWebhookSecret, maxWebhookUrlLength, validateWebhook } from './webhook/webhook-validation.js';
export { DeleteWebhook, deleteWebhookRefusals } from './use-cases/delete-webhook.js';
export { GetWebhook, getWebhookRefusals } from './use-cases/get-webhook.js';
export {
  ListDeliveries,
  listDeliveriesRefusals,
  maxDeliveriesPerPage,
  type DeliveryPosition,
} from './use-cases/list-deliveries.js';
export { ListWebhooks } from './use-cases/list-webhooks.js';
export { SaveWebhook, saveWebhookRefusals, type SaveWebhookCommand } from './use-cases/save-webhook.js';
export {
  DeliverWebhooks,
  defaultDeliverySettings,
  type DeliveryPass,
  type DeliverySettings,
  type StopSignal,
} from './use-cases/deliver-webhooks.js';
export { availabilityEvent, importEvents, upsertEvents, withdrawalEvent } from './webhook/menu-events.js';
export {
  addedServingsOf,
  deliveriesOf,
  favouritesUpcomingEvents,
  wantedServing,
  type FavouriteServing,
} from './webhook/favourites-events.js';
export { eventIdOf, recordedEventOf, storedEventData, subjectOf } from './webhook/stored-event.js';
export {
  isLabelCode,
  labelCodePattern,
  labelOf,
  labelVocabulary,
  unknownLabelCodes,
  withParents,
  type Label,
  type LabelCode,
  type LabelKind,
} from './label/label.js';
export {
  bothFilters,
  isNoLabelFilter,
  labelFilterKey,
  labelFilterOf,
  maxFilterCodes,
  noLabelFilter,
  passesLabelFilter,
  type LabelFilter,
} from './label/label-filter.js';
export { builtInNoteLabels, normalizedNote, NoteLabels } from './label/note-labels.js';
export { builtInPlaceholderNames, PlaceholderNames, placeholderLabel } from './label/placeholder.js';
export { MealLabelling } from './label/meal-labelling.js';
export type { DishAversion, PersonPreferences } from './preference/preference-repository.js';
export { AvoidDish, avoidDishRefusals, maxAversionsPerPerson } from './use-cases/avoid-dish.js';
export { GetPreferences } from './use-cases/get-preferences.js';
export { ListAversions, type AversionPage } from './use-cases/list-aversions.js';
export { SavePreferences, savePreferencesRefusals } from './use-cases/save-preferences.js';
export {
  base64urlBytes,
  endpointOrigin,
  maxPushEndpointLength,
  maxPushSubscriptionsPerPerson,
  pushSubscriptionProblem,
  type NewPushSubscription,
  type PushSubscription,
  type PushSubscriptionProblem,
} from './push/push-subscription.js';
export {
  defaultNotificationSettings,
  notificationLanguages,
  type NotificationLanguage,
  type NotificationSettings,
} from './push/notification-settings.js';
export { createPushUseCases, type PushUseCaseDeps, type PushUseCaseSet } from './use-cases/create-push-use-cases.js';
export { maxPushPayloadBytes, payloadJson } from './push/push-messages.js';
export { GetNotificationSettings } from './use-cases/get-notification-settings.js';
export { ListPushSubscriptions } from './use-cases/list-push-subscriptions.js';
export { RemovePushSubscription } from './use-cases/remove-push-subscription.js';
export { SaveNotificationSettings } from './use-cases/save-notification-settings.js';
export { SavePushSubscription, savePushSubscriptionRefusals } from './use-cases/save-push-subscription.js';
export { SendTestPush, type TestPushOutcome } from './use-cases/send-test-push.js';
export { digestLateLimitMs, RunPushDigests, type DigestRun } from './use-cases/run-push-digests.js';
export { NotifySoldOut } from './use-cases/notify-sold-out.js';
export {
  DeliverPushes,
  defaultPushDeliverySettings,
  pushRetryCapMs,
  type PushAttemptOutcome,
  type PushDeliverySettings,
  type PushPass,
} from './use-cases/deliver-pushes.js';
export {
  grantsOf,
  isStaffScope,
  isWithoutGrants,
  noGrants,
  staffScopes,
  type AccessGrants,
  type Grant,
  type StaffScope,
} from './access/access-grants.js';
export {
  accessRefusal,
  accessSummaryOf,
  canteensAllowed,
  effectiveScopes,
  implies,
  mayAct,
  mayActSomewhere,
  type AccessSummary,
} from './access/access-policy.js';
export { LocateMeals } from './access/locate-meals.js';
export {
  auditActions,
  auditRecordOf,
  isAuditAction,
  type AuditAction,
  type AuditActor,
  type AuditEntry,
  type AuditNote,
  type AuditRecord,
  type AuditSummary,
  type AuditValue,
} from './audit/audit-entry.js';
export {
  auditEntryMatches,
  compareAuditEntriesNewestFirst,
  type AuditCursor,
  type AuditFilter,
} from './audit/audit-log.js';
export {
  availabilityAudit,
  canteenArchiveAudit,
  canteenSaveAudit,
  dayClosureAudit,
  dishMergeAudit,
  feedFetchAuditRecord,
  menuUpsertAudit,
  webhookDeleteAudit,
  webhookSaveAudit,
  withdrawalAudit,
  type DishMergeOutcome,
  type MenuUpsertOutcome,
  type WithdrawalOutcome,
} from './audit/audit-notes.js';
export {
  ListAuditEntries,
  listAuditEntriesRefusals,
  maxAuditPageSize,
  type AuditPage,
  type ListAuditEntriesQuery,
} from './use-cases/list-audit-entries.js';
export { DeleteExpiredAuditEntries, defaultAuditRetentionDays } from './use-cases/delete-expired-audit-entries.js';
