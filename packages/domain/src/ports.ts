// The ports: what an adapter implements to bring its own storage, clock, feeds or senders, and the types their
// signatures use. Use cases and values come from the main entry, `@canteen-meals/domain`.
export type { CanteenRepository } from './canteen/canteen-repository.js';
export type { FeedUrlCheck, ScheduleCheck } from './feed/canteen-feed.js';
export type {
  FeedSource,
  FeedStateRepository,
  FetchedFeed,
  MenuFeedReader,
  MenuFeedReading,
  MenuFeedWriter,
  NextRun,
} from './feed/feed-ports.js';
export type { DishQueries, DishSearchPage, DishView } from './dish/dish-queries.js';
export type { DishMergeDecision, DishRepository } from './dish/dish-repository.js';
export type { AvailabilityDecision, AvailabilityRepository } from './availability/availability-repository.js';
export type { ClosedDayRepository, DayClosure } from './menu/closed-day-repository.js';
export type { MealCatalog, Withdrawal } from './meal/meal-catalog.js';
export type { MealSourceRepository, MenuImportScope } from './menu/meal-source-repository.js';
export type { MarkingRepository } from './marking/marking-repository.js';
export type { RatingDecision, RatingRepository } from './rating/rating-repository.js';
export type { Clock } from './shared/clock.js';
export type { MealQueries, MenuPageRequest, ServingWindow } from './reading/meal-queries.js';
export type { ErasedFromMeal, UserDataRepository } from './user-data/user-data-repository.js';
export type { SelectedMenu, SelectedMenus } from './menu/selected-menus.js';
export type {
  AttemptOutcome,
  ClaimedDelivery,
  ClaimRoom,
  WebhookOutbox,
  WebhookRepository,
} from './webhook/webhook-ports.js';
export type {
  NewWebhookSecret,
  SendOutcome,
  WebhookSender,
  WebhookUrlCheck,
} from './webhook/webhook-delivery-ports.js';
export type { PreferenceRepository } from './preference/preference-repository.js';
export type { NotificationSettingsRepository } from './push/notification-settings.js';
export type {
  ClaimedPush,
  MarkedServing,
  PushAudience,
  PushEntry,
  PushOutbox,
  PushSender,
  PushSendOutcome,
  PushSettlement,
  PushStore,
  PushSubscriptionRepository,
} from './push/push-ports.js';
export type { AuditLog, AuditQuery } from './audit/audit-log.js';
