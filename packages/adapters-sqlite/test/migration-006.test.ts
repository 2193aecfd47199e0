import { createSqliteAdapters } from '@canteen-meals/adapters-sqlite';
import { neverFetched } from '@canteen-meals/domain';
import { probeThrough } from '@canteen-meals/repository-contract';
import { describe, expect, it } from 'vitest';
import { legacyFilePerTest } from './support/legacy-file.js';

const noon = 1741608000000; // 2025-03-10T12:00:00Z

describe('migration 006 (feeds) on a database that has migrations 001 to 005', () => {
  const { open } = legacyFilePerTest(
    5,
    (old) => {
      old.exec(`
      INSERT INTO canteens (canteen_id, name, time_zone, city, address, lat, lng)
        VALUES ('bistro', 'Bistro', 'UTC', 'Aachen', 'Pontwall 3', 50.5, 6.25);
      INSERT INTO dishes (dish_id, canteen_id, name, rated_4) VALUES (1, 'bistro', 'Currywurst', 1);
      INSERT INTO dish_names (canteen_id, name_key, search_key, name, dish_id) VALUES ('bistro', 'currywurst', 'currywurst', 'Currywurst', 1);
      INSERT INTO meals (meal_id, name, served_at, rateable, canteen_id, position, dish_id, rated_4) VALUES
        (1, 'Currywurst', ${noon}, 1, 'bistro', 2, 1, 1);
      INSERT INTO ratings (user_id, meal_id, rating) VALUES ('alice', 1, 4);
      INSERT INTO markings (user_id, meal_id) VALUES ('bob', 1);`);
    },
    { defaultTimeZone: 'Europe/Berlin' },
  );

  it('keeps every canteen, now with no feeds, and every meal with its ratings, markings and dish', async () => {
    const db = open();
    const { canteens, meals, queries } = createSqliteAdapters(db);
    expect(await canteens.list()).toEqual([
      {
        id: 'bistro',
        name: 'Bistro',
        timeZone: 'UTC',
        city: 'Aachen',
        address: 'Pontwall 3',
        coordinates: { lat: 50.5, lng: 6.25 },
        feeds: [],
        openmensaId: 1,
        noteLabels: {},
        placeholderNames: [],
      },
      {
        id: 'default',
        name: 'Default canteen',
        timeZone: 'Europe/Berlin',
        city: null,
        address: null,
        coordinates: null,
        feeds: [],
        openmensaId: 2,
        noteLabels: {},
        placeholderNames: [],
      },
    ]);
    const probe = probeThrough(() => queries);
    expect(await meals.count()).toBe(1);
    expect(await probe.meal(1)).toMatchObject({
      name: 'Currywurst',
      servedAt: new Date(noon),
      canteenId: 'bistro',
      position: 2,
    });
    expect(await probe.histogram(1)).toEqual([0, 0, 0, 1, 0]);
    expect(await probe.rating('alice', 1)).toBe(4);
    expect(await probe.marked('bob', 1)).toBe(true);
    expect((await queries.viewsByIds('alice', [1], new Date(noon)))[0]?.dish).toMatchObject({
      id: 1,
      histogram: [0, 0, 0, 1, 0],
    });
    expect(db.prepare('SELECT feeds FROM canteens ORDER BY canteen_id').pluck().all()).toEqual(['[]', '[]']);
    expect(db.prepare('SELECT count(*) FROM feed_states').pluck().get()).toBe(0);
    expect(db.prepare('SELECT version, name FROM schema_migrations WHERE version = 6').get()).toEqual({
      version: 6,
      name: 'feeds',
    });
    expect(db.pragma('foreign_key_check')).toEqual([]);
  });

  it('goes on working: a canteen takes feeds, a feed keeps its state; the schema refuses what no adapter writes', async () => {
    const db = open();
    const { canteens, feedStates } = createSqliteAdapters(db);
    const feeds = [{ name: 'full', url: 'https://bistro.example/full.xml', schedule: '0 6 * * *' }];
    const bistro = await canteens.find('bistro');
    await canteens.save({ ...bistro!, feeds });
    expect((await canteens.find('bistro'))?.feeds).toEqual(feeds);
    await feedStates.save(neverFetched('bistro', 'full'));
    expect(await feedStates.list('bistro')).toEqual([neverFetched('bistro', 'full')]);

    const refused = (sql: string, error: RegExp) => expect(() => db.prepare(sql).run()).toThrow(error);
    refused("UPDATE canteens SET feeds = '{}' WHERE canteen_id = 'bistro'", /CHECK constraint failed/);
    refused(
      "UPDATE canteens SET feeds = 'not json' WHERE canteen_id = 'bistro'",
      /CHECK constraint failed|malformed JSON/,
    );
    refused("INSERT INTO feed_states (canteen_id, feed_name) VALUES ('nowhere', 'full')", /FOREIGN KEY/);
    refused("INSERT INTO feed_states (canteen_id, feed_name) VALUES ('bistro', 'Full')", /CHECK constraint failed/);
    refused("INSERT INTO feed_states (canteen_id, feed_name) VALUES ('bistro', '-full')", /CHECK constraint failed/);
    refused(
      `INSERT INTO feed_states (canteen_id, feed_name) VALUES ('bistro', '${'a'.repeat(33)}')`,
      /CHECK constraint failed/,
    );
    refused(
      "INSERT INTO feed_states (canteen_id, feed_name, outcome) VALUES ('bistro', 'today', 'skipped')",
      /CHECK constraint failed/,
    );
    refused(
      "INSERT INTO feed_states (canteen_id, feed_name, added, changed) VALUES ('bistro', 'today', 1, 0)",
      /CHECK constraint failed/,
    );
    refused(
      "INSERT INTO feed_states (canteen_id, feed_name, duration_ms) VALUES ('bistro', 'today', -1)",
      /CHECK constraint failed/,
    );
  });
});
