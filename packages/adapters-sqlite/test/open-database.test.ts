import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  loadMigrations,
  migrate,
  openSqliteDatabase,
  SqliteMealCatalog,
  type SqliteDatabase,
} from '@canteen-meals/adapters-sqlite';
import { sampleMeal } from '@canteen-meals/repository-contract';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

interface MigrationRow {
  version: number;
  name: string;
  applied_at: string;
}

describe('openSqliteDatabase', () => {
  let folder: string;
  const opened: SqliteDatabase[] = [];
  const open = (...args: Parameters<typeof openSqliteDatabase>) => {
    const db = openSqliteDatabase(...args);
    opened.push(db);
    return db;
  };
  const appliedMigrations = (db: SqliteDatabase) =>
    db.prepare<[], MigrationRow>('SELECT version, name, applied_at FROM schema_migrations ORDER BY version').all();

  beforeEach(() => {
    folder = mkdtempSync(join(tmpdir(), 'meals-open-'));
  });
  afterEach(() => {
    for (const db of opened.splice(0)) if (db.open) db.close();
    rmSync(folder, { recursive: true, force: true });
  });

  it('creates the folder and the file, and applies every migration once', () => {
    const db = open(join(folder, 'nested', 'deeper', 'meals.db'));

    const migrations = loadMigrations();
    expect(migrations.map((m) => m.version)).toEqual(migrations.map((_, index) => index + 1));
    expect(appliedMigrations(db).map(({ version, name }) => ({ version, name }))).toEqual(
      migrations.map(({ version, name }) => ({ version, name })),
    );
    const tables = db
      .prepare<[], { name: string }>("SELECT name FROM sqlite_schema WHERE type = 'table' ORDER BY name")
      .all()
      .map((row) => row.name);
    expect(tables).toEqual(expect.arrayContaining(['markings', 'meals', 'ratings', 'schema_migrations']));
  });

  it('re-opening a migrated file applies nothing again and keeps the data', () => {
    const path = join(folder, 'meals.db');
    const first = open(path);
    const before = appliedMigrations(first);
    new SqliteMealCatalog(first).upsertMany([sampleMeal(1)]);
    first.close();

    const second = open(path);

    expect(appliedMigrations(second)).toEqual(before);
    expect(migrate(second)).toEqual([]);
    expect(appliedMigrations(second)).toEqual(before);
    expect(second.prepare('SELECT count(*) AS n FROM meals').get()).toEqual({ n: 1 });
  });

  it('runs in WAL mode with foreign keys, a busy timeout and the chosen synchronous level', () => {
    const db = open(join(folder, 'meals.db'));
    expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(db.pragma('foreign_keys', { simple: true })).toBe(1);
    expect(db.pragma('busy_timeout', { simple: true })).toBe(5000);
    expect(db.pragma('synchronous', { simple: true })).toBe(1); // NORMAL

    const durable = open(join(folder, 'durable.db'), { synchronous: 'full', busyTimeoutMs: 250 });
    expect(durable.pragma('synchronous', { simple: true })).toBe(2); // FULL
    expect(durable.pragma('busy_timeout', { simple: true })).toBe(250);
  });

  it('enforces the foreign keys: no rating or marking of a meal that does not exist', () => {
    const db = open(join(folder, 'meals.db'));
    expect(() => db.prepare("INSERT INTO ratings (meal_id, user_id, rating) VALUES (7, 'alice', 3)").run()).toThrow(
      /FOREIGN KEY/,
    );
    expect(() => db.prepare("INSERT INTO markings (user_id, meal_id) VALUES ('alice', 7)").run()).toThrow(
      /FOREIGN KEY/,
    );
  });

  it('rolls back a migration that fails and does not record it', () => {
    const db = open(join(folder, 'meals.db'));
    const broken = {
      version: 999,
      name: 'broken',
      sql: 'CREATE TABLE half_done (a INTEGER); INSERT INTO nowhere VALUES (1);',
    };

    expect(() => migrate(db, [broken])).toThrow(/nowhere/);

    expect(appliedMigrations(db).map((row) => row.version)).not.toContain(999);
    expect(db.prepare("SELECT name FROM sqlite_schema WHERE name = 'half_done'").get()).toBeUndefined();
  });
});
