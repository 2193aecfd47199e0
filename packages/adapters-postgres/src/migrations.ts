import { readdirSync, readFileSync } from 'node:fs';
import type { Pool, PoolClient } from 'pg';

export interface Migration {
  readonly version: number;
  readonly name: string;
  readonly sql: string;
}

const migrationsFolder = new URL('../migrations/', import.meta.url);

/**
 * The key of the session-level advisory lock that serializes migrations across every instance that starts at once.
 * Any fixed bigint works; this one spells "meals" in ASCII, so it is easy to recognise in pg_locks.
 */
export const migrationLockKey = 0x6d65616c73n;

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

/**
 * Applies every migration the database lacks, each in its own transaction, while holding an advisory lock: instances
 * that start together wait for the first one and then find nothing left to do. Returns the versions it applied.
 */
export async function migrate(pool: Pool, migrations: readonly Migration[] = loadMigrations()): Promise<number[]> {
  const client = await pool.connect();
  try {
    // Waiting for another instance's migrations may take longer than any statement timeout the pool sets.
    await client.query('SET statement_timeout = 0');
    await client.query('SELECT pg_advisory_lock($1)', [migrationLockKey.toString()]);
    const applied = await applyMissing(client, migrations);
    await client.query('SELECT pg_advisory_unlock($1)', [migrationLockKey.toString()]);
    return applied;
  } finally {
    // Closed rather than pooled: its session settings go with it, and so would the lock if anything failed above.
    client.release(true);
  }
}

async function applyMissing(client: PoolClient, migrations: readonly Migration[]): Promise<number[]> {
  await client.query(`CREATE TABLE IF NOT EXISTS schema_migrations (
    version integer PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())`);
  const { rows } = await client.query<{ version: number }>('SELECT version FROM schema_migrations');
  const present = new Set(rows.map((row) => row.version));
  const applied: number[] = [];
  for (const migration of migrations) {
    if (present.has(migration.version)) continue;
    await client.query('BEGIN');
    try {
      await client.query(migration.sql);
      await client.query('INSERT INTO schema_migrations (version, name) VALUES ($1, $2)', [
        migration.version,
        migration.name,
      ]);
      await client.query('COMMIT');
    } catch (error) {
      await client.query('ROLLBACK');
      throw new Error(`migration ${migration.version}-${migration.name} failed: ${(error as Error).message}`, {
        cause: error,
      });
    }
    applied.push(migration.version);
  }
  return applied;
}
