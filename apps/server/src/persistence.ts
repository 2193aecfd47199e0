import type { ChangeRelay, ChangeRelayEvent } from '@canteen-meals/adapters-postgres';
import type { SqliteServiceOptions } from '@canteen-meals/adapters-sqlite';
import type { SharedHitCounter } from '@canteen-meals/adapters-http';
import type { MenuChangeHub, Repositories } from '@canteen-meals/domain';
import { existsSync } from 'node:fs';
import { basename, dirname, join, relative } from 'node:path';
import { ConfigError, type Config } from './config.js';

/** The repositories of one database, and how to let it go. */
export interface Persistence extends Repositories {
  /** Resolves when the database answers a query (the readiness probe); rejects otherwise. */
  ping(): Promise<void>;
  close(): Promise<void>;
  /**
   * Only where other instances share the database (PostgreSQL): sends this instance's menu changes to them and
   * publishes theirs into `hub`, until stopped (before `close`). SQLite and memory have no other instances to tell:
   * their changes stay in-process.
   */
  relayChanges?(hub: MenuChangeHub, onEvent: (event: ChangeRelayEvent) => void): ChangeRelay;
  /** Only where other instances share the database (PostgreSQL): the rate limits' count they all add to. */
  readonly hitCounter?: SharedHitCounter;
}

/** Where the database reports what it recovered from by itself (a retried deadlock, a dropped idle connection). */
export type PersistenceWarning = (details: Record<string, unknown>, message: string) => void;

export const warnOnStderr: PersistenceWarning = (details, message) => console.warn(`meals: ${message}`, details);

export async function openPersistence(
  config: Pick<Config, 'database' | 'sqliteSynchronous' | 'postgresPoolSize'> &
    Partial<Pick<Config, 'production' | 'databaseCreate' | 'timeZone' | 'databaseListenUrl' | 'postgres'>>,
  warn: PersistenceWarning = warnOnStderr,
): Promise<Persistence> {
  // Only the configured adapter is loaded: a SQLite server never reads the PostgreSQL driver, nor the reverse (start
  // time).
  switch (config.database.kind) {
    case 'memory': {
      const { createInMemoryAdapters, InMemoryDatabase } = await import('@canteen-meals/adapters-memory');
      return {
        ...createInMemoryAdapters(new InMemoryDatabase({ defaultTimeZone: config.timeZone })),
        ping: async () => {},
        close: async () => {},
      };
    }
    case 'sqlite': {
      const sqlite = await import('@canteen-meals/adapters-sqlite');
      // An unmounted volume must not become an empty service: production creates the file only when told to.
      const create = config.production !== true || config.databaseCreate === true;
      const { adapters, ping, close } = openSqliteOrRefuse(sqlite, config.database.path, {
        synchronous: config.sqliteSynchronous,
        create,
        defaultTimeZone: config.timeZone,
        onUnavailable: (reason) =>
          warn({ reason }, 'SQLite storage unavailable: writes answer 503 storage_unavailable'),
        onCheckpointFailure: (message, failures) =>
          warn({ err: message, failures }, 'SQLite background checkpoint failed'),
      });
      return { ...adapters, ping, close };
    }
    case 'postgres': {
      const { openPostgres, startChangeRelay } = await import('@canteen-meals/adapters-postgres');
      const { adapters, ping, close, pool, hitCounter } = await openPostgres(config.database.url, {
        poolSize: config.postgresPoolSize,
        ...(config.postgres && {
          poolMode: config.postgres.poolMode,
          poolQueueTimeoutMs: config.postgres.poolQueueTimeoutMs,
          statementTimeoutMs: config.postgres.statementTimeoutMs,
          migrationUrl: config.postgres.migrationUrl,
        }),
        defaultTimeZone: config.timeZone,
        onRetry: ({ code, attempt }) => warn({ sqlState: code, attempt }, 'PostgreSQL transaction retried'),
        onPoolError: (error) => warn({ err: error.message }, 'PostgreSQL dropped an idle connection'),
        onUnavailable: (reason) =>
          warn({ reason }, 'PostgreSQL storage unavailable: writes answer 503 storage_unavailable'),
        onRateLimitPruneFailure: (error) => warn({ err: error.message }, 'could not delete ended rate-limit windows'),
      });
      // LISTEN needs a session of its own: a direct connection, not one through a transaction-pooling proxy.
      const listenUrl = config.databaseListenUrl ?? config.database.url;
      const relayChanges = (hub: MenuChangeHub, onEvent: (event: ChangeRelayEvent) => void) =>
        startChangeRelay({ connectionString: listenUrl, notifier: pool, hub, onEvent });
      return { ...adapters, ping, close, relayChanges, hitCounter };
    }
  }
}

function openSqliteOrRefuse(
  {
    openSqlite,
    SqliteDatabaseMissingError,
    SqliteDatabaseReadOnlyError,
  }: typeof import('@canteen-meals/adapters-sqlite'),
  path: string,
  options: SqliteServiceOptions,
) {
  try {
    return openSqlite(path, options);
  } catch (error) {
    if (error instanceof SqliteDatabaseReadOnlyError) {
      throw new ConfigError(
        `${error.message}: give the server's user write access to the file and its folder, or serve a writable copy.`,
      );
    }
    if (!(error instanceof SqliteDatabaseMissingError)) throw error;
    throw new ConfigError(
      `${error.message}, and NODE_ENV=production does not create it (is the volume mounted?). ` +
        `Create it with \`${initDatabaseCommand()}\`, or set DATABASE_CREATE=1 to let the server create it.`,
    );
  }
}

/**
 * The command that creates the database where this server runs: a bundle (`node main.js`, `pnpm bundle`) has no pnpm
 * scripts, only the built CLI beside its entry point.
 */
function initDatabaseCommand(entry = process.argv[1]): string {
  if (entry !== undefined && basename(entry) === 'main.js') {
    const cli = join(dirname(entry), 'dist/cli/init-database.js');
    if (existsSync(cli)) return `node ${relative(process.cwd(), cli)}`;
  }
  return 'pnpm db:init';
}
