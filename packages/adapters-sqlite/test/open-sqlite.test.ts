import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createUseCases } from '@canteen-meals/domain';
import { afterAll, describe, expect, it } from 'vitest';
import { openSqlite, SqliteDatabaseMissingError } from '../src/index.js';

const folder = mkdtempSync(join(tmpdir(), 'meals-open-sqlite-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

describe('openSqlite: the database a service runs on, as openPostgres opens PostgreSQL', () => {
  it('creates and migrates the file, serves the use cases, answers the readiness ping, and closes', async () => {
    const path = join(folder, 'service.db');
    const sqlite = openSqlite(path);
    try {
      await expect(sqlite.ping()).resolves.toBeUndefined();
      const servedAt = new Date('2026-03-10T11:30:00Z');
      const useCases = createUseCases(
        sqlite.adapters,
        { now: () => new Date('2026-03-10T12:00:00Z') },
        {
          start: '11:30',
          timeZone: 'Europe/Berlin',
        },
      );
      await useCases.upsertMeals.execute([{ id: 1, name: 'Lentil soup', servedAt, rateable: true }]);
      expect(await useCases.rateMeal.execute({ userId: 'alice', mealId: 1, rating: 4 })).toMatchObject({
        ok: true,
        value: { count: 1, personal: 4 },
      });
    } finally {
      await sqlite.close();
    }
    await expect(sqlite.ping()).rejects.toThrow();
  });

  it('creates the default canteen in defaultTimeZone', async () => {
    const sqlite = openSqlite(join(folder, 'zoned.db'), { defaultTimeZone: 'Europe/Berlin' });
    try {
      expect((await sqlite.adapters.canteens.find('default'))?.timeZone).toBe('Europe/Berlin');
    } finally {
      await sqlite.close();
    }
  });

  it('refuses a missing file with create: false, creating nothing', () => {
    const path = join(folder, 'missing.db');
    expect(() => openSqlite(path, { create: false })).toThrow(SqliteDatabaseMissingError);
    expect(existsSync(path)).toBe(false);
  });

  it('says once that the file is gone, and the ping fails from then on', async () => {
    const path = join(folder, 'deleted.db');
    const reasons: string[] = [];
    const sqlite = openSqlite(path, { onUnavailable: (reason) => reasons.push(reason) });
    try {
      rmSync(path);
      await expect(sqlite.ping()).rejects.toThrow();
      await expect(sqlite.ping()).rejects.toThrow();
      expect(reasons).toHaveLength(1);
      expect(reasons[0]).toContain(path);
    } finally {
      await sqlite.close();
    }
  });
});
