import { probeThrough } from '@canteen-meals/repository-contract';
import { openPostgres, type PostgresDatabase } from '@canteen-meals/adapters-postgres';
import { withMealDetails, type Meal } from '@canteen-meals/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databasePerFile } from './support/test-database.js';

const databaseUrl = databasePerFile();
let database: PostgresDatabase;
beforeAll(async () => {
  database = await openPostgres(databaseUrl(), { poolSize: 2 });
});
afterAll(async () => {
  await database?.close();
});

// Where PostgreSQL's types differ from JavaScript's, the adapter must still hand back exactly what it was given.
describe('PostgreSQL column types at their edges', () => {
  it.each<[string, Meal]>([
    [
      'the largest safe integer id',
      { id: Number.MAX_SAFE_INTEGER, name: 'Big', servedAt: new Date(0), rateable: true },
    ],
    [
      'the first instant of year 0000 (1 BC to PostgreSQL)',
      { id: 1, name: 'Y0', servedAt: new Date('0000-01-01T00:00:00.000Z'), rateable: true },
    ],
    [
      'the last millisecond of year 9999',
      { id: 2, name: 'Y9999', servedAt: new Date('9999-12-31T23:59:59.999Z'), rateable: false },
    ],
    [
      'a name of 250 code points, half of them outside the BMP',
      { id: 3, name: '🍲'.repeat(125) + 'x'.repeat(125), servedAt: new Date(1), rateable: true },
    ],
    [
      'details with every price role, quotes and backslashes in notes',
      {
        id: 4,
        name: 'Käsespätzle',
        servedAt: new Date(2),
        rateable: true,
        category: 'Ausgabe "A"',
        notes: ['vegetarisch', 'a\\b', '{"json": [1]}', 'Ei, Milch'],
        prices: { student: '2.60', employee: '1234567.125', pupil: '0.00', other: '5.20' },
      },
    ],
  ])('round-trips %s', async (_, meal) => {
    await database.adapters.meals.upsertMany([meal]);
    expect(await probeThrough(() => database.adapters.queries).meal(meal.id)).toEqual(withMealDetails(meal));
  });

  it('refuses what the SQLite schema refuses: a histogram that would go negative', async () => {
    await database.adapters.meals.upsertMany([{ id: 10, name: 'Soup', servedAt: new Date(), rateable: true }]);
    await expect(database.pool.query('UPDATE meals SET rated_3 = -1 WHERE meal_id = 10')).rejects.toMatchObject({
      code: '23514',
    });
  });
});
