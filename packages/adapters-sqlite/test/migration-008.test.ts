import { createSqliteAdapters } from '@canteen-meals/adapters-sqlite';
import { observedEvents, webhookDefinition } from '@canteen-meals/repository-contract';
import { describe, expect, it } from 'vitest';
import { legacyFilePerTest } from './support/legacy-file.js';

const noon = 1741608000000; // 2025-03-10T12:00:00Z

/** The details of `EXPLAIN QUERY PLAN`, one line per step. */
const planOf = (
  db: ReturnType<ReturnType<typeof legacyFilePerTest>['open']>,
  sql: string,
  parameters: unknown[] = [],
) => (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...parameters) as { detail: string }[]).map((step) => step.detail);

describe('migration 008 (webhooks) on a database that has migrations 001 to 007', () => {
  const { open } = legacyFilePerTest(7, (old) => {
    old.exec(`
      INSERT INTO dishes (dish_id, canteen_id, name) VALUES (1, 'default', 'Currywurst');
      INSERT INTO dish_names (canteen_id, name_key, search_key, name, dish_id) VALUES ('default', 'currywurst', 'currywurst', 'Currywurst', 1);
      INSERT INTO meals (meal_id, name, served_at, rateable, canteen_id, position, dish_id) VALUES (1, 'Currywurst', ${noon}, 1, 'default', 0, 1);`);
  });

  it('adds the webhook tables: the meals stay, and the writes record events from then on', async () => {
    const db = open();
    const adapters = createSqliteAdapters(db);
    expect(db.prepare('SELECT version, name FROM schema_migrations WHERE version = 8').get()).toEqual({
      version: 8,
      name: 'webhooks',
    });
    await adapters.webhooks.save(webhookDefinition('hook'), new Date(noon));
    const at = new Date(noon + 1000);

    expect(await adapters.meals.withdraw(1, at)).toEqual({ found: true, withdrawnAt: at });

    expect((await observedEvents(adapters, at)).map((event) => event.type)).toEqual(['meal.withdrawn']);
  });

  it('claims due deliveries from the partial index on the due instant and pages the log on its own index', () => {
    const db = open();
    const claim = planOf(
      db,
      `SELECT d.seq FROM webhook_deliveries AS d JOIN webhooks AS w ON w.webhook_id = d.webhook_id
      WHERE d.state = 'pending' AND d.next_attempt_at <= ? AND w.disabled_at IS NULL ORDER BY d.next_attempt_at, d.seq LIMIT 10`,
      [noon],
    );
    expect(claim.join('\n')).toMatch(/webhook_deliveries_due/);
    const log = planOf(
      db,
      'SELECT * FROM webhook_deliveries WHERE webhook_id = ? ORDER BY created_at DESC, event_id DESC LIMIT 10',
      ['hook'],
    );
    expect(log.join('\n')).toMatch(/webhook_deliveries_log/);
    expect(log.join('\n')).not.toMatch(/TEMP B-TREE/);
  });
});
