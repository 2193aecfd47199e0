import { createSqliteAdapters, migrate, openSqliteDatabase, type SqliteDatabase } from '@canteen-meals/adapters-sqlite';
import { decideRatingChange, type Canteen } from '@canteen-meals/domain';
import { probeThrough, readAt, sampleMeal } from '@canteen-meals/repository-contract';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { legacyFilePerTest } from './support/legacy-file.js';

const noon = 1741608000000; // 2025-03-10T12:00:00Z
const openAt = new Date(noon + 3_600_000);

const berlinDefault: Canteen = {
  openmensaId: 1,
  id: 'default',
  name: 'Default canteen',
  timeZone: 'Europe/Berlin',
  city: null,
  address: null,
  coordinates: null,
  feeds: [],
  noteLabels: {},
  placeholderNames: [],
};

describe('migration 004 (canteens) on a database that has migrations 001 to 003', () => {
  const legacy = legacyFilePerTest(3, (old) => {
    old.exec(`
      INSERT INTO meals (meal_id, name, served_at, rateable, category, notes, price_student, rated_2, rated_5) VALUES
        (1, 'Currywurst', ${noon}, 1, 'Klassiker', '["Schwein"]', '2.60', 1, 1),
        (2, 'Lentil soup', ${noon}, 1, NULL, '[]', NULL, 0, 0),
        (3, 'Salad bar', ${noon - 60_000}, 0, NULL, '[]', NULL, 0, 0);
      INSERT INTO ratings (user_id, meal_id, rating) VALUES ('alice', 1, 5), ('bob', 1, 2);
      INSERT INTO markings (user_id, meal_id) VALUES ('alice', 1), ('carol', 2);
      INSERT INTO meal_sources (source_key, meal_id, source, served_on) VALUES ('feed|2025-03-10|Klassiker|Currywurst', 1, 'feed', '2025-03-10');`);
  });
  const open = (defaultTimeZone?: string) => legacy.open({ defaultTimeZone });

  it("puts every meal in the default canteen, created in the opener's zone, and loses nothing", async () => {
    const db = open('Europe/Berlin');
    const { canteens, meals, queries } = createSqliteAdapters(db);
    const probe = probeThrough(() => queries);

    expect(await canteens.list()).toEqual([berlinDefault]);
    expect(await meals.count()).toBe(3);
    expect(await probe.meal(1)).toEqual(
      sampleMeal(1, {
        name: 'Currywurst',
        servedAt: new Date(noon),
        category: 'Klassiker',
        notes: ['Schwein'],
        prices: { student: '2.60' },
      }),
    );
    expect(await probe.meal(3)).toMatchObject({ canteenId: 'default', position: 0, rateable: false });
    expect(await probe.histogram(1)).toEqual([0, 1, 0, 0, 1]);
    expect([await probe.rating('alice', 1), await probe.rating('bob', 1)]).toEqual([5, 2]);
    expect([await probe.marked('alice', 1), await probe.marked('carol', 2)]).toEqual([true, true]);
    expect(db.prepare('SELECT source_key, meal_id FROM meal_sources').all()).toEqual([
      { source_key: 'feed|2025-03-10|Klassiker|Currywurst', meal_id: 1 },
    ]);

    const day = [{ canteenId: 'default', from: new Date(noon - 3_600_000), until: new Date(noon + 3_600_000) }];
    expect((await queries.viewsServedIn('alice', day, readAt)).map((view) => view.meal.id)).toEqual([3, 1, 2]);
  });

  it('keeps the stored zone of the default canteen when opened again with another one', async () => {
    open('Europe/Berlin').close();
    const db = open('America/New_York');
    expect(await createSqliteAdapters(db).canteens.find('default')).toEqual(berlinDefault);
  });

  it('gives the default canteen UTC when the opener names no zone', async () => {
    const db = open();
    expect((await createSqliteAdapters(db).canteens.find('default'))?.timeZone).toBe('UTC');
  });

  it('goes on working: ratings, canteens, meals in other canteens, foreign keys enforced', async () => {
    const db = open('Europe/Berlin');
    const { canteens, meals, ratings, queries } = createSqliteAdapters(db);
    expect(db.pragma('foreign_keys', { simple: true })).toBe(1);
    expect(db.pragma('foreign_key_check')).toEqual([]);

    const change = await ratings.change('bob', 1, (snapshot) => decideRatingChange(snapshot, 3, openAt));
    expect(change).toMatchObject({ ok: true, value: { previous: 2, next: 3, histogram: [0, 0, 1, 0, 1] } });

    await expect(meals.upsertMany([sampleMeal(4, { canteenId: 'nowhere' })])).rejects.toThrow(
      /FOREIGN KEY constraint failed/,
    );
    await canteens.save({ ...berlinDefault, id: 'mensa-academica', name: 'Mensa Academica', openmensaId: undefined });
    await meals.upsertMany([sampleMeal(4, { canteenId: 'mensa-academica', position: 3 })]);
    expect(await probeThrough(() => queries).meal(4)).toEqual(
      sampleMeal(4, { canteenId: 'mensa-academica', position: 3 }),
    );
  });

  it('replaces the served_at index by (canteen_id, served_at, position, meal_id), and records 004 once', () => {
    const db = open();
    const indexes = db
      .prepare<[], { name: string }>("SELECT name FROM sqlite_schema WHERE type = 'index' AND tbl_name = 'meals'")
      .all();
    // Migration 005 adds meals_by_dish_served beside it.
    expect(indexes.map((index) => index.name)).toEqual(['meals_by_canteen_served', 'meals_by_dish_served']);
    const columns = db
      .prepare<[], { name: string }>("SELECT name FROM pragma_index_info('meals_by_canteen_served') ORDER BY seqno")
      .all();
    expect(columns.map((column) => column.name)).toEqual(['canteen_id', 'served_at', 'position', 'meal_id']);

    expect(db.prepare('SELECT version FROM schema_migrations WHERE version = 4').all()).toEqual([{ version: 4 }]);
    expect(migrate(db)).toEqual([]);
    expect(db.prepare("SELECT name FROM temp.sqlite_schema WHERE name = 'migration_settings'").all()).toEqual([]);
  });
});

