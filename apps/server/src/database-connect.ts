import type { Config } from './config.js';
import { openPersistence, type Persistence, type PersistenceWarning } from './persistence.js';
import { StartUpError } from './start-up-error.js';

/** A start waiting for its database: why, and when the next try is. */
export interface DatabaseWaiting {
  readonly reason: string;
  readonly attempt: number;
  readonly retryInMs: number;
}

export interface ConnectOptions {
  readonly onWaiting?: (waiting: DatabaseWaiting) => void | Promise<void>;
  /** Tests shorten the waits; production waits for real. */
  readonly sleep?: (ms: number) => Promise<void>;
  readonly now?: () => number;
}

const firstRetryMs = 250;
const longestRetryMs = 5_000;

/**
 * Opens the database. PostgreSQL that does not answer yet (it starts beside the service, in compose or after a
 * reboot) is tried again with backoff for DATABASE_CONNECT_TIMEOUT_S; a login or a database it refuses is a setting
 * to fix, not a wait. Either way a failure is one StartUpError line that names the database and what to do.
 */
export async function openPersistenceWhenReachable(
  config: Parameters<typeof openPersistence>[0] & Pick<Config, 'databaseConnectTimeoutMs'>,
  warn: PersistenceWarning,
  options: ConnectOptions = {},
): Promise<Persistence> {
  if (config.database.kind !== 'postgres') return openPersistence(config, warn);
  const where = postgresLocation(config.database.url);
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  const now = options.now ?? Date.now;
  const deadline = now() + config.databaseConnectTimeoutMs;
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await openPersistence(config, warn);
    } catch (error) {
      const reason = describeConnectError(error);
      if (!isUnreachable(error)) {
        throw new StartUpError(
          `PostgreSQL at ${where} refused the start (${reason}): check the user, password and database name in DATABASE_URL.`,
        );
      }
      const retryInMs = Math.min(firstRetryMs * 2 ** (attempt - 1), longestRetryMs, deadline - now());
      if (retryInMs <= 0) {
        throw new StartUpError(
          `PostgreSQL at ${where} did not answer within ${config.databaseConnectTimeoutMs / 1000} s (${reason}): start it, ` +
            'or correct the host and port in DATABASE_URL (DATABASE_CONNECT_TIMEOUT_S sets how long a start waits).',
        );
      }
      await options.onWaiting?.({
        reason: `PostgreSQL at ${where} does not answer yet (${reason})`,
        attempt,
        retryInMs,
      });
      await sleep(retryInMs);
    }
  }
}

/** Node's network error codes, and PostgreSQL's own "not now" (starting up, shutting down, too many connections). */
const unreachableCodes = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ENOTFOUND',
  'EAI_AGAIN',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EPIPE',
  '57P03',
  '57P01',
  '53300',
]);

function isUnreachable(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const { code, message } = error as { code?: unknown; message?: unknown };
  if (typeof code === 'string') return unreachableCodes.has(code);
  // pg's own connection timeout and a connection closed before it was ready carry no code.
  return typeof message === 'string' && /timeout|terminated|closed/i.test(message);
}

function describeConnectError(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.split('\n')[0]!;
}

/** Host, port and database only: the URL's password never reaches a log. */
export function postgresLocation(url: string): string {
  try {
    const { hostname, port, pathname } = new URL(url);
    return `${hostname}${port === '' ? '' : `:${port}`}${pathname}`;
  } catch {
    return '(unparsed URL)';
  }
}
