import pg, { type Pool, type PoolClient } from 'pg';
import type { PostgresStorageHealth } from './storage-health.js';

/** SQLSTATEs after which PostgreSQL has rolled the transaction back and running it again is safe. */
export const retryableStates: ReadonlySet<string> = new Set([
  '40001', // serialization_failure
  '40P01', // deadlock_detected
]);

export interface RetryEvent {
  /** The SQLSTATE that aborted the attempt. */
  readonly code: string;
  /** 1 for the first retry. */
  readonly attempt: number;
  readonly error: Error;
}

export interface TransactionOptions {
  /** How many times a transaction aborted by a serialization failure or a deadlock is run again; 5 by default. */
  readonly maxRetries?: number;
  /** Told of every retry, so that none is silent (the adapters also count them). */
  readonly onRetry?: (event: RetryEvent) => void;
  /** Turns a failing database's errors into `StorageUnavailableError`s, and learns when writes succeed again. */
  readonly health?: PostgresStorageHealth | undefined;
  /**
   * Set with `SET LOCAL` at the start of every transaction (in the same round trip as BEGIN): for connections through a
   * transaction pooler, where the session's startup parameters cannot carry it. Undefined or 0: not set.
   */
  readonly statementTimeoutMs?: number | undefined;
}

/** The SQLSTATE of an error the server sent; undefined for anything else (a lost connection, a domain refusal). */
export function sqlStateOf(error: unknown): string | undefined {
  return error instanceof pg.DatabaseError ? error.code : undefined;
}

/**
 * Thrown by an adapter that finds, inside its transaction, that a concurrent one invalidated what it read (e.g. a meal
 * it took for new was inserted meanwhile). The runner treats it as a serialization failure: rolled back, run again.
 */
export class ConcurrentChangeError extends Error {
  readonly code = '40001';
}

/** Runs `work` in transactions on one pooled connection, retrying the aborts that are safe to retry. */
export class TransactionRunner {
  private retried = 0;
  private readonly maxRetries: number;
  private readonly begin: string;

  constructor(
    private readonly pool: Pool,
    private readonly options: TransactionOptions = {},
  ) {
    this.maxRetries = options.maxRetries ?? 5;
    const timeoutMs = options.statementTimeoutMs ?? 0;
    // One simple-protocol query string: two statements, one round trip.
    this.begin = timeoutMs > 0 ? `BEGIN; SET LOCAL statement_timeout = ${Math.trunc(timeoutMs)}` : 'BEGIN';
  }

  /** How many attempts were run again since this runner was made. */
  get retryCount(): number {
    return this.retried;
  }

  async run<T>(work: (client: PoolClient) => Promise<T>): Promise<T> {
    const health = this.options.health;
    return health === undefined ? this.runRetrying(work) : health.guard(() => this.runRetrying(work));
  }

  private async runRetrying<T>(work: (client: PoolClient) => Promise<T>): Promise<T> {
    for (let attempt = 0; ; attempt++) {
      try {
        return await this.once(work);
      } catch (error) {
        const code = error instanceof ConcurrentChangeError ? error.code : sqlStateOf(error);
        if (code === undefined || !retryableStates.has(code) || attempt >= this.maxRetries) throw error;
        this.retried += 1;
        this.options.onRetry?.({ code, attempt: attempt + 1, error: error as Error });
        // A short random pause, growing with each attempt, so that two transactions that collided do not collide again.
        await new Promise((resolve) => setTimeout(resolve, Math.random() * 5 * 2 ** attempt));
      }
    }
  }

  private async once<T>(work: (client: PoolClient) => Promise<T>): Promise<T> {
    const client = await this.pool.connect();
    let discard: Error | undefined;
    // The server may drop the connection between two statements (a restart): pg then emits the error on the client,
    // which the pool listens to only while the client is idle; unheard, it would end the process.
    const dropped = (error: Error) => {
      discard = error;
    };
    client.on('error', dropped);
    try {
      await client.query(this.begin);
      const result = await work(client);
      await client.query('COMMIT');
      return result;
    } catch (error) {
      // ROLLBACK ends what BEGIN started (after a failed COMMIT it only warns); when even it fails, the connection is
      // in an unknown state and is closed instead of going back to the pool.
      await client.query('ROLLBACK').catch((rollbackFailure: Error) => {
        discard = rollbackFailure;
      });
      throw error;
    } finally {
      client.removeListener('error', dropped);
      client.release(discard);
    }
  }
}
