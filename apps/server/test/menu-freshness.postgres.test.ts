import { FixedClock } from '@canteen-meals/adapters-memory';
import { signHmacToken } from '@canteen-meals/adapters-http';
import { MealMother } from '@canteen-meals/repository-contract';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databasePerFile } from '../../../packages/adapters-postgres/test/support/test-database.js';
import { buildServer } from '../src/composition-root.js';
import { loadConfig } from '../src/config.js';
import { openPersistence } from '../src/persistence.js';

// Two instances of the server on one PostgreSQL database, each with the server's default menu caching and a clock
// of its own that the test moves: how old can a public menu's statistics be on the instance that took a rating, and
// on the other one, which is not told of it?

const secret = 'menu-freshness-secret-of-at-least-32-bytes';
const databaseUrl = databasePerFile();
const now = new Date('2026-03-10T12:00:00.000Z');
const publicMenu = '/api/v1/meals?canteen=default&date=2026-03-10';
const closeLater: (() => Promise<unknown>)[] = [];
let instances: { app: FastifyInstance; clock: FixedClock }[];

beforeAll(async () => {
  const config = loadConfig({ DATABASE_URL: databaseUrl(), LOG_LEVEL: 'silent', POSTGRES_POOL_SIZE: '2', JWT_SECRET: secret, TZ_NAME: 'UTC' });
  expect(config.menuCaching).toMatchObject({ ratingsMaxAgeMs: 1000, ttlMs: 4000 });
  instances = [];
  for (let i = 0; i < 2; i++) {
    const persistence = await openPersistence(config, () => {});
    const clock = new FixedClock(now);
    const { app } = await buildServer(config, { persistence, clock });
    closeLater.push(() => app.close(), () => persistence.close());
    instances.push({ app, clock });
  }
  const admin = `Bearer ${signHmacToken(secret, { sub: 'admin', scope: 'meals:write', expiresInMs: 3_600_000 })}`;
  const upsert = await instances[0]!.app.inject({
    method: 'PUT',
    url: '/api/v1/admin/meals',
    headers: { authorization: admin },
    payload: MealMother.upsertBody(MealMother.servedAt(new Date('2026-03-10T11:00:00.000Z'), { id: 1, name: 'Pho' })),
  });
  expect(upsert.statusCode, upsert.body).toBe(200);
});
afterAll(async () => {
  for (const close of closeLater.reverse()) await close();
});

const countOn = async (instance: { app: FastifyInstance }) => {
  const response = await instance.app.inject({ method: 'GET', url: publicMenu });
  expect(response.statusCode).toBe(200);
  return (response.json() as { data: { meals: { rating_count: number }[] } }).data.meals[0]!.rating_count;
};
const at = (ms: number) => {
  for (const { clock } of instances) clock.set(now.getTime() + ms);
};

describe('public menus of instances sharing PostgreSQL', () => {
  it('show a rating within 1 s on the instance that took it, and within 4 s on the other', async () => {
    const [writer, other] = instances as [(typeof instances)[0], (typeof instances)[0]];
    at(0);
    expect([await countOn(writer), await countOn(other)]).toEqual([0, 0]);

    const token = signHmacToken(secret, { sub: 'alice', expiresInMs: 3_600_000 });
    const rated = await writer.app.inject({
      method: 'POST',
      url: '/api/v1/rate-meal',
      headers: { authorization: `Bearer ${token}` },
      payload: { meal_id: 1, rating: 5 },
    });
    expect(rated.json()).toMatchObject({ status: 'success', data: { rating_count: 1 } });

    // Both kept the answer read at 0 ms; the writer was told of the rating, the other instance was not.
    at(999);
    expect([await countOn(writer), await countOn(other)]).toEqual([0, 0]);
    at(1000);
    expect([await countOn(writer), await countOn(other)]).toEqual([1, 0]);
    at(3999);
    expect(await countOn(other)).toBe(0);
    at(4000);
    expect(await countOn(other)).toBe(1);
  });
});
