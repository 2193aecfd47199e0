import type { Pool } from 'pg';
import type { WebhookOutbox, WebhookRepository } from '@canteen-meals/domain';
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
    webhooks: webhooksNotYet,
    outbox: outboxNotYet,
    /** How many transactions were run again after a serialization failure or a deadlock. */
    retryCount: () => transactions.retryCount,
  };
}

export type PostgresAdapters = ReturnType<typeof createPostgresAdapters>;

/** Until this adapter stores webhooks (issue 18's next commits on this branch): every call fails saying so. */
const notYet = (): never => {
  throw new Error('webhook storage is not implemented in this adapter yet');
};
const webhooksNotYet: WebhookRepository = { save: notYet, find: notYet, list: notYet, remove: notYet };
const outboxNotYet: WebhookOutbox = { fanOut: notYet, claimDue: notYet, record: notYet, deliveries: notYet, nextDueAt: notYet };
