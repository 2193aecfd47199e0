export { FixedClock } from './fixed-clock.js';
export { createInMemoryAdapters, createInMemoryPushStore } from './in-memory-adapters.js';
export { InMemoryAuditLog } from './in-memory-audit-log.js';
export { InMemoryAvailabilityRepository } from './in-memory-availability-repository.js';
export { InMemoryCanteenRepository } from './in-memory-canteen-repository.js';
export { InMemoryClosedDayRepository } from './in-memory-closed-day-repository.js';
export { InMemoryDatabase, type InMemoryDatabaseOptions } from './in-memory-database.js';
export { InMemoryMarkingRepository } from './in-memory-marking-repository.js';
export { InMemoryMealCatalog } from './in-memory-meal-catalog.js';
export { InMemoryMealSourceRepository } from './in-memory-meal-source-repository.js';
export { InMemoryRatingRepository } from './in-memory-rating-repository.js';
export { InMemoryMealQueries } from './in-memory-meal-queries.js';
export { InMemoryDishQueries } from './in-memory-dish-queries.js';
export { InMemoryDishRepository } from './in-memory-dish-repository.js';
export { InMemoryFeedStateRepository } from './in-memory-feed-state-repository.js';
export { InMemoryUserDataRepository } from './in-memory-user-data-repository.js';
export { InMemoryWebhookOutbox } from './in-memory-webhook-outbox.js';
export { InMemoryWebhookRepository } from './in-memory-webhook-repository.js';
export {
  InMemoryNotificationSettingsRepository,
  InMemoryPushAudience,
  InMemoryPushOutbox,
  InMemoryPushSubscriptionRepository,
} from './in-memory-push-store.js';
