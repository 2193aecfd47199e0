import { InMemoryAuditLog } from './in-memory-audit-log.js';
import { InMemoryAvailabilityRepository } from './in-memory-availability-repository.js';
import { InMemoryClosedDayRepository } from './in-memory-closed-day-repository.js';
import { InMemoryCanteenRepository } from './in-memory-canteen-repository.js';
import {
  InMemoryNotificationSettingsRepository,
  InMemoryPushAudience,
  InMemoryPushOutbox,
  InMemoryPushSubscriptionRepository,
} from './in-memory-push-store.js';
import { InMemoryDatabase } from './in-memory-database.js';
import { InMemoryDishQueries } from './in-memory-dish-queries.js';
import { InMemoryDishRepository } from './in-memory-dish-repository.js';
import { InMemoryFeedStateRepository } from './in-memory-feed-state-repository.js';
import { InMemoryMarkingRepository } from './in-memory-marking-repository.js';
import { InMemoryMealCatalog } from './in-memory-meal-catalog.js';
import { InMemoryMealQueries } from './in-memory-meal-queries.js';
import { InMemoryMealSourceRepository } from './in-memory-meal-source-repository.js';
import { InMemoryRatingRepository } from './in-memory-rating-repository.js';
import { InMemoryUserDataRepository } from './in-memory-user-data-repository.js';
import { InMemoryPreferenceRepository } from './in-memory-preference-repository.js';
import { InMemoryWebhookOutbox } from './in-memory-webhook-outbox.js';
import { InMemoryWebhookRepository } from './in-memory-webhook-repository.js';

/** Every repository over one shared in-memory database. */
export function createInMemoryAdapters(db: InMemoryDatabase = new InMemoryDatabase()) {
  return {
    db,
    meals: new InMemoryMealCatalog(db),
    markings: new InMemoryMarkingRepository(db),
    ratings: new InMemoryRatingRepository(db),
    queries: new InMemoryMealQueries(db),
    userData: new InMemoryUserDataRepository(db),
    mealSources: new InMemoryMealSourceRepository(db),
    canteens: new InMemoryCanteenRepository(db),
    closedDays: new InMemoryClosedDayRepository(db),
    dishes: new InMemoryDishRepository(db),
    dishQueries: new InMemoryDishQueries(db),
    feedStates: new InMemoryFeedStateRepository(db),
    webhooks: new InMemoryWebhookRepository(db),
    outbox: new InMemoryWebhookOutbox(db),
    preferences: new InMemoryPreferenceRepository(db),
    availability: new InMemoryAvailabilityRepository(db),
    pushStore: createInMemoryPushStore(db),
    audit: new InMemoryAuditLog(db),
  };
}

/** The push notifications' state in the same in-memory database. */
export function createInMemoryPushStore(db: InMemoryDatabase = new InMemoryDatabase()) {
  return {
    pushSubscriptions: new InMemoryPushSubscriptionRepository(db),
    notificationSettings: new InMemoryNotificationSettingsRepository(db),
    pushOutbox: new InMemoryPushOutbox(db),
    pushAudience: new InMemoryPushAudience(db),
  };
}
