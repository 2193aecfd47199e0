import { signHmacToken } from '@canteen-meals/adapters-http';
import { MealMother } from '@canteen-meals/repository-contract';
import { startThrowawayCluster, type ThrowawayCluster } from '@canteen-meals/test-postgres';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { onServer } from '../../../packages/adapters-postgres/test/support/test-database.js';
import { buildServer } from '../src/composition-root.js';
import { loadConfig } from '../src/config.js';
import { openPersistence } from '../src/persistence.js';

const secret = 'database-restart-secret-of-at-least-32-b';
const mealIds = [1, 2, 3];
let cluster: ThrowawayCluster;
let databaseUrl: string;
let app: FastifyInstance;

beforeAll(async () => {
  // A cluster of its own (the shared one serves other files meanwhile), with the durability of production: an
  // acknowledged commit is flushed before the answer, so a restart may not lose it.
  cluster = await startThrowawayCluster({
    settings: { fsync: 'on', synchronous_commit: 'on', full_page_writes: 'on' },
  });
  databaseUrl = await cluster.createDatabase('meals_restart');
  const config = loadConfig({
    DATABASE_URL: databaseUrl,
    JWT_SECRET: secret,
    LOG_LEVEL: 'silent',
    POSTGRES_POOL_SIZE: '4',
    DATABASE_POOL_QUEUE_TIMEOUT_MS: '1000',
    DATABASE_STATEMENT_TIMEOUT_MS: '5000',
    RATE_LIMIT_USER_PER_MIN: '0',
    RATE_LIMIT_IP_PER_MIN: '0',
  });
  const persistence = await openPersistence(config, () => {});
  ({ app } = await buildServer(config, { persistence }));
  await persistence.meals.upsertMany(mealIds.map((id) => MealMother.servedAt(new Date(Date.now() - 60_000), { id })));
});
afterAll(async () => {
  await app?.close();
  await cluster?.stop();
});

interface Attempt {
  readonly user: string;
  readonly mealId: number;
  readonly rating: number;
  readonly status: number;
  readonly body: { status: string; error?: { code: string; message: string } };
  readonly retryAfter: string | undefined;
}

/** Resolves when `predicate` holds for the attempts so far; checked after each answer. */
class Attempts {
  readonly all: Attempt[] = [];
  private waiters: { predicate: (all: readonly Attempt[]) => boolean; resolve: () => void }[] = [];

  add(attempt: Attempt): void {
    this.all.push(attempt);
    this.waiters = this.waiters.filter((waiter) => (waiter.predicate(this.all) ? (waiter.resolve(), false) : true));
  }

  until(predicate: (all: readonly Attempt[]) => boolean): Promise<void> {
    if (predicate(this.all)) return Promise.resolve();
    return new Promise((resolve) => this.waiters.push({ predicate, resolve }));
  }
}

describe('PostgreSQL restarting under load', () => {
  it('loses no acknowledged rating, answers 503 meanwhile, and serves again by itself (readiness too)', async () => {
    const attempts = new Attempts();
    let running = true;
    // Each lane rates one meal after another as ever new users: every acknowledged rating must be in the database.
    const lane = async (laneIndex: number) => {
      for (let i = 0; running; i++) {
        const user = `lane-${laneIndex}-user-${i}`;
        const mealId = mealIds[i % mealIds.length]!;
        const rating = 1 + ((laneIndex + i) % 5);
        const answer = await app.inject({
          method: 'POST',
          url: '/api/v1/rate-meal',
          headers: { authorization: `Bearer ${signHmacToken(secret, { sub: user })}` },
          payload: { meal_id: mealId, rating },
        });
        const retryAfter = answer.headers['retry-after'];
        attempts.add({
          user,
          mealId,
          rating,
          status: answer.statusCode,
          body: answer.json(),
          retryAfter: retryAfter === undefined ? undefined : String(retryAfter),
        });
      }
    };
    const lanes = Array.from({ length: 6 }, (_, index) => lane(index));

    const ok = (all: readonly Attempt[]) => all.filter((attempt) => attempt.status === 200).length;
    await attempts.until((all) => ok(all) >= 30);
    let refusedWhileDown = 0;
    await cluster.restart({
      mode: 'fast',
      // While the server is down, the lanes' requests are refused: wait for some, then let it start again.
      onStopped: async () => {
        const before = attempts.all.length;
        await attempts.until((all) => all.slice(before).filter((attempt) => attempt.status === 503).length >= 6);
        refusedWhileDown = attempts.all.slice(before).filter((attempt) => attempt.status === 503).length;
      },
    });
    const afterRestart = attempts.all.length;
    await attempts.until((all) => ok(all.slice(afterRestart)) >= 30);
    running = false;
    await Promise.all(lanes);

    expect(refusedWhileDown).toBeGreaterThanOrEqual(6);
    // Nothing but acknowledgements and 503s in the envelope, never a 500 or a PostgreSQL message.
    for (const attempt of attempts.all) {
      if (attempt.status === 200) continue;
      expect(attempt.status).toBe(503);
      expect(attempt.body).toEqual({
        status: 'error',
        error: {
          code: 'storage_unavailable',
          message: 'The database cannot store this write now; nothing was saved. Retry later.',
        },
      });
      expect(attempt.retryAfter).toBe('2');
    }

    // Every acknowledged rating is stored with its value, and the histograms agree with the ratings.
    await onServer(new URL(databaseUrl), async (client) => {
      const { rows } = await client.query<{ user_id: string; meal_id: string; rating: number }>(
        'SELECT user_id, meal_id, rating FROM ratings',
      );
      const stored = new Map(rows.map((row) => [`${row.user_id}/${row.meal_id}`, row.rating]));
      const acknowledged = attempts.all.filter((attempt) => attempt.status === 200);
      expect(
        acknowledged.filter((attempt) => stored.get(`${attempt.user}/${attempt.mealId}`) !== attempt.rating),
      ).toEqual([]);
      const counts = await client.query<{ meal_id: string; histogram: number; recount: number }>(
        `SELECT m.meal_id, m.rated_1 + m.rated_2 + m.rated_3 + m.rated_4 + m.rated_5 AS histogram,
                (SELECT count(*)::int FROM ratings r WHERE r.meal_id = m.meal_id) AS recount
           FROM meals m`,
      );
      for (const row of counts.rows) expect(row.histogram).toBe(row.recount);
    });

    // Ready again without a restart of the service: polled, a bounded number of times.
    let ready = 0;
    for (let attempt = 0; attempt < 20 && ready !== 200; attempt++) {
      ready = (await app.inject({ method: 'GET', url: '/readyz' })).statusCode;
    }
    expect(ready).toBe(200);
  }, 60_000);
});