describe('the canteens table and the new meal columns refuse what the domain refuses', () => {
  let db: SqliteDatabase;
  beforeEach(() => {
    db = openSqliteDatabase(':memory:');
  });
  afterEach(() => db.close());

  const insertCanteen =
    (id: string, lat: number | null = null, lng: number | null = null) =>
    () =>
      db
        .prepare("INSERT INTO canteens (canteen_id, name, time_zone, lat, lng) VALUES (?, 'C', 'UTC', ?, ?)")
        .run(id, lat, lng);

  it('takes slugs of 1 to 64 lowercase letters, digits and hyphens that start with a letter or digit', () => {
    for (const id of ['a', '7', 'mensa-academica', 'a-', `a${'-'.repeat(63)}`]) expect(insertCanteen(id)).not.toThrow();
    for (const id of ['', '-a', 'Mensa', 'mensa_1', 'mensa academica', 'mensä', `a${'b'.repeat(64)}`]) {
      expect(insertCanteen(id), JSON.stringify(id)).toThrow(/CHECK constraint failed/);
    }
  });

  it('takes coordinates both set and on the globe, or both null', () => {
    expect(insertCanteen('on-the-globe', -90, 180)).not.toThrow();
    expect(insertCanteen('nowhere')).not.toThrow();
    for (const [lat, lng] of [
      [50, null],
      [null, 6],
      [90.5, 0],
      [0, -180.5],
    ] as const) {
      expect(insertCanteen('off', lat, lng), `${lat}, ${lng}`).toThrow(/CHECK constraint failed/);
    }
  });

  it('takes positions from 0 to 9999', async () => {
    const { meals } = createSqliteAdapters(db);
    await meals.upsertMany([sampleMeal(1, { position: 0 }), sampleMeal(2, { position: 9999 })]);
    await expect(meals.upsertMany([sampleMeal(3, { position: 10_000 })])).rejects.toThrow(/CHECK constraint failed/);
    await expect(meals.upsertMany([sampleMeal(3, { position: -1 })])).rejects.toThrow(/CHECK constraint failed/);
  });

  it('refuses a default time zone that is not an IANA zone before opening anything', () => {
    expect(() => openSqliteDatabase(':memory:', { defaultTimeZone: 'Mars/Olympus_Mons' })).toThrow(
      /not an IANA time zone/,
    );
  });
});
