import { readdirSync, readFileSync } from 'node:fs';
import type { Database } from 'better-sqlite3';

export interface Migration {
  readonly version: number;
  readonly name: string;
  readonly sql: string;
}

const migrationsFolder = new URL('../migrations/', import.meta.url);

/**
 * A migration that rebuilds a referenced table (SQLite's procedure for schema changes), or adds a column that
 * references another table with a non-NULL default, starts with this line.
 */
const foreignKeysOffMarker = '-- migrate: foreign keys off';

/** The SQL files `NNN-name.sql` beside the package, in version order. */
export function loadMigrations(folder: URL = migrationsFolder): Migration[] {
  return readdirSync(folder)
    .filter((file) => /^\d{3}-[\w-]+\.sql$/.test(file))
    .sort()
    .map((file) => ({
      version: Number(file.slice(0, 3)),
      name: file.slice(4, -4),
      sql: readFileSync(new URL(file, folder), 'utf8'),
    }));
}

/** What a migration may need to know of the opener: read in SQL from `temp.migration_settings (name, value)`. */
export interface MigrationSettings {
  /** The time zone migration 004 gives the `default` canteen it creates (default: UTC). */
  readonly defaultTimeZone?: string;
}

/**
 * Applies every migration the database lacks, each in its own IMMEDIATE transaction, so that several processes
 * starting on one file at once apply each migration exactly once. The settings are in `temp.migration_settings`
 * (this connection's alone) while the migrations run.
 */
export function migrate(
  db: Database,
  migrations: readonly Migration[] = loadMigrations(),
  settings: MigrationSettings = {},
): number[] {
  db.exec(`CREATE TABLE IF NOT EXISTS schema_migrations (
    version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL) STRICT`);
  db.exec('CREATE TEMP TABLE IF NOT EXISTS migration_settings (name TEXT PRIMARY KEY, value TEXT NOT NULL)');
  try {
    db.prepare('INSERT OR REPLACE INTO temp.migration_settings (name, value) VALUES (?, ?)').run(
      'default_time_zone',
      settings.defaultTimeZone ?? 'UTC',
    );
    return applyMissing(db, migrations);
  } finally {
    db.exec('DROP TABLE IF EXISTS temp.migration_settings');
  }
}

function applyMissing(db: Database, migrations: readonly Migration[]): number[] {
  const isApplied = db.prepare<[number], { version: number }>(
    'SELECT version FROM schema_migrations WHERE version = ?',
  );
  const record = db.prepare('INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)');
  const applied: number[] = [];
  for (const migration of migrations) {
    const foreignKeysOff = migration.sql.startsWith(foreignKeysOffMarker);
    // The pragma is a no-op inside a transaction, so it is switched around it, and back on whatever happens.
    const switchForeignKeys = foreignKeysOff && db.pragma('foreign_keys', { simple: true }) === 1;
    if (switchForeignKeys) db.pragma('foreign_keys = OFF');
    try {
      db.transaction(() => {
        if (isApplied.get(migration.version) !== undefined) return;
        db.exec(migration.sql);
        if (foreignKeysOff) assertForeignKeysHold(db, migration);
        record.run(migration.version, migration.name, new Date().toISOString());
        applied.push(migration.version);
      }).immediate();
    } finally {
      if (switchForeignKeys) db.pragma('foreign_keys = ON');
    }
  }
  return applied;
}

function assertForeignKeysHold(db: Database, migration: Migration): void {
  const violations = db.pragma('foreign_key_check') as unknown[];
  if (violations.length > 0) {
    throw new Error(`migration ${migration.version}-${migration.name} breaks ${violations.length} foreign keys`);
  }
}
