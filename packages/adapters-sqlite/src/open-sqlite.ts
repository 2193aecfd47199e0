import type { Database } from 'better-sqlite3';
import { startBackgroundCheckpoints } from './background-checkpoints.js';
import { openSqliteDatabase, type SqliteOptions } from './open-database.js';
import { createSqliteAdapters } from './sqlite-adapters.js';
import { SqliteStorageHealth } from './storage-health.js';

export interface SqliteServiceOptions extends Pick<SqliteOptions, 'synchronous' | 'create' | 'defaultTimeZone'> {
  /** Said once each time the file stops being usable (deleted, replaced, read-only, full, failing). */
  readonly onUnavailable?: (reason: string) => void;
  /** A background checkpoint failed: at most once a minute, with the number of failures since the last report. */
  readonly onCheckpointFailure?: (message: string, failures: number) => void;
}

export interface SqliteService {
  readonly adapters: ReturnType<typeof createSqliteAdapters>;
  readonly db: Database;
  /** Resolves when the file answers a read and takes writes; rejects otherwise (the readiness probe). */
  ping(): Promise<void>;
  /** Stops the checkpoint thread, then closes the connection. */
  close(): Promise<void>;
}

/**
 * Opens the SQLite database a service runs on, as `openPostgres(url)` does for PostgreSQL: the file (created unless
 * `create: false`), its pragmas and migrations, its storage-health watch and its background checkpoints. The
 * `default` canteen is created in `defaultTimeZone` (default UTC) where the file lacks it.
 */
export function openSqlite(path: string, options: SqliteServiceOptions = {}): SqliteService {
  const { synchronous } = options;
  const db = openSqliteDatabase(path, {
    ...(synchronous === undefined ? {} : { synchronous }),
    ...(options.create === undefined ? {} : { create: options.create }),
    defaultTimeZone: options.defaultTimeZone,
  });
  const health = new SqliteStorageHealth(
    path,
    options.onUnavailable === undefined ? {} : { onUnavailable: options.onUnavailable },
  );
  // Unlike SELECT 1, this reads a page of the file; it throws once the connection is closed.
  const probe = db.prepare('SELECT max(version) FROM schema_migrations');
  const checkpoints =
    path === ':memory:'
      ? undefined
      : startBackgroundCheckpoints(path, {
          ...(synchronous === undefined ? {} : { synchronous }),
          ...(options.onCheckpointFailure === undefined ? {} : { onFailure: options.onCheckpointFailure }),
        });
  return {
    adapters: createSqliteAdapters(db, health),
    db,
    ping: async () => {
      health.assertAvailable();
      probe.get();
    },
    close: async () => {
      await checkpoints?.stop();
      db.close();
    },
  };
}
