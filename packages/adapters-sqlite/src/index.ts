export type { Database as SqliteDatabase } from 'better-sqlite3';
export { loadMigrations, migrate, type Migration } from './migrations.js';
export { openSqliteDatabase, SqliteDatabaseMissingError, SqliteDatabaseReadOnlyError, type SqliteOptions, type SqliteSynchronous } from './open-database.js';
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
export { SqliteMarkingRepository } from './sqlite-marking-repository.js';
export { SqliteMealCatalog } from './sqlite-meal-catalog.js';
export { SqliteMealSourceRepository } from './sqlite-meal-source-repository.js';
export { SqliteRatingRepository } from './sqlite-rating-repository.js';
export { SqliteMealQueries } from './sqlite-meal-queries.js';
export { SqliteUserDataRepository } from './sqlite-user-data-repository.js';
export { backupSqliteDatabase, type BackupReport } from './backup-database.js';
export { openSqlite, type SqliteService, type SqliteServiceOptions } from './open-sqlite.js';
