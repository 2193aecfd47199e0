import { createInMemoryAdapters } from '@meals/adapters-memory';
import { openPostgres } from '@meals/adapters-postgres';
import { createSqliteAdapters, openSqliteDatabase, startBackgroundCheckpoints } from '@meals/adapters-sqlite';
import type {
  MarkingRepository,
  MealCatalog,
  MealQueries,
  MealSourceRepository,
  RatingRepository,
  UserDataRepository,
} from '@meals/domain';
import type { Config } from './config.js';

/** The repositories of one database, and how to let it go. */
export interface Persistence {
  readonly meals: MealCatalog;
  readonly markings: MarkingRepository;
  readonly ratings: RatingRepository;
  readonly queries: MealQueries;
  readonly userData: UserDataRepository;
  readonly mealSources: MealSourceRepository;
  /** Resolves when the database answers a query (the readiness probe); rejects otherwise. */
  ping(): Promise<void>;
  close(): Promise<void>;
}

/** Where the database reports what it recovered from by itself (a retried deadlock, a dropped idle connection). */
export type PersistenceWarning = (details: Record<string, unknown>, message: string) => void;

export const warnOnStderr: PersistenceWarning = (details, message) => console.warn(`meals: ${message}`, details);

export async function openPersistence(
  config: Pick<Config, 'database' | 'sqliteSynchronous' | 'postgresPoolSize'>,
  warn: PersistenceWarning = warnOnStderr,
): Promise<Persistence> {
  switch (config.database.kind) {
    case 'memory':
      return { ...createInMemoryAdapters(), ping: async () => {}, close: async () => {} };
    case 'sqlite': {
      const { path } = config.database;
      const synchronous = config.sqliteSynchronous;
      const db = openSqliteDatabase(path, { synchronous });
      // Unlike SELECT 1, this reads a page of the file; it throws once the connection is closed.
      const probe = db.prepare('SELECT max(version) FROM schema_migrations');
      const checkpoints =
        path === ':memory:'
          ? undefined
          : startBackgroundCheckpoints(path, {
              synchronous,
              onFailure: (message) => warn({ err: message }, 'SQLite background checkpoint failed'),
            });
      const close = async () => {
        await checkpoints?.stop();
        db.close();
      };
      return { ...createSqliteAdapters(db), ping: async () => void probe.get(), close };
    }
    case 'postgres': {
      const { adapters, ping, close } = await openPostgres(config.database.url, {
        poolSize: config.postgresPoolSize,
        onRetry: ({ code, attempt }) => warn({ sqlState: code, attempt }, 'PostgreSQL transaction retried'),
        onPoolError: (error) => warn({ err: error.message }, 'PostgreSQL dropped an idle connection'),
      });
      return { ...adapters, ping, close };
    }
  }
}
