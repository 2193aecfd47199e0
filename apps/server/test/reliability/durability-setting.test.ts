import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { SqliteDatabase } from '@canteen-meals/adapters-sqlite';
import { MealMother } from '@canteen-meals/repository-contract';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { buildServer } from '../../src/composition-root.js';
import { ConfigError, loadConfig } from '../../src/config.js';
import { openPersistence } from '../../src/persistence.js';

// Every connection the server's persistence opens, kept so that the test can ask it for its pragmas: the real
// function runs, the test only looks at what it returned.
const opened = vi.hoisted(() => [] as SqliteDatabase[]);
vi.mock('@canteen-meals/adapters-sqlite', async (importOriginal) => {
  const original = await importOriginal<typeof import('@canteen-meals/adapters-sqlite')>();
  return {
    ...original,
    openSqlite: (...args: Parameters<typeof original.openSqlite>) => {
      const sqlite = original.openSqlite(...args);
      opened.push(sqlite.db);
      return sqlite;
    },
  };
});

const folder = mkdtempSync(join(tmpdir(), 'meals-durability-'));
afterEach(() => {
  for (const db of opened.splice(0)) if (db.open) db.close();
});
afterAll(() => rmSync(folder, { recursive: true, force: true }));

const env = (extra: Record<string, string>) => ({
  DATABASE_URL: `sqlite:${join(folder, `${Math.random().toString(36).slice(2)}.db`)}`,
  LOG_LEVEL: 'silent',
  ...extra,
});
/** PRAGMA synchronous answers 1 for NORMAL and 2 for FULL. */
const synchronousLevel = { normal: 1, full: 2 } as const;

describe('SQLITE_SYNCHRONOUS', () => {
  it('is normal by default, full when asked, and refuses anything else', () => {
    expect(loadConfig(env({})).sqliteSynchronous).toBe('normal');
    expect(loadConfig(env({ SQLITE_SYNCHRONOUS: 'full' })).sqliteSynchronous).toBe('full');
    expect(loadConfig(env({ SQLITE_SYNCHRONOUS: 'FULL' })).sqliteSynchronous).toBe('full');
    for (const wrong of ['off', 'extra', '2', 'fast']) {
      expect(() => loadConfig(env({ SQLITE_SYNCHRONOUS: wrong }))).toThrow(ConfigError);
      expect(() => loadConfig(env({ SQLITE_SYNCHRONOUS: wrong }))).toThrow(/SQLITE_SYNCHRONOUS/);
    }
  });

  it.each([
    'normal',
    'full',
  ] as const)('%s reaches the connection the persistence opens, in WAL mode', async (level) => {
    const persistence = await openPersistence(loadConfig(env({ SQLITE_SYNCHRONOUS: level })));
    const [db] = opened;
    expect(opened).toHaveLength(1);
    expect(db!.pragma('synchronous', { simple: true })).toBe(synchronousLevel[level]);
    expect(db!.pragma('journal_mode', { simple: true })).toBe('wal');
    // The connection looked at is the one the repositories write through.
    await persistence.meals.upsertMany([MealMother.servedAt(new Date(), { id: 1, name: 'Soup' })]);
    expect(db!.prepare('SELECT count(*) AS n FROM meals').get()).toEqual({ n: 1 });
    await persistence.close();
    expect(db!.open).toBe(false);
  });

  it('full reaches the database of the whole composed server', async () => {
    const { app } = await buildServer(loadConfig(env({ SQLITE_SYNCHRONOUS: 'full' })));
    expect(opened).toHaveLength(1);
    expect(opened[0]!.pragma('synchronous', { simple: true })).toBe(synchronousLevel.full);
    await app.close();
    expect(opened[0]!.open).toBe(false);
  });
});
