import { accessSync, constants, existsSync, mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { defaultCanteenId, isTimeZone } from '@canteen-meals/domain';
import BetterSqlite3, { type Database } from 'better-sqlite3';
import { backfillDishes } from './backfill-dishes.js';
import { migrate } from './migrations.js';

export type SqliteSynchronous = 'normal' | 'full';

export interface SqliteOptions {
  /** `normal` (default) keeps every commit across a process crash; `full` also across a power loss. */
  readonly synchronous?: SqliteSynchronous;
  /** How long a writer waits for another process's lock before failing. */
  readonly busyTimeoutMs?: number;
  /** Called with every SQL statement the connection executes (not when one is prepared): for tracing and tests. */
  readonly onStatement?: (sql: string) => void;
  /** `false`: a missing file throws `SqliteDatabaseMissingError` instead of being created (default true). */
  readonly create?: boolean;
  /**
   * The IANA time zone of the `default` canteen where this open creates it (a new file, or one that migration 004
   * upgrades); an existing `default` canteen keeps its stored zone (default: UTC).
   */
  readonly defaultTimeZone?: string | undefined;
}

/** The name of the `default` canteen where an open creates it. */
export const defaultCanteenName = 'Default canteen';

/** The database file does not exist and the caller did not allow creating it. */
export class SqliteDatabaseMissingError extends Error {
  override readonly name = 'SqliteDatabaseMissingError';

  constructor(readonly path: string) {
    super(`the SQLite database file ${path} does not exist`);
  }
}

/** The pragma that sets a connection's `synchronous`: the serving connection's and the checkpoint thread's. */
export function synchronousPragma(synchronous: SqliteSynchronous): string {
  return `synchronous = ${synchronous === 'full' ? 'FULL' : 'NORMAL'}`;
}

/** WAL pages between two automatic checkpoints (SQLite's default is 1000). */
export const walAutocheckpointPages = 10_000;

/** The database file (or its folder, or its -wal/-shm files) cannot be written by this process. */
export class SqliteDatabaseReadOnlyError extends Error {
  override readonly name = 'SqliteDatabaseReadOnlyError';

  constructor(
    readonly path: string,
    readonly unwritable: string,
  ) {
    super(`the SQLite database ${path} cannot be written by this process (${unwritable} is read-only)`);
  }
}

/**
 * Refuses a database this process cannot write before SQLite touches it: opened anyway, SQLite falls back to
 * read-only and leaves a -wal and a -shm file of this user behind, which then keep a writable server from opening it.
 */
function assertWritable(path: string): void {
  const unwritable = (file: string) => {
    try {
      accessSync(file, constants.W_OK);
      return false;
    } catch {
      return true;
    }
  };
  const companions = [`${path}-wal`, `${path}-shm`];
  const found = [path, ...companions].find((file) => existsSync(file) && unwritable(file));
  if (found !== undefined) throw new SqliteDatabaseReadOnlyError(path, found);
  // WAL mode creates both companions next to the file unless they are there already.
  const folder = dirname(path);
  if (!companions.every((file) => existsSync(file)) && unwritable(folder))
    throw new SqliteDatabaseReadOnlyError(path, `the folder ${folder}`);
}

/** Opens (creating the folder and file if needed) and migrates a database; `:memory:` gives a private one. */
export function openSqliteDatabase(path: string, options: SqliteOptions = {}): Database {
  const defaultTimeZone = options.defaultTimeZone ?? 'UTC';
  if (!isTimeZone(defaultTimeZone))
    throw new RangeError(`defaultTimeZone "${defaultTimeZone}" is not an IANA time zone`);
  if (path !== ':memory:' && options.create === false && !existsSync(path)) throw new SqliteDatabaseMissingError(path);
  if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
  if (path !== ':memory:' && existsSync(path)) assertWritable(path);
  const onStatement = options.onStatement;
  const db = new BetterSqlite3(path, onStatement === undefined ? {} : { verbose: (sql) => onStatement(String(sql)) });
  try {
    db.pragma(`busy_timeout = ${options.busyTimeoutMs ?? 5000}`);
    db.pragma('journal_mode = WAL');
    db.pragma(synchronousPragma(options.synchronous ?? 'normal'));
    // A checkpoint blocks the event loop on two fsyncs whatever its size; at SQLite's default (every 1000 pages) that
    // was half the time of a rating under load. Every 10 000 pages (~40 MB of WAL) costs a tenth of it.
    db.pragma(`wal_autocheckpoint = ${walAutocheckpointPages}`);
    db.pragma('foreign_keys = ON');
    migrate(db, undefined, { defaultTimeZone });
    // Migration 005 leaves the meals of an upgraded file without a dish: name keys are computed in TypeScript.
    backfillDishes(db);
    // Migration 004 creates it on an upgraded file; this keeps every file holding it. A no-op when it exists.
    db.prepare(`INSERT OR IGNORE INTO canteens (canteen_id, name, time_zone) VALUES (?, ?, ?)`).run(
      defaultCanteenId,
      defaultCanteenName,
      defaultTimeZone,
    );
    return db;
  } catch (error) {
    db.close();
    throw error;
  }
}
