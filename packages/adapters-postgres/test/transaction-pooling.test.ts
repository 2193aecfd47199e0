import { isStorageUnavailable } from '@canteen-meals/domain';
import { describeReadRepositoryContracts, describeRepositoryContracts } from '@canteen-meals/repository-contract';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createPostgresAdapters,
  migrate,
  openPostgres,
  PostgresStorageHealth,
  reportingStorageFailures,
  TransactionRunner,
  withoutSessionState,
  type PostgresAdapters,
} from '../src/index.js';
import { databasePerFile, emptyMenuTablesSql } from './support/test-database.js';
import { behindTransactionPooler } from './support/transaction-pooler.js';

const databaseUrl = databasePerFile();
let raw: pg.Pool;
let pooled: pg.Pool;
let adapters: PostgresAdapters;

beforeAll(async () => {
  // What openPostgres does in `transaction` pool mode: no startup parameters, no named statements, the timeout set
  // in each transaction.
  raw = new pg.Pool({ connectionString: databaseUrl(), max: 6, application_name: 'meals' });
  await migrate(raw);
  pooled = behindTransactionPooler(raw);
  adapters = createPostgresAdapters(reportingStorageFailures(withoutSessionState(pooled)), {
    health: new PostgresStorageHealth(),
    statementTimeoutMs: 10_000,
  });
});
afterAll(async () => {
  await raw?.end();
});

describe('the simulated transaction pooler', () => {
  it('keeps no session state from one statement to the next', async () => {
    await pooled.query("SET statement_timeout = '1234ms'");
    const { rows } = await pooled.query<{ name: string }>("SELECT current_setting('statement_timeout') AS name");
    expect(rows[0]!.name).toBe('0');
  });
});

// Every repository works when no session state survives a statement outside a transaction or a transaction.
const emptied = async () => {
  await raw.query(emptyMenuTablesSql);
  return adapters;
};
describeRepositoryContracts('PostgreSQL behind a transaction pooler', emptied);
describeReadRepositoryContracts('PostgreSQL behind a transaction pooler', emptied);

describe('statement timeouts', () => {
  it('sets the timeout with SET LOCAL in each transaction, where no startup parameter can carry it', async () => {
    const runner = new TransactionRunner(pooled, { statementTimeoutMs: 50 });
    const timeout = await runner.run(
      async (client) =>
        (await client.query<{ t: string }>("SELECT current_setting('statement_timeout') AS t")).rows[0]!.t,
    );
    expect(timeout).toBe('50ms');
    const cut = await runner.run((client) => client.query('SELECT pg_sleep(5)')).catch((error: unknown) => error);
    expect((cut as pg.DatabaseError).code).toBe('57014');
    // Not a session setting: the next statement outside the transaction has none.
    expect((await pooled.query<{ t: string }>("SELECT current_setting('statement_timeout') AS t")).rows[0]!.t).toBe(
      '0',
    );
  });

  it('cuts a statement that runs too long, which then fails as unavailable storage (503), not as a bug', async () => {
    const database = await openPostgres(databaseUrl(), { poolSize: 1, statementTimeoutMs: 100 });
    try {
      const cut = await reportingStorageFailures(database.pool)
        .query('SELECT pg_sleep(5)')
        .catch((error: unknown) => error);
      expect(isStorageUnavailable(cut)).toBe(true);
      expect(((cut as Error).cause as pg.DatabaseError).code).toBe('57014');
      // The connection is fine afterwards: only the statement was cancelled.
      await database.ping();
    } finally {
      await database.close();
    }
  });

  it('sends no startup parameters in `transaction` pool mode (a transaction pooler refuses them)', async () => {
    const database = await openPostgres(databaseUrl(), {
      poolSize: 1,
      poolMode: 'transaction',
      statementTimeoutMs: 100,
    });
    try {
      const { rows } = await database.pool.query<{ t: string; idle: string }>(
        "SELECT current_setting('statement_timeout') AS t, current_setting('idle_in_transaction_session_timeout') AS idle",
      );
      expect(rows[0]).toEqual({ t: '0', idle: '0' });
    } finally {
      await database.close();
    }
  });
});
