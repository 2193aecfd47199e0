import { createSqliteAdapters, loadMigrations, migrate } from '@canteen-meals/adapters-sqlite';
import { sampleMeal, probeThrough } from '@canteen-meals/repository-contract';
import { describe, expect, it } from 'vitest';
import { legacyFilePerTest } from './support/legacy-file.js';

const longName = `Rindergulasch ${'x'.repeat(186)}`; // 200 characters: the most that migration 001 allows

describe('migration 002 (meal details) on a database that has only migration 001', () => {
  const { open } = legacyFilePerTest(1, (old) => {
    old.exec(`
      INSERT INTO meals (meal_id, name, served_at, rateable, rated_2, rated_5) VALUES
        (1, 'Currywurst', 1741602600123, 1, 1, 1),
        (2, '${longName}', 1741689000000, 0, 0, 0),
        (7, 'Lentil soup', 1741775400000, 1, 0, 0);
      INSERT INTO ratings (meal_id, user_id, rating) VALUES (1, 'alice', 5), (1, 'bob', 2);
      INSERT INTO markings (user_id, meal_id) VALUES ('alice', 1), ('carol', 7);`);
  });

  it('keeps every meal, histogram, rating and marking, and gives old meals the default details', async () => {
    const db = open();
    const { meals, queries } = createSqliteAdapters(db);

    expect(await meals.count()).toBe(3);
    expect(await probeThrough(() => queries).meal(1)).toEqual(
      sampleMeal(1, { name: 'Currywurst', servedAt: new Date(1741602600123) }),
    );
    expect(await probeThrough(() => queries).meal(2)).toEqual(
      sampleMeal(2, { name: longName, servedAt: new Date(1741689000000), rateable: false }),
    );
    expect(await probeThrough(() => queries).histogram(1)).toEqual([0, 1, 0, 0, 1]);
    expect(await probeThrough(() => queries).rating('alice', 1)).toBe(5);
    expect(await probeThrough(() => queries).rating('bob', 1)).toBe(2);
    expect(await probeThrough(() => queries).marked('alice', 1)).toBe(true);
    expect(await probeThrough(() => queries).marked('carol', 7)).toBe(true);
  });

  it('leaves foreign keys on and enforced, the menu index on served_at in place, and names of up to 250 characters', async () => {
    const db = open();
    expect(db.pragma('foreign_keys', { simple: true })).toBe(1);
    expect(db.pragma('foreign_key_check')).toEqual([]);
    expect(() => db.prepare("INSERT INTO ratings (meal_id, user_id, rating) VALUES (99, 'alice', 3)").run()).toThrow(
      /FOREIGN KEY constraint failed/,
    );
    // Migration 004 (applied by the same open) replaced meals_served_at by meals_by_canteen_served.
    const indexes = db
      .prepare<[], { name: string }>("SELECT name FROM sqlite_schema WHERE type = 'index' AND tbl_name = 'meals'")
      .all();
    expect(indexes.map((index) => index.name)).toContain('meals_by_canteen_served');

    const { meals, queries } = createSqliteAdapters(db);
    await meals.upsertMany([
      sampleMeal(3, { name: 'y'.repeat(250), category: 'Klassiker', notes: ['Rind'], prices: { student: '3.80' } }),
    ]);
    expect((await probeThrough(() => queries).meal(3))?.name).toHaveLength(250);
    await expect(meals.upsertMany([sampleMeal(4, { name: 'y'.repeat(251) })])).rejects.toThrow(
      /CHECK constraint failed/,
    );
  });

  it('records migration 002 once; opening the file again applies nothing', () => {
    const db = open();
    const versions = db
      .prepare<[], { version: number }>('SELECT version FROM schema_migrations ORDER BY version')
      .all();
    expect(versions.map((row) => row.version)).toEqual(loadMigrations().map((migration) => migration.version));
    expect(migrate(db)).toEqual([]);
  });

  it('rolls a table-rebuilding migration back when it would break a foreign key, and turns foreign keys on again', () => {
    const db = open();
    const breaking = {
      version: 900,
      name: 'breaks-keys',
      sql: '-- migrate: foreign keys off\nDELETE FROM meals WHERE meal_id = 1;',
    };

    expect(() => migrate(db, [breaking])).toThrow(/migration 900-breaks-keys breaks 3 foreign keys/);

    expect(db.prepare('SELECT count(*) AS n FROM meals').get()).toEqual({ n: 3 });
    expect(db.prepare('SELECT count(*) AS n FROM schema_migrations WHERE version = 900').get()).toEqual({ n: 0 });
    expect(db.pragma('foreign_keys', { simple: true })).toBe(1);
  });
});
