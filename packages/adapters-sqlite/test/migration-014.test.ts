import { createSqlitePushStore } from '@canteen-meals/adapters-sqlite';
import { describe, expect, it } from 'vitest';
import { legacyFilePerTest } from './support/legacy-file.js';

const noon = 1741608000000; // 2025-03-10T12:00:00Z
const startOfDay = new Date(noon - 12 * 60 * 60 * 1000);
const endOfDay = new Date(noon + 12 * 60 * 60 * 1000);

/** The details of `EXPLAIN QUERY PLAN`, one line per step. */
const planOf = (
  db: ReturnType<ReturnType<typeof legacyFilePerTest>['open']>,
  sql: string,
  parameters: unknown[] = [],
) =>
  (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...parameters) as { detail: string }[])
    .map((step) => step.detail)
    .join('\n');

describe('migration 014 (push) on a database that has the migrations before it', () => {
  const { open } = legacyFilePerTest(13, (old) => {
    old.exec(`
      INSERT INTO dishes (dish_id, canteen_id, name) VALUES (1, 'default', 'Currywurst');
      INSERT INTO dish_names (canteen_id, name_key, search_key, name, dish_id) VALUES ('default', 'currywurst', 'currywurst', 'Currywurst', 1);
      INSERT INTO meals (meal_id, name, served_at, rateable, canteen_id, position, dish_id, labels)
        VALUES (1, 'Currywurst', ${noon - 7 * 24 * 60 * 60 * 1000}, 1, 'default', 0, 1, '[]'),
               (2, 'Currywurst', ${noon}, 1, 'default', 0, 1, '["pork"]');
      INSERT INTO markings (user_id, meal_id) VALUES ('alice', 1);`);
  });

  it('adds the push tables: the markings made before it are the audience of the digests', async () => {
    const db = open();
    expect(db.prepare('SELECT version, name FROM schema_migrations WHERE version = 14').get()).toEqual({
      version: 14,
      name: 'push',
    });
    const store = createSqlitePushStore(db);

    expect(
      await store.pushAudience.markedServingsOn('default', '2025-03-10', { from: startOfDay, to: endOfDay }),
    ).toEqual([
      { userId: 'alice', mealId: 2, dishId: 1, name: 'Currywurst', labels: ['pork'], servedAt: new Date(noon) },
    ]);
    expect(await store.notificationSettings.settingsOf('alice')).toEqual({
      favouritesToday: true,
      soldOut: false,
      language: 'en',
    });
    expect(await store.pushOutbox.depth()).toBe(0);
  });

  it("claims from the partial index on the due instant, and finds a person's subscriptions and a meal's markers by index", () => {
    const db = open();
    const claim = planOf(
      db,
      `SELECT entry_id FROM push_outbox WHERE state = 'pending' AND due_at <= ? AND expires_at > ?
      AND (leased_until IS NULL OR leased_until <= ?) ORDER BY due_at, entry_id LIMIT 10`,
      [noon, noon, noon],
    );
    expect(claim).toMatch(/push_outbox_due/);
    expect(claim).not.toMatch(/TEMP B-TREE/);
    expect(
      planOf(db, 'SELECT * FROM push_subscriptions WHERE user_id = ? ORDER BY created_at, seq', ['alice']),
    ).toMatch(/push_subscriptions_by_user/);
    expect(planOf(db, 'SELECT user_id FROM markings WHERE meal_id = ? ORDER BY user_id', [1])).toMatch(
      /markings_by_meal/,
    );
  });
});
