export type { Database as SqliteDatabase } from 'better-sqlite3';
export { loadMigrations, migrate, type Migration, type MigrationSettings } from './migrations.js';
export {
  defaultCanteenName,
  openSqliteDatabase,
  SqliteDatabaseMissingError,
  SqliteDatabaseReadOnlyError,
  type SqliteOptions,
  type SqliteSynchronous,
} from './open-database.js';
export { createSqliteAdapters } from './sqlite-adapters.js';
export { GroupCommit, Refusal } from './group-commit.js';
export {
  isSqliteStorageFailure,
  SqliteStorageHealth,
  type SqliteStorageHealthOptions,
  type StorageHealth,
} from './storage-health.js';
export {
  defaultCheckpointIntervalMs,
  defaultFailureReportIntervalMs,
  startBackgroundCheckpoints,
  throttleFailures,
  type BackgroundCheckpointOptions,
  type BackgroundCheckpoints,
} from './background-checkpoints.js';
export { SqliteAuditLog } from './sqlite-audit-log.js';
export { SqliteAvailabilityRepository } from './sqlite-availability-repository.js';
export { SqliteCanteenRepository } from './sqlite-canteen-repository.js';
export { SqliteDishQueries } from './sqlite-dish-queries.js';
export { SqliteDishRepository } from './sqlite-dish-repository.js';
export { backfillDishes } from './backfill-dishes.js';
export { SqliteFeedStateRepository } from './sqlite-feed-state-repository.js';
export { SqliteMarkingRepository } from './sqlite-marking-repository.js';
export { SqliteMealCatalog } from './sqlite-meal-catalog.js';
export { SqliteMealSourceRepository } from './sqlite-meal-source-repository.js';
export { SqliteRatingRepository } from './sqlite-rating-repository.js';
export { SqliteMealQueries } from './sqlite-meal-queries.js';
export { SqliteUserDataRepository } from './sqlite-user-data-repository.js';
export { backupSqliteDatabase, type BackupReport } from './backup-database.js';
export { openSqlite, type SqliteService, type SqliteServiceOptions } from './open-sqlite.js';
export { SqliteWebhookOutbox } from './sqlite-webhook-outbox.js';
export { SqliteWebhookRepository } from './sqlite-webhook-repository.js';
export {
  createSqlitePushStore,
  SqliteNotificationSettingsRepository,
  SqlitePushAudience,
  SqlitePushOutbox,
  SqlitePushSubscriptionRepository,
} from './sqlite-push-store.js';
