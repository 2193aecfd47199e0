import { openPostgres, type PostgresDatabase } from '@canteen-meals/adapters-postgres';
import { describeReadRepositoryContracts, describeRepositoryContracts } from '@canteen-meals/repository-contract';
import { afterAll, beforeAll } from 'vitest';
import { databasePerFile } from './support/test-database.js';

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
  await database.pool.query(`TRUNCATE ratings, markings, meal_sources, meals, dish_names, dishes, feed_states, label_preferences, dish_aversions;
    DELETE FROM canteens WHERE canteen_id <> 'default';
    UPDATE canteens SET name = 'Default canteen', time_zone = 'UTC', city = NULL, address = NULL, lat = NULL, lng = NULL, feeds = '[]'`);
  return database.adapters;
};
describeRepositoryContracts('PostgreSQL', emptied);
describeReadRepositoryContracts('PostgreSQL', emptied);
