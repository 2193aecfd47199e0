import { mkdtempSync, rmSync, unlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  GroupCommit,
  isSqliteStorageFailure,
  openSqliteDatabase,
  SqliteStorageHealth,
  type SqliteDatabase,
} from '@canteen-meals/adapters-sqlite';
import { isStorageUnavailable } from '@canteen-meals/domain';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

describe('SqliteStorageHealth with a group commit', () => {
  let folder: string;
  let path: string;
  let db: SqliteDatabase;
  let reasons: string[];
  let health: SqliteStorageHealth;
  let group: GroupCommit;
  const insert = (key: string) => () => db.prepare('INSERT INTO notes (key) VALUES (?)').run(key).changes;

  beforeEach(() => {
    folder = mkdtempSync(join(tmpdir(), 'meals-health-'));
    path = join(folder, 'meals.db');
    db = openSqliteDatabase(path);
    db.exec('CREATE TABLE notes (key TEXT PRIMARY KEY)');
    reasons = [];
    health = new SqliteStorageHealth(path, { onUnavailable: (reason) => reasons.push(reason) });
    group = new GroupCommit(db, health);
  });
  afterEach(() => {
    if (db.open) db.close();
    rmSync(folder, { recursive: true, force: true });
  });

  it('a full database (SQLITE_FULL) rejects every write of the group as unavailable, until a write commits again', async () => {
    const pages = db.pragma('page_count', { simple: true }) as number;
    db.pragma(`max_page_count = ${pages}`);
    const big = (key: string) => () =>
      db.prepare('INSERT INTO notes (key) VALUES (?)').run(key + 'x'.repeat(50_000)).changes;

    const outcomes = await Promise.allSettled([group.run(big('a')), group.run(big('b'))]);
    for (const outcome of outcomes) {
      expect(outcome.status).toBe('rejected');
      expect(isStorageUnavailable((outcome as PromiseRejectedResult).reason)).toBe(true);
    }
    expect(() => health.assertAvailable()).toThrow(/SQLITE_FULL/);
    expect(reasons).toHaveLength(1);

    db.pragma('max_page_count = 1073741823');
    await expect(group.run(insert('c'))).resolves.toBe(1);
    expect(() => health.assertAvailable()).not.toThrow();
  });

  it('a deleted file: the write committed into it is rejected, not acknowledged, and so is every later one', async () => {
    await expect(group.run(insert('a'))).resolves.toBe(1);
    unlinkSync(path);
    for (const key of ['b', 'c']) {
      const failure = await group.run(insert(key)).catch((error: unknown) => error);
      expect(isStorageUnavailable(failure)).toBe(true);
    }
    expect(reasons).toEqual([expect.stringContaining('was deleted')]);
  });
});

describe('isSqliteStorageFailure', () => {
  it.each([
    'SQLITE_READONLY',
    'SQLITE_READONLY_DBMOVED',
    'SQLITE_FULL',
    'SQLITE_IOERR',
    'SQLITE_IOERR_WRITE',
    'SQLITE_CANTOPEN',
    'SQLITE_CORRUPT',
  ])('counts %s as the storage failing', (code) => expect(isSqliteStorageFailure({ code })).toBe(true));
  it.each([
    'SQLITE_CONSTRAINT_PRIMARYKEY',
    'SQLITE_BUSY',
    'SQLITE_ERROR',
    'ENOENT',
    undefined,
  ])('does not count %s', (code) => expect(isSqliteStorageFailure({ code })).toBe(false));
});
