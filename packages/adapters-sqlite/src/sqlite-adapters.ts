import type { Database } from 'better-sqlite3';
import { SqliteMarkingRepository } from './sqlite-marking-repository.js';
import { SqliteMealCatalog } from './sqlite-meal-catalog.js';
import { SqliteMealSourceRepository } from './sqlite-meal-source-repository.js';
import { SqliteRatingRepository } from './sqlite-rating-repository.js';

/** Every repository over one open database. */
export function createSqliteAdapters(db: Database) {
  return {
    meals: new SqliteMealCatalog(db),
    markings: new SqliteMarkingRepository(db),
    ratings: new SqliteRatingRepository(db),
    mealSources: new SqliteMealSourceRepository(db),
  };
}
