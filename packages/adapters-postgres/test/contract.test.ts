import { openPostgres, type PostgresDatabase } from '@canteen-meals/adapters-postgres';
import { describeReadRepositoryContracts, describeRepositoryContracts } from '@canteen-meals/repository-contract';
import { afterAll, beforeAll } from 'vitest';
import { databasePerFile, emptyMenuTablesSql } from './support/test-database.js';

const databaseUrl = databasePerFile();
let database: PostgresDatabase;
beforeAll(async () => {
  database = await openPostgres(databaseUrl(), { poolSize: 8 });
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
