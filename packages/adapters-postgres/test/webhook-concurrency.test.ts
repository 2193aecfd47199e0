import { openPostgres, type PostgresDatabase } from '@canteen-meals/adapters-postgres';
import type { Meal } from '@canteen-meals/domain';
import { MealMother, webhookDefinition } from '@canteen-meals/repository-contract';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { databasePerFile } from './support/test-database.js';

// Two instances sharing one database: two pools, each with workers of its own, race for the same outbox rows.
const databaseUrl = databasePerFile();
let first: PostgresDatabase;
let second: PostgresDatabase;
beforeAll(async () => {
  first = await openPostgres(databaseUrl(), { poolSize: 4 });
  second = await openPostgres(databaseUrl(), { poolSize: 4 });
});
afterAll(async () => {
  await first?.close();
  await second?.close();
});
beforeEach(async () => {
  await first.pool.query(
    'TRUNCATE webhook_deliveries, webhooks, webhook_outbox, ratings, markings, meal_sources, meals, dish_names, dishes',
  );
});

const start = new Date('2026-03-09T10:00:00.000Z');
const day = 24 * 60 * 60 * 1000;
const workersPerInstance = 3;
const rounds = 8;

/** `count` meals from id `from` on, one per day: one upsert, one menu.published per meal, recorded in one statement. */
function mealsOnDays(from: number, count: number): Meal[] {
  return Array.from({ length: count }, (_, index) =>
    MealMother.servedAt(new Date(start.getTime() + (index + 1) * day), { id: from + index }),
  );
}

/** Runs `work` in every worker of both instances at once, each until it answers that nothing was left. */
async function race(work: (database: PostgresDatabase) => Promise<boolean>): Promise<void> {
  const worker = async (database: PostgresDatabase) => {
    while (await work(database));
  };
  await Promise.all(
    [first, second].flatMap((database) => Array.from({ length: workersPerInstance }, () => worker(database))),
  );
}

describe('the webhook outbox on PostgreSQL, two instances at once', () => {
  it('never lets two claims take the same delivery: every delivery is claimed exactly once, round after round', async () => {
    const { webhooks, meals, outbox } = first.adapters;
    await webhooks.save(webhookDefinition('a', { events: ['menu.published'] }), start);
    await webhooks.save(webhookDefinition('b', { events: ['menu.published'] }), start);
    for (let round = 0; round < rounds; round++) {
      const at = new Date(start.getTime() + round * 1000);
      await meals.upsertMany(mealsOnDays(round * 100 + 1, 30), undefined, at);
      while ((await outbox.fanOut(at, 100)) > 0);
      const claimed: string[] = [];

      // A lease far longer than the test: nothing claimed is due again, so a second claim would be a double claim.
      await race(async (database) => {
        const claims = await database.adapters.outbox.claimDue(at, 4, 60 * 60 * 1000);
        claimed.push(...claims.map(({ delivery }) => `${delivery.webhookId} ${delivery.event.id}`));
        return claims.length > 0;
      });

      expect(claimed).toHaveLength(60);
      expect(new Set(claimed).size).toBe(60);
      for (const key of claimed) {
        const [webhookId, eventId] = key.split(' ') as [string, string];
        await outbox.record(webhookId, eventId, { kind: 'delivered', status: 200 }, at, false);
      }
    }
    const log = [
      ...(await outbox.deliveries('a', { limit: 1000 })),
      ...(await outbox.deliveries('b', { limit: 1000 })),
    ];
    expect(log).toHaveLength(rounds * 60);
    expect(log.every((delivery) => delivery.state === 'delivered' && delivery.attempts === 1)).toBe(true);
  });

  it('never lets two fan-outs take the same event: every recorded event becomes one delivery per endpoint', async () => {
    const { webhooks, meals, outbox } = first.adapters;
    await webhooks.save(webhookDefinition('a', { events: ['menu.published'] }), start);
    for (let round = 0; round < rounds; round++) {
      const at = new Date(start.getTime() + round * 1000);
      await meals.upsertMany(mealsOnDays(round * 100 + 1, 40), undefined, at);
      let taken = 0;

      await race(async (database) => {
        const took = await database.adapters.outbox.fanOut(at, 3);
        taken += took;
        return took > 0;
      });

      expect(taken).toBe(40);
    }
    const events = (await outbox.deliveries('a', { limit: 1000 })).map((delivery) => delivery.event);
    expect(events).toHaveLength(rounds * 40);
    expect(new Set(events.map((event) => event.id)).size).toBe(rounds * 40);
    // Every meal announced exactly once.
    const added = events
      .flatMap((event) => (event.type === 'menu.published' ? event.data.added : []))
      .sort((a, b) => a - b);
    expect(added).toEqual(
      Array.from({ length: rounds }, (_, round) =>
        Array.from({ length: 40 }, (_, index) => round * 100 + 1 + index),
      ).flat(),
    );
    expect(await outbox.nextDueAt()).toEqual(start);
  });
});
