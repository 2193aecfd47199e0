import { createInMemoryAdapters } from '@meals/adapters-memory';
import { createSqliteAdapters, openSqliteDatabase } from '@meals/adapters-sqlite';
import type { MarkingRepository, MealCatalog, MealSourceRepository, RatingRepository } from '@meals/domain';
import type { Config } from './config.js';

/** The repositories of one database, and how to let it go. */
export interface Persistence {
  readonly meals: MealCatalog;
  readonly markings: MarkingRepository;
  readonly ratings: RatingRepository;
  readonly mealSources: MealSourceRepository;
  close(): Promise<void>;
}

export function openPersistence(config: Pick<Config, 'database' | 'sqliteSynchronous'>): Persistence {
  switch (config.database.kind) {
    case 'memory':
      return { ...createInMemoryAdapters(), close: async () => {} };
    case 'sqlite': {
      const db = openSqliteDatabase(config.database.path, { synchronous: config.sqliteSynchronous });
      return { ...createSqliteAdapters(db), close: async () => void db.close() };
    }
  }
}
