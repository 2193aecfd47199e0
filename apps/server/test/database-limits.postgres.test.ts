import { signHmacToken } from '@canteen-meals/adapters-http';
import { MealMother } from '@canteen-meals/repository-contract';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databasePerFile, onServer } from '../../../packages/adapters-postgres/test/support/test-database.js';
import { buildServer } from '../src/composition-root.js';
import { loadConfig } from '../src/config.js';
import { openPersistence } from '../src/persistence.js';

const secret = 'database-limits-secret-of-at-least-32-b';
const databaseUrl = databasePerFile();
const headers = { authorization: `Bearer ${signHmacToken(secret, { sub: 'alice' })}` };
const apps: FastifyInstance[] = [];
type Client = Parameters<Parameters<typeof onServer>[1]>[0];

async function serverWith(env: Record<string, string>) {
  const config = loadConfig({
    DATABASE_URL: databaseUrl(),
    JWT_SECRET: secret,
    LOG_LEVEL: 'silent',
    RATE_LIMIT_USER_PER_MIN: '0',
    RATE_LIMIT_IP_PER_MIN: '0',
    ...env,
  });
  const persistence = await openPersistence(config, () => {});
  const { app } = await buildServer(config, { persistence });
  apps.push(app);
  return app;
}

beforeAll(async () => {
  const app = await serverWith({});
  const admin = { authorization: `Bearer ${signHmacToken(secret, { sub: 'admin', scope: 'meals:write' })}` };
  const upserted = await app.inject({
    method: 'PUT',
    url: '/api/v1/admin/meals',
    headers: admin,
    payload: MealMother.upsertBody(MealMother.servedToday(new Date(), { id: 1 })),
  });
  expect(upserted.statusCode).toBe(200);
});
afterAll(async () => {
  for (const app of apps) await app.close();
});

const bob = { authorization: `Bearer ${signHmacToken(secret, { sub: 'bob' })}` };
const rate = (app: FastifyInstance, rating: number, as: Record<string, string> = headers) =>
  app.inject({ method: 'POST', url: '/api/v1/rate-meal', headers: as, payload: { meal_id: 1, rating } });

/** Runs `work` while a test transaction holds every meal: whoever reads or writes meals waits for it to end. */
function holdingMeals(work: (blocker: Client) => Promise<void>): Promise<void> {
  return onServer(new URL(databaseUrl()), async (blocker) => {
    await blocker.query('BEGIN');
    await blocker.query('LOCK TABLE meals IN ACCESS EXCLUSIVE MODE');
    await work(blocker);
  });
}

/** Resolves once a statement of the service waits for a lock (polled, at most 200 times). */
async function someoneWaitsForALock(blocker: Client): Promise<void> {
  for (let attempt = 0; attempt < 200; attempt++) {
    const { rows } = await blocker.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM pg_stat_activity WHERE application_name = 'meals' AND wait_event_type = 'Lock'",
    );
    if (rows[0]!.n > 0) return;
  }
  throw new Error('no statement of the service waits for the lock');
}

function expectUnavailable(answer: LightMyRequestResponse) {
  expect(answer.statusCode).toBe(503);
  expect(answer.json()).toEqual({
    status: 'error',
    error: {
      code: 'storage_unavailable',
      message: 'The database cannot store this write now; nothing was saved. Retry later.',
    },
  });
  expect(answer.headers['retry-after']).toBe('2');
}

describe('PostgreSQL connection limits (DATABASE_POOL_QUEUE_TIMEOUT_MS, DATABASE_STATEMENT_TIMEOUT_MS)', () => {
  it('answers 503 with Retry-After when no pooled connection frees in time, and serves again once one does', async () => {
    const app = await serverWith({ POSTGRES_POOL_SIZE: '1', DATABASE_POOL_QUEUE_TIMEOUT_MS: '100' });
    await holdingMeals(async (blocker) => {
      // The pool's one connection is taken by a rating that waits for the test transaction.
      const first = rate(app, 4);
      await someoneWaitsForALock(blocker);
      // Another user: a second change of alice's rating would wait for the first one's batch, not for the pool.
      expectUnavailable(await rate(app, 5, bob));
      expectUnavailable(await app.inject({ method: 'GET', url: '/api/v1/meals/1', headers })); // a read waits in the same queue
      await blocker.query('COMMIT');
      expect((await first).statusCode).toBe(200);
    });
    expect((await rate(app, 5)).statusCode).toBe(200);
    expect((await app.inject({ method: 'GET', url: '/readyz' })).statusCode).toBe(200);
  });

  it("cuts a statement that runs past the timeout: 503, nothing of PostgreSQL's message, and the next request is served", async () => {
    const app = await serverWith({ POSTGRES_POOL_SIZE: '2', DATABASE_STATEMENT_TIMEOUT_MS: '200' });
    await holdingMeals(async (blocker) => {
      expectUnavailable(await rate(app, 2));
      expectUnavailable(await app.inject({ method: 'GET', url: '/api/v1/meals/1', headers }));
      await blocker.query('ROLLBACK');
    });
    const after = await rate(app, 3);
    expect(after.statusCode).toBe(200);
    expect(after.json()).toMatchObject({ status: 'success', data: { rating_personal: 3 } });
    expect((await app.inject({ method: 'GET', url: '/readyz' })).statusCode).toBe(200);
  });
});
