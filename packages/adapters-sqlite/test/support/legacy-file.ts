import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  loadMigrations,
  migrate,
  openSqliteDatabase,
  type MigrationSettings,
  type SqliteDatabase,
  type SqliteOptions,
} from '@canteen-meals/adapters-sqlite';
import BetterSqlite3, { type Database } from 'better-sqlite3';
import { afterEach, beforeEach } from 'vitest';

/**
 * A database file at an old schema version, fresh for each test: migrated up to `version` and filled by `seed` as the
 * code of that version would have left it. `open` opens it with today's code (which migrates it the rest of the way);
 * every connection and the file go away after the test. Registers the vitest hooks.
 */
export function legacyFilePerTest(
  version: number,
  seed: (old: Database) => void,
  settings?: MigrationSettings,
): { open(options?: SqliteOptions): SqliteDatabase } {
  let folder = '';
  let path = '';
  const opened: SqliteDatabase[] = [];
  beforeEach(() => {
    folder = mkdtempSync(join(tmpdir(), 'meals-migration-'));
    path = join(folder, 'meals.db');
    const old = new BetterSqlite3(path);
    old.pragma('journal_mode = WAL');
    old.pragma('foreign_keys = ON');
    migrate(
      old,
      loadMigrations().filter((migration) => migration.version <= version),
      settings,
    );
    seed(old);
    old.close();
  });
  afterEach(() => {
    for (const db of opened.splice(0)) if (db.open) db.close();
    rmSync(folder, { recursive: true, force: true });
  });
  return {
    open(options) {
      const db = openSqliteDatabase(path, options);
      opened.push(db);
      return db;
    },
  };
}
