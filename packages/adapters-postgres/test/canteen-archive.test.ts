import { loadMigrations, migrate, openPostgres } from '@canteen-meals/adapters-postgres';
import type { Canteen } from '@canteen-meals/domain';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { databasePerFile } from './support/test-database.js';

const preArchiveDatabaseUrl = databasePerFile();
const racesDatabaseUrl = databasePerFile();

const mensa: Canteen = {
  id: 'mensa',
  name: 'Mensa',
  timeZone: 'Europe/Berlin',
  city: null,
  address: null,
  coordinates: null,
  feeds: [],
};
const archivedAt = new Date('2026-03-02T09:15:30.123Z');

describe('PostgreSQL migration 017 (archived canteens) on a database that has the migrations before it', () => {
  it('keeps every canteen active, and then archives and restores one', async () => {
    const pool = new pg.Pool({ connectionString: preArchiveDatabaseUrl(), max: 1 });
    try {
      await migrate(
        pool,
        loadMigrations().filter((m) => m.version < 17),
      );
      await pool.query(`INSERT INTO canteens (canteen_id, name, time_zone) VALUES ('mensa', 'Mensa', 'Europe/Berlin')`);
    } finally {
      await pool.end();
    }

    const upgraded = await openPostgres(preArchiveDatabaseUrl(), { poolSize: 1 });
    try {
      const { canteens } = upgraded.adapters;
      expect((await canteens.listWithArchived()).map((canteen) => [canteen.id, canteen.archivedAt])).toEqual([
        ['default', null],
        ['mensa', null],
      ]);
      const { rows } = await upgraded.pool.query('SELECT name FROM schema_migrations WHERE version = 17');
      expect(rows).toEqual([{ name: 'canteen-archive' }]);
      expect(await canteens.archive('mensa', archivedAt)).toEqual(archivedAt);
      expect((await canteens.list()).map((canteen) => canteen.id)).toEqual(['default']);
      const restored = await canteens.save(mensa);
      expect(restored.ok && restored.value.created).toBe(false);
      expect((await canteens.list()).map((canteen) => canteen.id)).toEqual(['default', 'mensa']);
    } finally {
      await upgraded.close();
    }
  });
});

describe('PostgreSQL archived canteens under concurrency', () => {
  it('keeps one archived_at when several instances archive a canteen at once, each at its own instant', async () => {
    const instances = await Promise.all(
      Array.from({ length: 3 }, () => openPostgres(racesDatabaseUrl(), { poolSize: 2 })),
    );
    try {
      await instances[0]!.adapters.canteens.save(mensa);
      const instants = [0, 1, 2].map((offset) => new Date(archivedAt.getTime() + offset * 1000));
      const answers = await Promise.all(
        instances.map((instance, index) => instance.adapters.canteens.archive('mensa', instants[index]!)),
      );
      // Whichever came first, every instance answers the instant that was kept.
      const kept = (await instances[0]!.adapters.canteens.listWithArchived()).find(
        (canteen) => canteen.id === 'mensa',
      )!.archivedAt;
      expect(instants).toContainEqual(kept);
      expect(answers).toEqual([kept, kept, kept]);
    } finally {
      await Promise.all(instances.map((instance) => instance.close()));
    }
  });
});
