import type { Pool } from 'pg';
import { PostgresCanteenRepository } from './postgres-canteen-repository.js';
import { PostgresDishQueries } from './postgres-dish-queries.js';
import { PostgresDishRepository } from './postgres-dish-repository.js';
import { PostgresFeedStateRepository } from './postgres-feed-state-repository.js';
import { PostgresMarkingRepository } from './postgres-marking-repository.js';
import { PostgresMealCatalog } from './postgres-meal-catalog.js';
import { PostgresMealQueries } from './postgres-meal-queries.js';
import { PostgresMealSourceRepository } from './postgres-meal-source-repository.js';
import { PostgresRatingRepository } from './postgres-rating-repository.js';
import { PostgresUserDataRepository } from './postgres-user-data-repository.js';
import { PostgresWebhookOutbox } from './postgres-webhook-outbox.js';
import { PostgresWebhookRepository } from './postgres-webhook-repository.js';
import { TransactionRunner, type TransactionOptions } from './transaction.js';

/** Every repository over one pool of a migrated database. */
export function createPostgresAdapters(pool: Pool, options: TransactionOptions = {}) {
  const transactions = new TransactionRunner(pool, options);
  return {
    meals: new PostgresMealCatalog(pool, transactions, options.health),
    markings: new PostgresMarkingRepository(pool, options.health),
    ratings: new PostgresRatingRepository(pool, transactions),
    mealSources: new PostgresMealSourceRepository(transactions),
    queries: new PostgresMealQueries(pool),
    userData: new PostgresUserDataRepository(pool, transactions),
    canteens: new PostgresCanteenRepository(pool, options.health),
    dishes: new PostgresDishRepository(transactions),
    dishQueries: new PostgresDishQueries(pool),
    feedStates: new PostgresFeedStateRepository(pool, options.health),
    webhooks: new PostgresWebhookRepository(pool, transactions),
    outbox: new PostgresWebhookOutbox(pool, transactions, options.health),
    /** How many transactions were run again after a serialization failure or a deadlock. */
    retryCount: () => transactions.retryCount,
  };
}

export type PostgresAdapters = ReturnType<typeof createPostgresAdapters>;

