import { TransactionRunner, type RetryEvent } from '@canteen-meals/adapters-postgres';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databasePerFile } from './support/test-database.js';

const databaseUrl = databasePerFile();
let pool: pg.Pool;
beforeAll(async () => {
  pool = new pg.Pool({ connectionString: databaseUrl(), max: 4 });
  await pool.query('CREATE TABLE counters (id int PRIMARY KEY, n int NOT NULL)');
  await pool.query('INSERT INTO counters VALUES (1, 0), (2, 0)');
});
afterAll(async () => {
  await pool?.end();
});

/** Makes the server itself abort the transaction with this SQLSTATE. */
const raise = (client: pg.PoolClient, state: string) =>
  client.query(`DO $$ BEGIN RAISE EXCEPTION 'induced' USING ERRCODE = '${state}'; END $$`);

describe('TransactionRunner', () => {
  it('runs a transaction again after a serialization failure, and tells of the retry', async () => {
    const events: RetryEvent[] = [];
    const runner = new TransactionRunner(pool, { onRetry: (event) => events.push(event) });
    let attempts = 0;

    const result = await runner.run(async (client) => {
      attempts += 1;
      await client.query('UPDATE counters SET n = n + 1 WHERE id = 1');
      if (attempts === 1) await raise(client, '40001');
      return attempts;
    });

    expect(result).toBe(2);
    expect(runner.retryCount).toBe(1);
    expect(events.map(({ code, attempt }) => ({ code, attempt }))).toEqual([{ code: '40001', attempt: 1 }]);
    // The aborted attempt's update was rolled back: only the second one counts.
    expect((await pool.query('SELECT n FROM counters WHERE id = 1')).rows[0]).toEqual({ n: 1 });
  });

  it('gives up after the bounded number of retries and passes the last error on', async () => {
    const runner = new TransactionRunner(pool, { maxRetries: 2 });
    let attempts = 0;

    await expect(
      runner.run(async (client) => {
        attempts += 1;
        await raise(client, '40P01');
      }),
    ).rejects.toMatchObject({ code: '40P01' });

    expect(attempts).toBe(3);
    expect(runner.retryCount).toBe(2);
  });

  it('does not retry other errors, and rolls them back', async () => {
    const runner = new TransactionRunner(pool);
    let attempts = 0;
    await expect(
      runner.run(async (client) => {
        attempts += 1;
        await client.query('UPDATE counters SET n = 100 WHERE id = 2');
        await raise(client, '23505');
      }),
    ).rejects.toMatchObject({ code: '23505' });
    const refusal = new Error('refused by the domain');
    await expect(runner.run(async () => Promise.reject(refusal))).rejects.toBe(refusal);

    expect(attempts).toBe(1);
    expect(runner.retryCount).toBe(0);
    expect((await pool.query('SELECT n FROM counters WHERE id = 2')).rows[0]).toEqual({ n: 0 });
  });

  it('resolves a real deadlock: the victim is retried and both transactions commit', async () => {
    const events: RetryEvent[] = [];
    const runner = new TransactionRunner(pool, { onRetry: (event) => events.push(event) });
    // Two transactions lock the two rows in opposite orders; each waits for the other to hold its first row.
    let bothHoldFirstRow: () => void = () => {};
    let holding = 0;
    const barrier = new Promise<void>((resolve) => (bothHoldFirstRow = resolve));
    const crosswise = (first: number, second: number) =>
      runner.run(async (client) => {
        await client.query('UPDATE counters SET n = n + 1 WHERE id = $1', [first]);
        if (++holding === 2) bothHoldFirstRow();
        await barrier;
        await client.query('UPDATE counters SET n = n + 1 WHERE id = $1', [second]);
      });
    const before = (await pool.query<{ n: number }>('SELECT sum(n)::int AS n FROM counters')).rows[0]!.n;

    await Promise.all([crosswise(1, 2), crosswise(2, 1)]);

    // The victim's retry may meet the other transaction again before it committed: one deadlock or a few, each retried.
    expect(events.length).toBeGreaterThanOrEqual(1);
    expect(new Set(events.map((event) => event.code))).toEqual(new Set(['40P01']));
    expect(runner.retryCount).toBe(events.length);
    const after = (await pool.query<{ n: number }>('SELECT sum(n)::int AS n FROM counters')).rows[0]!.n;
    expect(after - before).toBe(4);
  });
});
