import { openPostgres, type PostgresDatabase } from '@canteen-meals/adapters-postgres';
import { describeWebhookContracts } from '@canteen-meals/repository-contract';
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

// One migrated database for the file; each test starts from empty tables and the `default` canteen alone.
describeWebhookContracts('PostgreSQL', async () => {
  await database.pool.query(`TRUNCATE webhook_deliveries, webhooks, webhook_outbox, ratings, markings, meal_sources, meals, dish_names, dishes, feed_states, label_preferences, dish_aversions;
    DELETE FROM canteens WHERE canteen_id <> 'default';
    UPDATE canteens SET name = 'Default canteen', time_zone = 'UTC', city = NULL, address = NULL, lat = NULL, lng = NULL, feeds = '[]'`);
  return database.adapters;
});
