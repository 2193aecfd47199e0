import { openPostgres, type PostgresDatabase } from '@canteen-meals/adapters-postgres';
import { describeAuditLogContract } from '@canteen-meals/repository-contract';
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

// One migrated database for the file; each test starts from an empty trail, empty tables and the `default` canteen.
describeAuditLogContract('PostgreSQL', async () => {
  await database.pool.query(
    `DELETE FROM audit_log; DELETE FROM webhook_deliveries; DELETE FROM webhooks; DELETE FROM webhook_outbox; ${emptyMenuTablesSql}`,
  );
  return database.adapters;
});
