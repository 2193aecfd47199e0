export { loadMigrations, migrate, migrationLockKey, type MigrateOptions, type Migration } from './migrations.js';
export { openPostgres, type PoolMode, type PostgresDatabase, type PostgresOptions } from './open-postgres.js';
export { PostgresHitCounter } from './postgres-hit-counter.js';
export { createPostgresAdapters, type PostgresAdapterOptions, type PostgresAdapters } from './postgres-adapters.js';
export { appendAuditRecords, PostgresAuditLog } from './postgres-audit-log.js';
export { PostgresAvailabilityRepository } from './postgres-availability-repository.js';
export { hotSessionOptions, type HotStatementForm } from './hot-statements.js';
export { PostgresCanteenRepository } from './postgres-canteen-repository.js';
export { PostgresDishQueries } from './postgres-dish-queries.js';
export { PostgresDishRepository } from './postgres-dish-repository.js';
export { PostgresFeedStateRepository } from './postgres-feed-state-repository.js';
export {
  PostgresMarkingRepository,
  type MarkingBatchOptions,
  type PostgresMarkingOptions,
} from './postgres-marking-repository.js';
export { PostgresMealCatalog } from './postgres-meal-catalog.js';
export { menuImportLockKey, PostgresMealSourceRepository } from './postgres-meal-source-repository.js';
export { PostgresMealQueries } from './postgres-meal-queries.js';
export {
  PostgresRatingRepository,
  RatingNotSettledError,
  type PostgresRatingOptions,
  type RatingBatchOptions,
} from './postgres-rating-repository.js';
export type { BatchQueueOptions } from './batch-queue.js';
export { PostgresUserDataRepository } from './postgres-user-data-repository.js';
export {
  isPostgresStorageFailure,
  PostgresStorageHealth,
  reportingStorageFailures,
  type PostgresStorageHealthOptions,
} from './storage-health.js';
export {
  ConcurrentChangeError,
  sqlStateOf,
  TransactionRunner,
  type RetryEvent,
  type TransactionOptions,
} from './transaction.js';
export {
  changeChannel,
  latestOfEachMeal,
  startChangeRelay,
  type ChangeRelay,
  type ChangeRelayEvent,
  type ChangeRelayOptions,
  type RelayScheduler,
} from './postgres-change-relay.js';
export { withoutSessionState } from './without-session-state.js';
export { PostgresWebhookOutbox } from './postgres-webhook-outbox.js';
export { PostgresWebhookRepository } from './postgres-webhook-repository.js';
export {
  createPostgresPushStore,
  PostgresNotificationSettingsRepository,
  PostgresPushAudience,
  PostgresPushOutbox,
  PostgresPushSubscriptionRepository,
} from './postgres-push-store.js';
