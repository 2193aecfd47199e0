import { createPostgresPushStore } from './postgres-push-store.js';
import type { Pool } from 'pg';
import { PostgresAuditLog } from './postgres-audit-log.js';
import { PostgresAvailabilityRepository } from './postgres-availability-repository.js';
import { PostgresCanteenRepository } from './postgres-canteen-repository.js';
import { PostgresClosedDayRepository } from './postgres-closed-day-repository.js';
import { PostgresDishQueries } from './postgres-dish-queries.js';
import { PostgresDishRepository } from './postgres-dish-repository.js';
import { PostgresFeedStateRepository } from './postgres-feed-state-repository.js';
import { PostgresMarkingRepository, type MarkingBatchOptions } from './postgres-marking-repository.js';
import { PostgresMealCatalog } from './postgres-meal-catalog.js';
import { PostgresMealQueries } from './postgres-meal-queries.js';
import { PostgresMealSourceRepository } from './postgres-meal-source-repository.js';
import { PostgresRatingRepository, type RatingBatchOptions } from './postgres-rating-repository.js';
import { PostgresUserDataRepository } from './postgres-user-data-repository.js';
import { PostgresPreferenceRepository } from './postgres-preference-repository.js';
import { PostgresWebhookOutbox } from './postgres-webhook-outbox.js';
import { PostgresWebhookRepository } from './postgres-webhook-repository.js';
import { TableStatistics } from './table-statistics.js';
import { TransactionRunner, type TransactionOptions } from './transaction.js';

export interface PostgresAdapterOptions extends TransactionOptions {
  /** How rating changes are batched (see PostgresRatingRepository); the defaults suit a server. */
  readonly ratingBatches?: RatingBatchOptions;
  /** How markings are batched (see PostgresMarkingRepository); the defaults suit a server. */
  readonly markingBatches?: MarkingBatchOptions;
  /**
   * A pool whose sessions start with `hotSessionOptions`: the rating and marking batches then send their statements
   * bare on it (hot-statements.ts). Without it they call the functions of migration 016 on the main pool, which is
   * what a transaction pooler needs.
   */
  readonly hotPool?: Pool | undefined;
}

/** Every repository over one pool of a migrated database. */
export function createPostgresAdapters(pool: Pool, options: PostgresAdapterOptions = {}) {
  const transactions = new TransactionRunner(pool, options);
  const hot = {
    pool: options.hotPool ?? pool,
    statements: options.hotPool === undefined ? ('functions' as const) : ('bare' as const),
  };
  const ratings = new PostgresRatingRepository(hot.pool, {
    ...options.ratingBatches,
    health: options.health,
    onRetry: options.onRetry,
    statements: hot.statements,
  });
  const statistics = new TableStatistics(pool);
  const markings = new PostgresMarkingRepository(hot.pool, {
    ...options.markingBatches,
    health: options.health,
    onRetry: options.onRetry,
    statements: hot.statements,
  });
  return {
    meals: new PostgresMealCatalog(pool, transactions, options.health, statistics),
    markings,
    ratings,
    mealSources: new PostgresMealSourceRepository(transactions, statistics),
    queries: new PostgresMealQueries(pool),
    userData: new PostgresUserDataRepository(pool, transactions),
    canteens: new PostgresCanteenRepository(pool, options.health, transactions),
    closedDays: new PostgresClosedDayRepository(pool, options.health, transactions),
    dishes: new PostgresDishRepository(transactions),
    dishQueries: new PostgresDishQueries(pool),
    feedStates: new PostgresFeedStateRepository(pool, options.health),
    webhooks: new PostgresWebhookRepository(pool, transactions),
    outbox: new PostgresWebhookOutbox(pool, transactions, options.health),
    preferences: new PostgresPreferenceRepository(pool, options.health),
    availability: new PostgresAvailabilityRepository(transactions),
    // Web Push's subscriptions, settings and outbox: in the export, gone with an erasure.
    pushStore: createPostgresPushStore(pool, { health: options.health }),
    // The audit trail: the repositories above append to it in their changes' transactions.
    audit: new PostgresAuditLog(pool, options.health),
    /**
     * How many transactions (and batches of rating changes and markings) were run again after a serialization failure
     * or a deadlock.
     */
    retryCount: () => transactions.retryCount + ratings.retryCount + markings.retryCount,
  };
}

export type PostgresAdapters = ReturnType<typeof createPostgresAdapters>;
