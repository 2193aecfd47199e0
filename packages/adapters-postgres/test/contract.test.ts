import { openPostgres, type PostgresDatabase } from '@canteen-meals/adapters-postgres';
import { describeReadRepositoryContracts, describeRepositoryContracts } from '@canteen-meals/repository-contract';
import { afterAll, beforeAll } from 'vitest';
import { databasePerFile, emptyMenuTablesSql } from './support/test-database.js';

const databaseUrl = databasePerFile();
let database: PostgresDatabase;
beforeAll(async () => {
  // The hot statements bare, on a pool of their own (hot-statements.ts); transaction-pooling.test.ts runs the same
  // suites on the functions of migration 016.
  database = await openPostgres(databaseUrl(), { poolSize: 8, hotPoolSize: 4 });
});
afterAll(async () => {
  await database?.close();
});

// One migrated database for the file; each test starts from empty tables, which is what a fresh store means here:
// no meals, no dishes, no feed states, and of the canteens only `default`, as the migration created it.
const emptied = async () => {
  await database.pool.query(emptyMenuTablesSql);
  return database.adapters;
};
describeRepositoryContracts('PostgreSQL', emptied);
describeReadRepositoryContracts('PostgreSQL', emptied);
