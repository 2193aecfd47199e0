import { StorageUnavailableError } from '@canteen-meals/domain';
import type { Pool } from 'pg';
import { sqlStateOf } from './transaction.js';

/** SQLSTATEs (exact) that mean the server cannot keep a write now, whatever the write. */
const failingStates: ReadonlySet<string> = new Set([
  '25006', // read_only_sql_transaction: a standby, or default_transaction_read_only
  '57P01', // admin_shutdown
  '57P02', // crash_shutdown
  '57P03', // cannot_connect_now: starting up or in recovery
  '57014', // query_canceled: statement_timeout cut a statement (a server too busy or a lock held too long)
]);

/** SQLSTATE classes: 08 connection exception, 53 insufficient resources (53100 disk_full), 58 system error (I/O). */
const failingClasses: ReadonlySet<string> = new Set(['08', '53', '58']);

/** Node's errors for a server that cannot be reached. */
const connectionErrorCodes: ReadonlySet<string> = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
]);

/** What node-postgres throws, without a code, when the connection is lost or none comes free in time. */
const connectionFailureMessages = [
  /^Connection terminated/,
  /timeout exceeded when trying to connect/i,
  /^Client has encountered a connection error/,
];

/**
 * True when `error` says the database cannot keep a write now (read-only, full, failing, unreachable), not that one
 * write was wrong.
 */
export function isPostgresStorageFailure(error: unknown): boolean {
  const state = sqlStateOf(error);
  if (state !== undefined) return failingStates.has(state) || failingClasses.has(state.slice(0, 2));
  if (!(error instanceof Error)) return false;
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string' && connectionErrorCodes.has(code)) return true;
  return connectionFailureMessages.some((pattern) => pattern.test(error.message));
}

export interface PostgresStorageHealthOptions {
  /** Called once each time the database turns unavailable, with why (not once per refused request). */
  readonly onUnavailable?: ((reason: string) => void) | undefined;
}

/** Whether the last write failed because the database did; cleared by the next write that succeeds. */
export class PostgresStorageHealth {
  private problem: string | undefined;

  constructor(private readonly options: PostgresStorageHealthOptions = {}) {}

  /** False while the last write failed because the database did. */
  get available(): boolean {
    return this.problem === undefined;
  }

  /** Throws a `StorageUnavailableError` while the last write failed because the database did. */
  assertAvailable(): void {
    if (this.problem !== undefined) throw new StorageUnavailableError(this.problem);
  }

  /** Runs a write: a storage failure rejects as a `StorageUnavailableError`, a success clears an earlier one. */
  async guard<T>(write: () => Promise<T>): Promise<T> {
    let result: T;
    try {
      result = await write();
    } catch (error) {
      throw this.classify(error);
    }
    this.problem = undefined;
    return result;
  }

  private classify(thrown: unknown): unknown {
    // A failure reportingStorageFailures already turned into a StorageUnavailableError still marks the storage failing.
    const error = thrown instanceof StorageUnavailableError ? thrown.cause : thrown;
    if (!isPostgresStorageFailure(error)) return thrown;
    const state = sqlStateOf(error);
    const reason = `PostgreSQL cannot keep writes: ${state === undefined ? '' : `SQLSTATE ${state}: `}${(error as Error).message}`;
    if (this.problem === undefined) this.options.onUnavailable?.(reason);
    this.problem = reason;
    return new StorageUnavailableError(reason, { cause: error });
  }
}

/**
 * The pool, except that `pool.query` rejects with a `StorageUnavailableError` (HTTP 503) when the database cannot
 * answer (unreachable, restarting, no connection free in time, a statement cut by the timeout): reads fail as
 * unavailable too, not as internal errors. Transactions (`pool.connect`) go through PostgresStorageHealth instead.
 */
export function reportingStorageFailures(pool: Pool): Pool {
  const query = (...args: Parameters<Pool['query']>) =>
    (pool.query as (...given: unknown[]) => Promise<unknown>)(...args).catch((error: unknown) => {
      if (!isPostgresStorageFailure(error)) throw error;
      throw new StorageUnavailableError(`PostgreSQL cannot answer: ${(error as Error).message}`, { cause: error });
    });
  return new Proxy(pool, {
    get: (target, property) => {
      if (property === 'query') return query;
      const value: unknown = Reflect.get(target, property, target);
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
}
