import { FixedClock } from '@canteen-meals/adapters-memory';
import { signHmacToken } from '@canteen-meals/adapters-http';
import { MealMother } from '@canteen-meals/repository-contract';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databasePerFile } from '../../../packages/adapters-postgres/test/support/test-database.js';
import { buildServer } from '../src/composition-root.js';
import { loadConfig } from '../src/config.js';
import { openPersistence, type Persistence } from '../src/persistence.js';

const secret = 'shared-rate-limits-secret-of-32-bytes!!';
const databaseUrl = databasePerFile();
const userLimit = 5;
// Two seconds into a minute: the window of the fixed minute 12:00 runs until 12:01:00.000.
const clock = new FixedClock('2026-03-02T12:00:02.000Z');
const instances: { app: FastifyInstance; persistence: Persistence }[] = [];

async function instance(env: Record<string, string> = {}) {
  const config = loadConfig({
    DATABASE_URL: databaseUrl(),
    JWT_SECRET: secret,
    LOG_LEVEL: 'silent',
    POSTGRES_POOL_SIZE: '2',
    RATE_LIMIT_USER_PER_MIN: String(userLimit),
    RATE_LIMIT_IP_PER_MIN: '1000',
    ...env,
  });
  const persistence = await openPersistence(config, () => {});
  const { app } = await buildServer(config, { persistence, clock });
  instances.push({ app, persistence });
  return app;
}

beforeAll(async () => {
  await instance();
  await instances[0]!.persistence.meals.upsertMany([
    MealMother.servedAt(new Date(clock.now().getTime() - 60_000), { id: 1 }),
  ]);
  await instance();
});
afterAll(async () => {
  for (const { app } of instances) await app.close();
});

const bearer = (sub: string) => ({ authorization: `Bearer ${signHmacToken(secret, { sub })}` });
const mark = (app: FastifyInstance, sub: string) =>
  app.inject({ method: 'POST', url: '/api/v1/mark-meal', headers: bearer(sub), payload: { meal_id: 1, marked: true } });

function expectRateLimited(response: LightMyRequestResponse) {
  expect(response.statusCode).toBe(429);
  expect(response.json()).toEqual({ status: 'error', error: { code: 'rate_limited', message: expect.any(String) } });
  // 58 s remain of the fixed minute.
  expect(response.headers['retry-after']).toBe('58');
  expect(response.headers['x-ratelimit-limit']).toBe(String(userLimit));
  expect(response.headers['x-ratelimit-remaining']).toBe('0');
  expect(response.headers['x-ratelimit-reset']).toBe('58');
}

describe('rate limits shared by every instance on one PostgreSQL (RATE_LIMIT_STORE=database, the default)', () => {
  it('allows one user N requests per minute through both instances together, not 2N', async () => {
    const [a, b] = [instances[0]!.app, instances[1]!.app];
    const statuses: number[] = [];
    for (let i = 0; i < userLimit; i++) {
      const answer = await mark(i % 2 === 0 ? a : b, 'alice');
      statuses.push(answer.statusCode);
      expect(answer.headers['x-ratelimit-remaining']).toBe(String(userLimit - 1 - i));
    }
    expect(statuses).toEqual(Array(userLimit).fill(200));
    expectRateLimited(await mark(a, 'alice'));
    expectRateLimited(await mark(b, 'alice'));
    // Another user has a count of their own.
    expect((await mark(b, 'bob')).statusCode).toBe(200);
  });

  it('counts requests that arrive at once on both instances exactly: N pass, the rest are refused', async () => {
    const [a, b] = [instances[0]!.app, instances[1]!.app];
    const answers = await Promise.all(
      Array.from({ length: 3 * userLimit }, (_, i) => mark(i % 2 === 0 ? a : b, 'carol')),
    );
    const statuses = answers.map((answer) => answer.statusCode);
    expect(statuses.filter((status) => status === 200)).toHaveLength(userLimit);
    expect(statuses.filter((status) => status === 429)).toHaveLength(2 * userLimit);
  });

  it('opens a new window at the next full minute on every instance, whenever the user started', async () => {
    const [a, b] = [instances[0]!.app, instances[1]!.app];
    for (let i = 0; i < userLimit; i++) expect((await mark(b, 'dave')).statusCode).toBe(200);
    clock.set('2026-03-02T12:00:59.999Z');
    expect((await mark(a, 'dave')).statusCode).toBe(429);
    clock.set('2026-03-02T12:01:00.000Z');
    const fresh = await mark(a, 'dave');
    expect(fresh.statusCode).toBe(200);
    expect(fresh.headers['x-ratelimit-remaining']).toBe(String(userLimit - 1));
    expect(fresh.headers['x-ratelimit-reset']).toBe('60');
    clock.set('2026-03-02T12:00:02.000Z');
  });

  it('counts on each instance alone with RATE_LIMIT_STORE=memory', async () => {
    const c = await instance({ RATE_LIMIT_STORE: 'memory' });
    const d = await instance({ RATE_LIMIT_STORE: 'memory' });
    for (let i = 0; i < userLimit; i++) expect((await mark(c, 'erin')).statusCode).toBe(200);
    expect((await mark(c, 'erin')).statusCode).toBe(429);
    expect((await mark(d, 'erin')).statusCode).toBe(200);
  });
});
