export { loadMigrations, migrate, migrationLockKey, type Migration } from './migrations.js';
export { openPostgres, type PostgresDatabase, type PostgresOptions } from './open-postgres.js';
export { createPostgresAdapters, type PostgresAdapters } from './postgres-adapters.js';
export { PostgresMarkingRepository } from './postgres-marking-repository.js';
export { PostgresMealCatalog } from './postgres-meal-catalog.js';
export { menuImportLockKey, PostgresMealSourceRepository } from './postgres-meal-source-repository.js';
export { PostgresRatingRepository } from './postgres-rating-repository.js';
export { sqlStateOf, TransactionRunner, type RetryEvent, type TransactionOptions } from './transaction.js';
