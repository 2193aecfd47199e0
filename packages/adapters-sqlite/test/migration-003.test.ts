import { probeThrough } from '@canteen-meals/repository-contract';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  createSqliteAdapters,
  loadMigrations,
  migrate,
  openSqliteDatabase,
  type SqliteDatabase,
} from '@canteen-meals/adapters-sqlite';
import { decideRatingChange } from '@canteen-meals/domain';
import BetterSqlite3 from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

const servedAt = 1741602600000;
const openAt = new Date(servedAt + 3_600_000);

describe('migration 003 (ratings keyed by user) on a database that has migrations 001 and 002', () => {
  let folder: string;
  let path: string;
  let db: SqliteDatabase | undefined;

  beforeEach(() => {
    folder = mkdtempSync(join(tmpdir(), 'meals-migration-'));
    path = join(folder, 'meals.db');
    const old = new BetterSqlite3(path);
    old.pragma('journal_mode = WAL');
    old.pragma('foreign_keys = ON');
    migrate(
      old,
      loadMigrations().filter((migration) => migration.version <= 2),
    );
    old.exec(`
      INSERT INTO meals (meal_id, name, served_at, rateable, rated_2, rated_4, rated_5) VALUES
        (1, 'Currywurst', ${servedAt}, 1, 1, 0, 1),
        (2, 'Lentil soup', ${servedAt}, 1, 0, 1, 0);
      INSERT INTO ratings (meal_id, user_id, rating) VALUES (1, 'alice', 5), (1, 'bob', 2), (2, 'alice', 4);`);
    old.close();
  });
  afterEach(() => {
    if (db?.open) db.close();
    rmSync(folder, { recursive: true, force: true });
  });

  it('keeps every rating, and the table has one B-tree: the primary key (user_id, meal_id), no other index', async () => {
    db = openSqliteDatabase(path);
    expect(db.prepare('SELECT user_id, meal_id, rating FROM ratings ORDER BY user_id, meal_id').all()).toEqual([
      { user_id: 'alice', meal_id: 1, rating: 5 },
      { user_id: 'alice', meal_id: 2, rating: 4 },
      { user_id: 'bob', meal_id: 1, rating: 2 },
    ]);
    // WITHOUT ROWID: the primary key is the table's own B-tree, and no index stands beside it.
    expect(db.prepare("SELECT name FROM sqlite_schema WHERE type = 'index' AND tbl_name = 'ratings'").all()).toEqual(
      [],
    );
    expect(db.prepare("SELECT name, pk FROM pragma_table_info('ratings') WHERE pk > 0 ORDER BY pk").all()).toEqual([
      { name: 'user_id', pk: 1 },
      { name: 'meal_id', pk: 2 },
    ]);
    expect(db.pragma('foreign_key_check')).toEqual([]);
  });

  it('goes on working: one rating per user and meal, foreign keys enforced, erasure by user', async () => {
    db = openSqliteDatabase(path);
    const { ratings, userData, queries } = createSqliteAdapters(db);

    const change = await ratings.change('bob', 1, (snapshot) => decideRatingChange(snapshot, 3, openAt));
    expect(change).toMatchObject({ ok: true, value: { previous: 2, next: 3, histogram: [0, 0, 1, 0, 1] } });
    expect(db.prepare("SELECT count(*) AS n FROM ratings WHERE user_id = 'bob'").get()).toEqual({ n: 1 });
    expect(() => db!.prepare("INSERT INTO ratings (user_id, meal_id, rating) VALUES ('carol', 99, 3)").run()).toThrow(
      /FOREIGN KEY constraint failed/,
    );

    expect(await userData.eraseAll('alice')).toMatchObject({ ratings: 2 });
    expect(await probeThrough(() => queries).histogram(1)).toEqual([0, 0, 1, 0, 0]);
    expect(await probeThrough(() => queries).histogram(2)).toEqual([0, 0, 0, 0, 0]);
  });
});
