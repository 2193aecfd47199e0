import { readdirSync, readFileSync } from 'node:fs';
import { isTimeZone } from '@canteen-meals/domain';
import type { Pool, PoolClient } from 'pg';
import { backfillDishes } from './dish-backfill.js';
import { analyzeTables } from './table-statistics.js';

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

export interface MigrateOptions {
  /**
   * The IANA time zone of the `default` canteen when a migration creates it (default: UTC). Migrations read it as
   * the session setting `meals.default_time_zone`.
   */
  readonly defaultTimeZone?: string;
}

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
 * that start together wait for the first one and then find nothing left to do. Then, under the same lock, puts the
 * meals that have no dish yet into their dishes (backfillDishes: after 004, in its own transaction, idempotent), and
 * analyses the tables when it applied any migration. Returns the versions it applied.
 */
export async function migrate(
  pool: Pool,
  migrations: readonly Migration[] = loadMigrations(),
  options: MigrateOptions = {},
): Promise<number[]> {
  const defaultTimeZone = checkedTimeZone(options.defaultTimeZone);
  const client = await pool.connect();
  try {
    // Waiting for another instance's migrations may take longer than any statement timeout the pool sets.
    await client.query('SET statement_timeout = 0');
    await client.query("SELECT set_config('meals.default_time_zone', $1, false)", [defaultTimeZone]);
    await client.query('SELECT pg_advisory_lock($1)', [migrationLockKey.toString()]);
    const applied = await applyMissing(client, migrations);
    // What SQL cannot do (dish name keys are JavaScript's Unicode rules), under the same lock.
    if (await hasTable(client, 'dishes')) await backfillDishes(client);
    // A migration may rewrite tables or add indexes whose statistics the planner then lacks until autovacuum comes by.
    if (applied.length > 0) await analyzeTables(client);
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

async function hasTable(client: PoolClient, table: string): Promise<boolean> {
  const { rows } = await client.query<{ found: boolean }>('SELECT to_regclass($1) IS NOT NULL AS found', [table]);
  return rows[0]?.found === true;
}

/** The time zone of the `default` canteen: the one given, checked, or UTC. */
export function checkedTimeZone(timeZone: string | undefined): string {
  if (timeZone === undefined) return 'UTC';
  if (!isTimeZone(timeZone)) throw new RangeError(`defaultTimeZone: "${timeZone}" is not an IANA time zone`);
  return timeZone;
}
