import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrate, PostgresHitCounter } from '../src/index.js';
import { databasePerFile } from './support/test-database.js';

const databaseUrl = databasePerFile();
const minute = 60_000;
const noon = Date.UTC(2026, 2, 2, 12, 0);
let pool: pg.Pool;
let statements: string[];

beforeAll(async () => {
  pool = new pg.Pool({ connectionString: databaseUrl(), max: 2 });
  await migrate(pool);
  // Every statement the counter sends, in order.
  const query = pool.query.bind(pool) as (...args: unknown[]) => Promise<unknown>;
  pool.query = ((...args: unknown[]) => {
    statements.push(String(args[0]).trim().split(/\s+/)[0]!);
    return query(...args);
  }) as typeof pool.query;
});
afterAll(async () => {
  await pool.end();
});

async function rows() {
  const { rows } = await pool.query<{ key: string; window_start: string; hits: number }>(
    'SELECT key, window_start, hits FROM rate_limit_hits ORDER BY key, window_start',
  );
  statements = [];
  return rows.map((row) => ({ key: row.key, windowStart: Number(row.window_start), hits: row.hits }));
}

describe("PostgresHitCounter: the rate limits' count shared by every instance", () => {
  it('sends the hits of one event-loop turn in one statement, and tells each hit the count right after it', async () => {
    statements = [];
    const counter = new PostgresHitCounter(pool);
    const answers = await Promise.all([
      counter.hit('user:alice', noon, minute),
      counter.hit('user:bob', noon, minute),
      counter.hit('user:alice', noon, minute),
      counter.hit('user:alice', noon, minute),
    ]);
    expect(answers).toEqual([1, 1, 2, 3]);
    expect(statements).toEqual(['INSERT', 'DELETE']); // the batch, then the first prune of this counter
    expect(await rows()).toEqual([
      { key: 'user:alice', windowStart: noon, hits: 3 },
      { key: 'user:bob', windowStart: noon, hits: 1 },
    ]);
  });

  it('adds to the count another instance (another counter) keeps in the same window', async () => {
    const other = new PostgresHitCounter(pool);
    expect(await other.hit('user:alice', noon, minute)).toBe(4);
    expect(
      await Promise.all([
        other.hit('user:carol', noon, minute),
        new PostgresHitCounter(pool).hit('user:carol', noon, minute),
      ]),
    ).toEqual(expect.arrayContaining([1, 2]));
  });

  it('starts a new window from zero, and deletes the windows that ended before it', async () => {
    const counter = new PostgresHitCounter(pool);
    expect(await counter.hit('user:alice', noon + minute, minute)).toBe(1);
    await counter.settled();
    expect(await rows()).toEqual([{ key: 'user:alice', windowStart: noon + minute, hits: 1 }]);
  });

  it('rejects every hit of a batch when the database refuses it', async () => {
    const counter = new PostgresHitCounter(pool);
    const tooLong = 'k'.repeat(301); // the table's check refuses it: the whole statement fails
    const results = await Promise.allSettled([
      counter.hit('user:dave', noon + minute, minute),
      counter.hit(tooLong, noon + minute, minute),
    ]);
    expect(results.map((result) => result.status)).toEqual(['rejected', 'rejected']);
  });
});
