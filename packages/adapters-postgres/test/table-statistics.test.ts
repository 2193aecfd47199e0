import { loadMigrations, migrate, openPostgres } from '@canteen-meals/adapters-postgres';
import { MealMother } from '@canteen-meals/repository-contract';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databasePerFile } from './support/test-database.js';

// pg_class.reltuples is -1 until a table is analysed (or vacuumed), then what ANALYZE counted. Autovacuum is off for
// the tables of these tests, so every figure seen here is the adapter's own ANALYZE.
const databaseUrl = databasePerFile();
let pool: pg.Pool;
beforeAll(() => {
  pool = new pg.Pool({ connectionString: databaseUrl(), max: 2 });
});
afterAll(async () => {
  await pool.end();
});

const tables = ['meals', 'dishes', 'ratings', 'markings'];
const reltuples = async () =>
  Object.fromEntries(
    (
      await pool.query<{ relname: string; reltuples: number }>(
        'SELECT relname, reltuples FROM pg_class WHERE relname = ANY ($1)',
        [tables],
      )
    ).rows.map((row) => [row.relname, row.reltuples]),
  );
const withoutAutovacuum = () =>
  pool.query(tables.map((table) => `ALTER TABLE ${table} SET (autovacuum_enabled = false)`).join('; '));
const served = new Date('2026-03-02T11:30:00Z');
const meals = (from: number, count: number) =>
  Array.from({ length: count }, (_, index) =>
    MealMother.servedAt(served, { id: from + index, name: `Meal ${from + index}` }),
  );

describe('PostgreSQL table statistics', () => {
  it('analyses the tables that hold rows after migrating, and leaves the empty ones unanalysed', async () => {
    const migrations = loadMigrations();
    await migrate(
      pool,
      migrations.filter((migration) => migration.version < 16),
    );
    await withoutAutovacuum();
    await pool.query("INSERT INTO dishes (canteen_id, name) VALUES ('default', 'Soup')");
    await pool.query(
      "INSERT INTO meals (meal_id, name, served_at, rateable, dish_id) SELECT 1, 'Soup', now(), true, dish_id FROM dishes",
    );
    expect(await reltuples()).toMatchObject({ meals: -1, ratings: -1 });

    expect(await migrate(pool, migrations)).toEqual(
      migrations.filter((migration) => migration.version >= 16).map((migration) => migration.version),
    );

    // An empty table analysed would be planned as empty from then on; never analysed, it is planned as 10 pages.
    expect(await reltuples()).toEqual({ meals: 1, dishes: 1, ratings: -1, markings: -1 });
  });

  it('analyses the meals after a write that added 200 meals or more, not after a small one', async () => {
    const database = await openPostgres(databaseUrl(), { poolSize: 2 });
    try {
      await pool.query('TRUNCATE ratings, markings, meal_sources, meals, dish_names, dishes');
      await withoutAutovacuum();
      await database.adapters.meals.upsertMany(meals(100, 199));
      expect((await reltuples()).meals).toBe(-1); // as TRUNCATE left it: 199 is below the bound
      await database.adapters.meals.upsertMany(meals(1000, 200));
      expect((await reltuples()).meals).toBe(399);
      await database.adapters.meals.upsertMany(meals(2000, 10));
      expect((await reltuples()).meals).toBe(399);
      expect((await reltuples()).ratings).toBe(-1);
    } finally {
      await database.close();
    }
  });
});
