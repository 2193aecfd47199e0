import pg from 'pg';
import { createPostgresAdapters, type PostgresAdapterOptions, type PostgresAdapters } from './postgres-adapters.js';
import { checkedTimeZone, migrate } from './migrations.js';
import { ensureDefaultCanteen } from './postgres-canteen-repository.js';
import { PostgresStorageHealth } from './storage-health.js';

export interface PostgresOptions extends PostgresAdapterOptions {
  /** Connections this instance may hold; 10 by default. N instances hold up to N times as many. */
  readonly poolSize?: number;
  /** Told of an error on an idle pooled connection (the server went away); the pool replaces the connection. */
  readonly onPoolError?: (error: Error) => void;
  /** Told once each time writes start failing because the database does (read-only, full, unreachable). */
  readonly onUnavailable?: (reason: string) => void;
  /**
   * The IANA time zone of the `default` canteen (where meals go that name no canteen) when it has to be created:
   * by the migration that introduces canteens, or at open if it is missing. An existing one keeps its zone. UTC by
   * default; a name the runtime does not know is refused before connecting.
   */
  readonly defaultTimeZone?: string | undefined;
}

export interface PostgresDatabase {
  readonly adapters: PostgresAdapters;
  readonly pool: pg.Pool;
  /** Resolves when the server answers a query; rejects otherwise. */
  ping(): Promise<void>;
  /** Waits for checked-out connections to come back, then closes every connection. */
  close(): Promise<void>;
}

/**
 * Connects a pool to `url` (postgres:// or postgresql://), applies missing migrations, makes sure the `default`
 * canteen exists, and wires the adapters.
 */
export async function openPostgres(url: string, options: PostgresOptions = {}): Promise<PostgresDatabase> {
  const defaultTimeZone = checkedTimeZone(options.defaultTimeZone);
  const pool = new pg.Pool({
    connectionString: url,
    max: options.poolSize ?? 10,
    connectionTimeoutMillis: 10_000,
    // A rating change holds its meal row for a few milliseconds; anything far longer is stuck, not busy.
    statement_timeout: 30_000,
    idle_in_transaction_session_timeout: 60_000,
    application_name: 'meals',
  });
  // Without a listener, an idle connection dropped by the server would crash the process.
  pool.on('error', (error) => options.onPoolError?.(error));
  try {
    await migrate(pool, undefined, { defaultTimeZone });
    await ensureDefaultCanteen(pool, defaultTimeZone);
  } catch (error) {
    await pool.end();
    throw error;
  }
  let closing: Promise<void> | undefined;
  const health = new PostgresStorageHealth({ onUnavailable: options.onUnavailable });
  return {
    adapters: createPostgresAdapters(pool, { ...options, health }),
    pool,
    // Ready means a write would be kept: answering SELECT 1 is not enough after a write failed for want of storage.
    ping: async () => {
      health.assertAvailable();
      await pool.query('SELECT 1');
    },
    close: () => (closing ??= pool.end()),
  };
}
