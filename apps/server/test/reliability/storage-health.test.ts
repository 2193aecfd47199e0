import { copyFileSync, existsSync, mkdtempSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FixedClock } from '@canteen-meals/adapters-memory';
import { signHmacToken } from '@canteen-meals/adapters-http';
import {
  createSqliteAdapters,
  openSqliteDatabase,
  SqliteStorageHealth,
  type SqliteDatabase,
} from '@canteen-meals/adapters-sqlite';
import type { FastifyInstance } from 'fastify';
import { MealMother } from '@canteen-meals/repository-contract';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildServer } from '../../src/composition-root.js';
import { ConfigError, loadConfig } from '../../src/config.js';
import { openPersistence } from '../../src/persistence.js';

const now = new Date('2026-03-10T12:00:00Z');
const secret = 'storage-health-test-secret-of-32-bytes!!';
const token = signHmacToken(secret, { sub: 'alice' });
const unavailable = {
  status: 'error',
  error: {
    code: 'storage_unavailable',
    message: 'The database cannot store this write now; nothing was saved. Retry later.',
  },
};

let folder: string;
let app: FastifyInstance | undefined;
beforeEach(() => {
  folder = mkdtempSync(join(tmpdir(), 'meals-storage-'));
});
afterEach(async () => {
  await app?.close();
  app = undefined;
  rmSync(folder, { recursive: true, force: true });
});

async function start(path: string, overrides: { persistence?: Awaited<ReturnType<typeof openPersistence>> } = {}) {
  const written: string[] = [];
  const config = loadConfig({ DATABASE_URL: `sqlite:${path}`, LOG_LEVEL: 'info', JWT_SECRET: secret });
  const server = await buildServer(config, {
    clock: new FixedClock(now),
    logDestination: { write: (line) => void written.push(line) },
    ...overrides,
  });
  app = server.app;
  await server.persistence.meals.upsertMany([
    MealMother.servedAt(new Date(now.getTime() - 60_000), { id: 1, name: 'Soup' }),
  ]);
  const rate = (rating: number) =>
    server.app.inject({
      method: 'POST',
      url: '/api/v1/rate-meal',
      headers: { authorization: `Bearer ${token}` },
      payload: { meal_id: 1, rating },
    });
  const logLines = () =>
    written
      .join('')
      .split('\n')
      .filter((line) => line !== '')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
  return { ...server, rate, logLines };
}

describe('a SQLite database file that goes away under a running server', () => {
  it('deleting the data folder: writes answer 503 storage_unavailable, /readyz 503, and the log says why once', async () => {
    const data = join(folder, 'data');
    const { app, rate, logLines } = await start(join(data, 'meals.db'));
    expect((await rate(4)).statusCode).toBe(200);
    expect((await app.inject({ method: 'GET', url: '/readyz' })).statusCode).toBe(200);

    rmSync(data, { recursive: true, force: true });

    for (const rating of [5, 3, 2]) {
      const answer = await rate(rating);
      expect(answer.statusCode).toBe(503);
      expect(answer.json()).toEqual(unavailable);
    }
    const ready = await app.inject({ method: 'GET', url: '/readyz' });
    expect(ready.statusCode).toBe(503);
    expect(ready.json()).toMatchObject({ status: 'error', error: { code: 'not_ready' } });
    await app.inject({ method: 'GET', url: '/readyz' });

    const why = logLines().filter((line) => JSON.stringify(line).includes('was deleted'));
    expect(why).toHaveLength(1);
    expect(why[0]).toMatchObject({ level: 40, msg: expect.stringContaining('storage unavailable') });
    expect(logLines().filter((line) => (line.level as number) >= 50)).toEqual([]);
  });

  it('replacing the file: the write committed into the old file is not acknowledged', async () => {
    const path = join(folder, 'meals.db');
    const { rate } = await start(path);
    expect((await rate(4)).statusCode).toBe(200);

    copyFileSync(path, join(folder, 'other.db'));
    renameSync(join(folder, 'other.db'), path);

    expect((await rate(5)).json()).toEqual(unavailable);
  });
});

describe('a SQLite database that refuses writes (SQLITE_READONLY)', () => {
  it('answers 503 storage_unavailable and /readyz 503 until a write succeeds again', async () => {
    const path = join(folder, 'meals.db');
    let db: SqliteDatabase | undefined;
    const reasons: string[] = [];
    const persistence = async () => {
      db = openSqliteDatabase(path);
      const health = new SqliteStorageHealth(path, { onUnavailable: (reason) => reasons.push(reason) });
      const connection = db;
      return {
        ...createSqliteAdapters(connection, health),
        ping: async () => health.assertAvailable(),
        close: async () => void connection.close(),
      };
    };
    const { app, rate } = await start(path, { persistence: await persistence() });
    expect((await rate(4)).statusCode).toBe(200);

    // What a volume remounted read-only does to the connection, without needing one: SQLite answers SQLITE_READONLY.
    db!.pragma('query_only = ON');
    for (const rating of [5, 3]) {
      const answer = await rate(rating);
      expect(answer.statusCode).toBe(503);
      expect(answer.json()).toEqual(unavailable);
    }
    expect((await app.inject({ method: 'GET', url: '/readyz' })).statusCode).toBe(503);
    expect(reasons).toHaveLength(1);
    expect(reasons[0]).toContain('SQLITE_READONLY');

    db!.pragma('query_only = OFF');
    expect((await rate(2)).statusCode).toBe(200);
    expect((await app.inject({ method: 'GET', url: '/readyz' })).statusCode).toBe(200);
  });
});

describe('a missing SQLite database file at start', () => {
  const base = { sqliteSynchronous: 'normal', postgresPoolSize: 1 } as const;

  it('in production is refused, naming the path and the two ways out, and nothing is created', async () => {
    const path = join(folder, 'unmounted', 'meals.db');
    const opening = openPersistence({
      ...base,
      database: { kind: 'sqlite', path },
      production: true,
      databaseCreate: false,
    });
    await expect(opening).rejects.toThrow(ConfigError);
    await expect(opening).rejects.toThrow(path);
    await expect(opening).rejects.toThrow('pnpm db:init');
    await expect(opening).rejects.toThrow('DATABASE_CREATE=1');
    expect(existsSync(path)).toBe(false);
  });

  it('in production is created with DATABASE_CREATE=1, and outside production always', async () => {
    for (const [name, production, databaseCreate] of [
      ['a.db', true, true],
      ['b.db', false, false],
    ] as const) {
      const path = join(folder, name);
      const persistence = await openPersistence({
        ...base,
        database: { kind: 'sqlite', path },
        production,
        databaseCreate,
      });
      await persistence.close();
      expect(existsSync(path)).toBe(true);
    }
    expect(loadConfig({ DATABASE_CREATE: '1' }).databaseCreate).toBe(true);
    expect(loadConfig({}).databaseCreate).toBe(false);
  });
});
