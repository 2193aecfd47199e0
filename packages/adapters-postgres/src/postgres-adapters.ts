import type { Pool } from 'pg';
import { PostgresCanteenRepository } from './postgres-canteen-repository.js';
import { PostgresDishQueries } from './postgres-dish-queries.js';
import { PostgresDishRepository } from './postgres-dish-repository.js';
import { PostgresFeedStateRepository } from './postgres-feed-state-repository.js';
import { PostgresMarkingRepository } from './postgres-marking-repository.js';
import { PostgresMealCatalog } from './postgres-meal-catalog.js';
import { PostgresMealQueries } from './postgres-meal-queries.js';
import { PostgresMealSourceRepository } from './postgres-meal-source-repository.js';
import { PostgresRatingRepository, type RatingBatchOptions } from './postgres-rating-repository.js';
import { PostgresUserDataRepository } from './postgres-user-data-repository.js';
import { PostgresPreferenceRepository } from './postgres-preference-repository.js';
import { PostgresWebhookOutbox } from './postgres-webhook-outbox.js';
import { PostgresWebhookRepository } from './postgres-webhook-repository.js';
import { TransactionRunner, type TransactionOptions } from './transaction.js';

export interface PostgresAdapterOptions extends TransactionOptions {
  /** How rating changes are batched (see PostgresRatingRepository); the defaults suit a server. */
  readonly ratingBatches?: RatingBatchOptions;
}

/** Every repository over one pool of a migrated database. */
export function createPostgresAdapters(pool: Pool, options: PostgresAdapterOptions = {}) {
  const transactions = new TransactionRunner(pool, options);
  const ratings = new PostgresRatingRepository(pool, { ...options.ratingBatches, health: options.health, onRetry: options.onRetry });
  return {
    meals: new PostgresMealCatalog(pool, transactions, options.health),
    markings: new PostgresMarkingRepository(pool, options.health),
    ratings,
    mealSources: new PostgresMealSourceRepository(transactions),
    queries: new PostgresMealQueries(pool),
    userData: new PostgresUserDataRepository(pool, transactions),
    canteens: new PostgresCanteenRepository(pool, options.health),
    dishes: new PostgresDishRepository(transactions),
    dishQueries: new PostgresDishQueries(pool),
    feedStates: new PostgresFeedStateRepository(pool, options.health),
    webhooks: new PostgresWebhookRepository(pool, transactions),
    outbox: new PostgresWebhookOutbox(pool, transactions, options.health),
    preferences: new PostgresPreferenceRepository(pool, options.health),
    /** How many transactions (and batches of rating changes) were run again after a serialization failure or a deadlock. */
    retryCount: () => transactions.retryCount + ratings.retryCount,
  };
}

export type PostgresAdapters = ReturnType<typeof createPostgresAdapters>;

