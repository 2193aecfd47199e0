import { loadMigrations, migrate, migrationLockKey, openPostgres } from '@canteen-meals/adapters-postgres';
import pg from 'pg';
import { MealMother } from '@canteen-meals/repository-contract';
import { describe, expect, it } from 'vitest';
import { databasePerFile } from './support/test-database.js';

const databaseUrl = databasePerFile();
const legacyDatabaseUrl = databasePerFile();

describe('PostgreSQL migrations', () => {
  it('finds the versioned SQL files in order', () => {
    const migrations = loadMigrations();
    expect(migrations[0]).toMatchObject({ version: 1, name: 'initial' });
    expect(migrations.map((m) => m.version)).toEqual([...migrations.map((m) => m.version)].sort((a, b) => a - b));
  });

  it('applies each migration exactly once when several instances start at the same moment', async () => {
    const opened = await Promise.all(Array.from({ length: 4 }, () => openPostgres(databaseUrl(), { poolSize: 2 })));
    try {
      const [first] = opened;
      const { rows } = await first!.pool.query<{ version: number; name: string }>(
        'SELECT version, name FROM schema_migrations ORDER BY version',
      );
      expect(rows).toEqual(loadMigrations().map(({ version, name }) => ({ version, name })));
      // Every instance works on the same, complete schema.
      await first!.adapters.meals.upsertMany([MealMother.servedAt(new Date(), { id: 1, name: 'Soup' })]);
      for (const instance of opened) expect(await instance.adapters.meals.count()).toBe(1);
      // A later start has nothing left to apply.
      expect(await migrate(first!.pool)).toEqual([]);
    } finally {
      await Promise.all(opened.map((instance) => instance.close()));
    }
  });

  it('waits for the advisory lock that another instance holds', async () => {
    const holder = new pg.Client({ connectionString: databaseUrl() });
    await holder.connect();
    const pool = new pg.Pool({ connectionString: databaseUrl(), max: 2 });
    try {
      await holder.query('SELECT pg_advisory_lock($1)', [migrationLockKey.toString()]);
      let finished = false;
      const migrating = migrate(pool).then((applied) => {
        finished = true;
        return applied;
      });
      // The migration blocks on the lock: it shows up in pg_locks as waiting, and has not finished.
      await expect.poll(async () => waitingForAdvisoryLock(holder), { timeout: 10_000 }).toBe(true);
      expect(finished).toBe(false);
      await holder.query('SELECT pg_advisory_unlock($1)', [migrationLockKey.toString()]);
      expect(await migrating).toEqual([]);
    } finally {
      await holder.end();
      await pool.end();
    }
  });

  it('refuses a broken migration and records nothing of it', async () => {
    const pool = new pg.Pool({ connectionString: databaseUrl(), max: 2 });
    try {
      const broken = [{ version: 900, name: 'broken', sql: 'CREATE TABLE half_done (x int); SELECT no_such_column FROM meals;' }];
      await expect(migrate(pool, broken)).rejects.toThrow(/migration 900-broken failed/);
      const { rows } = await pool.query("SELECT to_regclass('half_done') AS t, (SELECT count(*) FROM schema_migrations WHERE version = 900)::int AS n");
      expect(rows[0]).toEqual({ t: null, n: 0 });
    } finally {
      await pool.end();
    }
  });
});

describe('PostgreSQL migration 002 (meal details, meal sources) on a database at version 1', () => {
  it('upgrades it in place: meals keep their ratings and markings and get the default details', async () => {
    const pool = new pg.Pool({ connectionString: legacyDatabaseUrl(), max: 1 });
    try {
      expect(await migrate(pool, loadMigrations().filter((m) => m.version === 1))).toEqual([1]);
      await pool.query(`INSERT INTO meals (meal_id, name, served_at, rateable, rated_4) VALUES (7, 'Ramen', now(), true, 1)`);
      await pool.query(`INSERT INTO ratings VALUES (7, 'alice', 4)`);
      await pool.query(`INSERT INTO markings VALUES ('bob', 7)`);
    } finally {
      await pool.end();
    }

    const upgraded = await openPostgres(legacyDatabaseUrl(), { poolSize: 1 });
    try {
      const { meals, ratings, markings } = upgraded.adapters;
      expect(await meals.findById(7)).toMatchObject({ name: 'Ramen', category: null, notes: [], prices: {} });
      expect(await ratings.findRating('alice', 7)).toBe(4);
      expect(await ratings.histogram(7)).toEqual([0, 0, 0, 1, 0]);
      expect(await markings.isMarked('bob', 7)).toBe(true);
      // Names may now have 250 characters, and no more.
      await meals.upsertMany([{ id: 7, name: 'x'.repeat(250), servedAt: new Date(), rateable: true }]);
      await expect(meals.upsertMany([{ id: 8, name: 'x'.repeat(251), servedAt: new Date(), rateable: true }])).rejects.toMatchObject({
        code: '23514',
      });
    } finally {
      await upgraded.close();
    }
  });
});

async function waitingForAdvisoryLock(client: pg.Client): Promise<boolean> {
  const { rows } = await client.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM pg_locks
     WHERE locktype = 'advisory' AND NOT granted
       AND database = (SELECT oid FROM pg_database WHERE datname = current_database())`,
  );
  return rows[0]!.n > 0;
}
