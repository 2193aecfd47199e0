import type { Database } from 'better-sqlite3';
import { createSqlitePushStore } from './sqlite-push-store.js';
import { GroupCommit } from './group-commit.js';
import { SqliteAuditLog } from './sqlite-audit-log.js';
import { SqliteAvailabilityRepository } from './sqlite-availability-repository.js';
import { SqliteCanteenRepository } from './sqlite-canteen-repository.js';
import { SqliteDishQueries } from './sqlite-dish-queries.js';
import { SqliteDishRepository } from './sqlite-dish-repository.js';
import { SqliteFeedStateRepository } from './sqlite-feed-state-repository.js';
import type { SqliteStorageHealth } from './storage-health.js';
import { SqliteClosedDayRepository } from './sqlite-closed-day-repository.js';
import { SqliteMarkingRepository } from './sqlite-marking-repository.js';
import { SqliteMealCatalog } from './sqlite-meal-catalog.js';
import { SqliteMealQueries } from './sqlite-meal-queries.js';
import { SqliteMealSourceRepository } from './sqlite-meal-source-repository.js';
import { SqliteRatingRepository } from './sqlite-rating-repository.js';
import { SqliteUserDataRepository } from './sqlite-user-data-repository.js';
import { SqlitePreferenceRepository } from './sqlite-preference-repository.js';
import { SqliteWebhookOutbox } from './sqlite-webhook-outbox.js';
import { SqliteWebhookRepository } from './sqlite-webhook-repository.js';

/** Every repository over one open database. */
export function createSqliteAdapters(db: Database, health?: SqliteStorageHealth) {
  // One group per connection: the markings and ratings of one turn of the event loop share a commit.
  const writes = new GroupCommit(db, health);
  return {
    meals: new SqliteMealCatalog(db, health),
    markings: new SqliteMarkingRepository(db, writes),
    ratings: new SqliteRatingRepository(db, writes),
    queries: new SqliteMealQueries(db),
    userData: new SqliteUserDataRepository(db, health),
    mealSources: new SqliteMealSourceRepository(db),
    canteens: new SqliteCanteenRepository(db, health),
    closedDays: new SqliteClosedDayRepository(db, health),
    dishes: new SqliteDishRepository(db, health),
    dishQueries: new SqliteDishQueries(db),
    feedStates: new SqliteFeedStateRepository(db, health),
    webhooks: new SqliteWebhookRepository(db, health),
    outbox: new SqliteWebhookOutbox(db, health),
    preferences: new SqlitePreferenceRepository(db, health),
    availability: new SqliteAvailabilityRepository(db, health),
    // Web Push's subscriptions, settings and outbox: in the export, gone with an erasure.
    pushStore: createSqlitePushStore(db, health),
    // The audit trail: the repositories above append to it in their changes' transactions.
    audit: new SqliteAuditLog(db, health),
  };
}
