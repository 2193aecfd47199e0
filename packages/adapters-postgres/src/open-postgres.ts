import pg from 'pg';
import { createPostgresAdapters, type PostgresAdapterOptions, type PostgresAdapters } from './postgres-adapters.js';
import { checkedTimeZone, migrate } from './migrations.js';
import { ensureDefaultCanteen } from './postgres-canteen-repository.js';
import { PostgresHitCounter } from './postgres-hit-counter.js';
import { PostgresStorageHealth, reportingStorageFailures } from './storage-health.js';
import { withoutSessionState } from './without-session-state.js';
import { hotSessionOptions } from './hot-statements.js';

/**
 * `session`: the pool's connections are PostgreSQL sessions of their own (a direct connection, or a pooler in session
 * mode). `transaction`: they go through a transaction-pooling proxy (PgBouncer `pool_mode = transaction`), which may
 * hand each transaction, and each statement outside one, to another server session: nothing may rely on session state.
 */
export type PoolMode = 'session' | 'transaction';

export interface PostgresOptions extends Omit<PostgresAdapterOptions, 'statementTimeoutMs'> {
  /**
   * Connections of this instance's main pool; 10 by default. An instance holds up to this, `hotPoolSize` and 2 for the
   * rate limits; N instances up to N times as many.
   */
  readonly poolSize?: number;
  /**
   * How long a query waits for a connection (every pooled one busy, or a new one not opened yet) before it fails with
   * a `StorageUnavailableError` (HTTP 503); 2000 by default.
   */
  readonly poolQueueTimeoutMs?: number;
  /**
   * How long one statement may run before PostgreSQL cancels it (it then fails as unavailable); 0: no limit; 30 000 by
   * default.
   */
  readonly statementTimeoutMs?: number;
  /**
   * Connections of a pool of their own on which the rating and marking batches send their statements bare, in
   * `session` mode (hot-statements.ts: the planner settings come with the connection), besides `poolSize`. 0, the
   * default: off, the batches call the functions of migration 016 on the main pool (the bare form's gain in the bench
   * was inside the noise: docs/benchmarks.md, "Bare statements"). Six suit a server: four batches of rating
   * changes reading, one writing, one batch of markings.
   */
  readonly hotPoolSize?: number;
  /** `session` by default; see PoolMode. */
  readonly poolMode?: PoolMode;
  /**
   * Where the migrations run: they hold a session-level advisory lock and session settings, so through a
   * transaction-pooling proxy this must be a direct connection. Default: `url`.
   */
  readonly migrationUrl?: string | undefined;
  /** Told of a failure to delete ended rate-limit windows (harmless: the next new window tries again). */
  readonly onRateLimitPruneFailure?: (error: Error) => void;
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
  /**
   * The rate limits' count shared by every instance (adapters-http's SharedHitCounter), on a pool of its own of two
   * connections: a busy main pool must not hold up the limiter, which every request passes, cached reads included.
   */
  readonly hitCounter: PostgresHitCounter;
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
  const poolMode = options.poolMode ?? 'session';
  const statementTimeoutMs = options.statementTimeoutMs ?? 30_000;
  const poolOptions = connectionOptions(url, poolMode, statementTimeoutMs, options.poolQueueTimeoutMs ?? 2_000);
  await migrateOnce(options.migrationUrl ?? url, poolOptions, defaultTimeZone);
  const pool = new pg.Pool({ ...poolOptions, max: options.poolSize ?? 10 });
  const counterPool = new pg.Pool({ ...poolOptions, max: 2 });
  // Session mode only: a transaction pooler refuses the startup parameters that carry the planner settings.
  const hotPoolSize = options.hotPoolSize ?? 0;
  const hotPool =
    poolMode === 'session' && hotPoolSize > 0
      ? new pg.Pool({ ...poolOptions, max: hotPoolSize, options: hotSessionOptions })
      : undefined;
  const pools = [pool, counterPool, ...(hotPool === undefined ? [] : [hotPool])];
  // Without a listener, an idle connection dropped by the server would crash the process.
  for (const each of pools) each.on('error', (error) => options.onPoolError?.(error));
  const closeAll = () => Promise.all(pools.map((each) => each.end())).then(() => {});
  try {
    await ensureDefaultCanteen(pool, defaultTimeZone);
  } catch (error) {
    await closeAll();
    throw error;
  }
  let closing: Promise<void> | undefined;
  const health = new PostgresStorageHealth({ onUnavailable: options.onUnavailable });
  // Behind a transaction pooler the startup parameters are not sent: each transaction sets its timeout itself.
  const transactionTimeoutMs = poolMode === 'transaction' ? statementTimeoutMs : undefined;
  return {
    adapters: createPostgresAdapters(
      reportingStorageFailures(poolMode === 'transaction' ? withoutSessionState(pool) : pool),
      {
        ...options,
        health,
        statementTimeoutMs: transactionTimeoutMs,
        hotPool: hotPool === undefined ? undefined : reportingStorageFailures(hotPool),
      },
    ),
    pool,
    hitCounter: new PostgresHitCounter(counterPool, options.onRateLimitPruneFailure),
    // Ready means a write would be kept: answering SELECT 1 is not enough after a write failed for want of storage.
    // So once one has, readiness writes a row itself, and a success clears the failure: the instance comes back by
    // itself even when the load balancer, seeing it unready, sends it no write that could.
    ping: async () => {
      if (health.available) await pool.query('SELECT 1');
      else await health.guard(() => pool.query('UPDATE storage_probe SET checked_at = now()'));
    },
    close: () => (closing ??= closeAll()),
  };
}

/**
 * The pool settings of one mode. In `session` mode the timeouts go in the startup packet, so they hold for every
 * statement of the session; a transaction pooler refuses startup parameters it does not know (PgBouncer: "unsupported
 * startup parameter"), so in `transaction` mode only `application_name` is sent.
 */
function connectionOptions(
  url: string,
  poolMode: PoolMode,
  statementTimeoutMs: number,
  queueTimeoutMs: number,
): pg.PoolConfig {
  return {
    connectionString: url,
    // pg applies it to both: waiting for a pooled connection, and opening a new one.
    connectionTimeoutMillis: queueTimeoutMs,
    application_name: 'meals',
    ...(poolMode === 'session' && {
      // A rating change holds its rows for a few milliseconds; anything far longer is stuck, not busy.
      ...(statementTimeoutMs > 0 && { statement_timeout: statementTimeoutMs }),
      idle_in_transaction_session_timeout: 60_000,
    }),
  };
}

/** Migrates over a connection of its own (the migration URL may differ from the pool's), closed afterwards. */
async function migrateOnce(url: string, poolOptions: pg.PoolConfig, defaultTimeZone: string): Promise<void> {
  // The first instance's migrations may take long: its connection waits for the lock without a queue timeout.
  const pool = new pg.Pool({ ...poolOptions, connectionString: url, max: 1, connectionTimeoutMillis: 10_000 });
  pool.on('error', () => {});
  try {
    await migrate(pool, undefined, { defaultTimeZone });
  } finally {
    await pool.end();
  }
}
