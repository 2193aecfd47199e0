import { signHmacToken } from '@canteen-meals/adapters-http';
import { openPostgres } from '@canteen-meals/adapters-postgres';
import { MealMother } from '@canteen-meals/repository-contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databasePerFile } from '../../../packages/adapters-postgres/test/support/test-database.js';
import { fitsOneSerialOrder, type ObservedChange } from './support/serial-order.js';
import { startServer, type ServerProcess } from './support/server-process.js';

const secret = 'multi-instance-secret-of-at-least-32-bytes';
const databaseUrl = databasePerFile();
const instances: ServerProcess[] = [];

beforeAll(async () => {
  // Rate limits off: this test is about consistency under load, not about who may send it.
  const env = {
    NODE_ENV: 'production',
    JWT_SECRET: secret,
    DATABASE_URL: databaseUrl(),
    POSTGRES_POOL_SIZE: '5',
    RATE_LIMIT_USER_PER_MIN: '0',
    RATE_LIMIT_IP_PER_MIN: '0',
  };
  // Started together: both migrate the empty database at once, under the advisory lock.
  instances.push(...(await Promise.all([startServer(env), startServer(env)])));
});
afterAll(async () => {
  await Promise.all(instances.map((server) => server.stop('SIGKILL')));
});

async function post(server: ServerProcess, path: string, token: string, body: unknown) {
  const response = await fetch(`${server.url}${path}`, {
    method: path.includes('admin') ? 'PUT' : 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as any };
}

/** A small seeded generator, so that a failure can be replayed. */
function random(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

describe('several server instances on one PostgreSQL', () => {
  const mealIds = [1, 2];
  const users = Array.from({ length: 24 }, (_, index) => `user-${index}`);
  const requestsPerLane = 10;

  it('lose no rating change when many clients rate, re-rate and delete the same meals through all of them', async () => {
    const admin = signHmacToken(secret, { sub: 'admin', scope: 'meals:write' });
    const now = new Date();
    const menu = MealMother.upsertBody(...mealIds.map((id) => MealMother.servedToday(now, { id })));
    const upserted = await post(instances[0]!, '/api/v1/admin/meals', admin, menu);
    expect(upserted.status).toBe(200);

    const observed = new Map<number, ObservedChange[]>(mealIds.map((id) => [id, []]));
    const held = new Map<string, number>(); // `${user}/${meal}` -> the rating the user holds, by their own account
    const failures: string[] = [];

    // Each client rates every meal at once, in one lane per meal; within a lane its requests go one after another
    // (so it knows the rating it held before each), alternating instances. All lanes of all clients run at once.
    const lane = async (user: string, userIndex: number, mealId: number) => {
      const token = signHmacToken(secret, { sub: user });
      const next = random(userIndex * 100 + mealId);
      const key = `${user}/${mealId}`;
      for (let step = 0; step < requestsPerLane; step++) {
        const draw = Math.floor(next() * 7);
        const rating = draw >= 1 && draw <= 5 ? draw : null; // deletions about twice as often as each value
        const server = instances[(userIndex + step) % instances.length]!;
        const { status, body } = await post(server, '/api/v1/rate-meal', token, { meal_id: mealId, rating });
        if (status !== 200) {
          failures.push(`${user} meal ${mealId} rating ${rating}: ${status} ${JSON.stringify(body)}`);
          continue;
        }
        const data = body.data as Statistics;
        observed.get(mealId)!.push({
          previous: held.get(key) ?? null,
          next: rating,
          count: data.rating_count,
          average: data.rating_average,
        });
        if (rating === null) held.delete(key);
        else held.set(key, rating);
        const problem = inconsistency(data, rating, users.length);
        if (problem !== null) failures.push(`${user} meal ${mealId}: ${problem} in ${JSON.stringify(data)}`);
      }
    };
    await Promise.all(users.flatMap((user, userIndex) => mealIds.map((mealId) => lane(user, userIndex, mealId))));

    expect(failures).toEqual([]);
    const database = await openPostgres(databaseUrl(), { poolSize: 1 });
    const client = database.pool;
    try {
      const histograms = await client.query<{ meal_id: string; stored: number[]; recounted: number[] }>(`
        SELECT m.meal_id,
               ARRAY[m.rated_1, m.rated_2, m.rated_3, m.rated_4, m.rated_5] AS stored,
               ARRAY(SELECT count(r.rating)::int FROM generate_series(1, 5) AS v(value)
                     LEFT JOIN ratings r ON r.meal_id = m.meal_id AND r.rating = v.value
                     GROUP BY v.value ORDER BY v.value) AS recounted
        FROM meals m ORDER BY m.meal_id`);
      expect(histograms.rows).toHaveLength(mealIds.length);
      for (const row of histograms.rows) expect(row.stored, `meal ${row.meal_id}`).toEqual(row.recounted);

      // Every user holds exactly the rating their last answered request set.
      const stored = await client.query<{ user_id: string; meal_id: string; rating: number }>(
        'SELECT user_id, meal_id, rating FROM ratings',
      );
      expect(new Map(stored.rows.map((row) => [`${row.user_id}/${row.meal_id}`, row.rating]))).toEqual(held);

      // And every answer fits one serial order of the changes to its meal.
      for (const row of histograms.rows) {
        const final = {
          count: row.stored.reduce((a, b) => a + b, 0),
          sum: row.stored.reduce((a, n, i) => a + n * (i + 1), 0),
        };
        expect(fitsOneSerialOrder(observed.get(Number(row.meal_id))!, final), `meal ${row.meal_id}`).toBeNull();
      }
    } finally {
      await database.close();
    }

    // Locks are always taken meal row first, so the load above must not have needed a single deadlock retry.
    for (const server of instances) expect(server.output()).not.toContain('transaction retried');
  });

  it('keep serving the same data from the instances left when one stops', async () => {
    const alice = signHmacToken(secret, { sub: 'alice' });
    const [first, second] = instances;
    const before = await post(first!, '/api/v1/rate-meal', alice, { meal_id: 1, rating: 4 });
    expect(before.status).toBe(200);

    expect(await first!.stop('SIGTERM')).toBe(0);

    const after = await post(second!, '/api/v1/rate-meal', alice, { meal_id: 1, rating: 4 });
    expect(after).toEqual({ status: 200, body: before.body });
  });
});

interface Statistics {
  rating_count: number;
  rating_average: number | null;
  rating_median: number | null;
  rating_personal: number | null;
}

/** What no answer may ever say, whatever the interleaving: null when the statistics are possible. */
function inconsistency(data: Statistics, requested: number | null, raters: number): string | null {
  const { rating_count: count, rating_average: average, rating_median: median, rating_personal: personal } = data;
  if (personal !== requested) return `personal rating ${personal} instead of ${requested}`;
  if (!Number.isInteger(count) || count < 0 || count > raters) return `count ${count} outside 0..${raters}`;
  if (personal !== null && count < 1) return 'own rating not counted';
  if (count === 0) return average === null && median === null ? null : 'statistics without ratings';
  if (average === null || median === null) return 'no statistics despite ratings';
  const sum = average * count;
  if (Math.abs(sum - Math.round(sum)) > 1e-6 || sum < count || sum > 5 * count) return `impossible mean ${average}`;
  if (median < 1 || median > 5 || !Number.isInteger(median * 2)) return `impossible median ${median}`;
  return null;
}
