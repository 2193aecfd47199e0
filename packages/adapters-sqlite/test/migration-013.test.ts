import { createSqliteAdapters } from '@canteen-meals/adapters-sqlite';
import { decideAvailability, initialAvailability } from '@canteen-meals/domain';
import { describe, expect, it } from 'vitest';
import { legacyFilePerTest } from './support/legacy-file.js';

const noon = 1741608000000; // 2025-03-10T12:00:00Z

describe('migration 013 (availability) on a database that has the migrations before it', () => {
  const { open } = legacyFilePerTest(12, (old) => {
    old.exec(`
      INSERT INTO dishes (dish_id, canteen_id, name) VALUES (1, 'default', 'Currywurst');
      INSERT INTO dish_names (canteen_id, name_key, search_key, name, dish_id) VALUES ('default', 'currywurst', 'currywurst', 'Currywurst', 1);
      INSERT INTO meals (meal_id, name, served_at, rateable, canteen_id, position, dish_id)
        VALUES (1, 'Currywurst', ${noon}, 1, 'default', 0, 1);
      INSERT INTO webhooks (webhook_id, url, events, secret, created_at, updated_at)
        VALUES ('app', 'https://app.example/hooks', '["menu.published"]', 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw', ${noon}, ${noon});
      INSERT INTO webhook_outbox (seq, event_id, event_type, occurred_at, data) VALUES (7, 'evt_waiting', 'menu.published', ${noon}, '{}');
      INSERT INTO webhook_deliveries (seq, webhook_id, event_id, event_type, occurred_at, data, state, attempts, next_attempt_at, created_at)
        VALUES (3, 'app', 'evt_sent', 'meal.withdrawn', ${noon}, '{}', 'pending', 1, ${noon}, ${noon});`);
  });

  it('starts every existing meal available and never changed, and keeps the outbox and the deliveries as they were', async () => {
    const db = open();
    expect(db.prepare('SELECT version, name FROM schema_migrations WHERE version = 13').get()).toEqual({
      version: 13,
      name: 'availability',
    });
    const adapters = createSqliteAdapters(db);
    expect((await adapters.queries.viewsByIds(null, [1], new Date(noon)))[0]?.availability).toEqual(
      initialAvailability,
    );
    expect(db.prepare('SELECT seq, event_id, event_type FROM webhook_outbox').all()).toEqual([
      { seq: 7, event_id: 'evt_waiting', event_type: 'menu.published' },
    ]);
    expect(db.prepare('SELECT seq, webhook_id, event_id, state, attempts FROM webhook_deliveries').all()).toEqual([
      { seq: 3, webhook_id: 'app', event_id: 'evt_sent', state: 'pending', attempts: 1 },
    ]);
    // The deliveries' indexes are back.
    const indexes = db
      .prepare(
        "SELECT name FROM sqlite_schema WHERE type = 'index' AND tbl_name = 'webhook_deliveries' AND sql IS NOT NULL",
      )
      .pluck()
      .all();
    expect(new Set(indexes)).toEqual(
      new Set(['webhook_deliveries_due', 'webhook_deliveries_log', 'webhook_deliveries_by_user']),
    );
  });

  it('records a change of availability in the outbox, and refuses a status outside the closed set', async () => {
    const db = open();
    const adapters = createSqliteAdapters(db);
    const now = new Date(noon);
    const changed = await adapters.availability.change(1, (snapshot) =>
      decideAvailability(snapshot, { status: 'sold_out', now, anyDay: false }),
    );
    expect(changed.ok).toBe(true);
    expect(
      db.prepare("SELECT count(*) FROM webhook_outbox WHERE event_type = 'meal.availability_changed'").pluck().get(),
    ).toBe(1);
    expect(() => db.prepare(`UPDATE meals SET availability = 'gone' WHERE meal_id = 1`).run()).toThrow(/CHECK/);
    db.prepare('DELETE FROM webhooks').run();
    // The foreign key of the rebuilt deliveries still holds: removing the endpoint removed its deliveries.
    expect(db.prepare('SELECT count(*) FROM webhook_deliveries').pluck().get()).toBe(0);
  });
});
