import { openPostgres, type PostgresDatabase } from '@canteen-meals/adapters-postgres';
import type { Meal } from '@canteen-meals/domain';
import type { ServingWindow } from '@canteen-meals/domain/ports';
import { MealMother } from '@canteen-meals/repository-contract';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databasePerFile } from './support/test-database.js';

const databaseUrl = databasePerFile();
const day = 24 * 60 * 60 * 1000;
const today = Date.parse('2026-03-10T00:00:00Z');
const canteenIds = Array.from({ length: 20 }, (_, index) => `canteen-${index}`);

/**
 * 20 canteens, each serving 30 meals a day for 60 days around today (36 000 meals) from 300 dishes of its own, and
 * 50 users with 40 markings each: enough rows that reading every menu of the coming days, or every marking, shows.
 */
const menuOf = (canteen: number): Meal[] =>
  Array.from({ length: 60 * 30 }, (_, index) =>
    MealMother.servedAt(new Date(today + (Math.floor(index / 30) - 30) * day + 11 * 60 * 60 * 1000), {
      id: canteen * 10_000 + index + 1,
      name: `Dish ${(index * 7) % 300}`,
      canteenId: canteenIds[canteen]!,
      position: index % 30,
    }),
  );

let database: PostgresDatabase;
beforeAll(async () => {
  database = await openPostgres(databaseUrl(), { poolSize: 4 });
  const { meals, canteens, markings } = database.adapters;
  for (const [index, id] of canteenIds.entries()) {
    await canteens.save({
      id,
      name: id,
      timeZone: 'Europe/Berlin',
      city: null,
      address: null,
      coordinates: null,
      feeds: [],
    });
    const menu = menuOf(index);
    for (let start = 0; start < menu.length; start += 500) await meals.upsertMany(menu.slice(start, start + 500));
  }
  for (let user = 0; user < 50; user++) {
    for (let mark = 0; mark < 40; mark++)
      await markings.setMarked(
        `user-${user}`,
        ((user * 37 + mark * 101) % 20) * 10_000 + ((mark * 53) % 1800) + 1,
        true,
      );
  }
  await database.pool.query('ANALYZE');
}, 120_000);
afterAll(async () => {
  await database?.close();
});

/** The statements a read sends, with their parameters, as the pooled clients see them. */
async function statementsOf<T>(
  read: () => Promise<T>,
): Promise<{ statements: { text: string; values: unknown[] }[]; result: T }> {
  const original = pg.Client.prototype.query;
  const statements: { text: string; values: unknown[] }[] = [];
  pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
    if (typeof args[0] === 'string')
      statements.push({ text: args[0], values: (args[1] as unknown[] | undefined) ?? [] });
    return (original as (...a: unknown[]) => unknown).apply(this, args);
  } as typeof original;
  try {
    return { statements, result: await read() };
  } finally {
    pg.Client.prototype.query = original;
  }
}

describe('PostgreSQL: the servings of favourite dishes', () => {
  const asOf = new Date(today + 9 * 60 * 60 * 1000);
  const comingWeek: ServingWindow[] = canteenIds.map((canteenId) => ({
    canteenId,
    from: new Date(today),
    until: new Date(today + 7 * day),
  }));

  it("reads them in one statement that starts from the user's markings and reads no menu whole", async () => {
    const { statements, result } = await statementsOf(() =>
      database.adapters.queries.favouriteServingsIn('user-3', comingWeek, asOf, 501),
    );
    expect(statements).toHaveLength(1);
    expect(result.length).toBeGreaterThan(0);
    expect(
      result.every((view) => view.meal.servedAt.getTime() >= today && view.meal.servedAt.getTime() < today + 7 * day),
    ).toBe(true);

    const { rows } = await database.pool.query<{ 'QUERY PLAN': string }>(
      `EXPLAIN ${statements[0]!.text}`,
      statements[0]!.values,
    );
    const plan = rows.map((row) => row['QUERY PLAN']).join('\n');
    // The user's markings by their key, the dishes' servings by meals_by_dish; never a scan of meals or markings.
    expect(plan).toMatch(/markings_pkey/);
    expect(plan).toMatch(/meals_by_dish/);
    expect(plan).not.toMatch(/Seq Scan on (meals|markings)\b/);
  });

  it("answers the same servings as reading every canteen's week and keeping the favourites", async () => {
    const { queries } = database.adapters;
    const favourites = await queries.markedMeals('user-3', { after: null, limit: 100 }, asOf);
    const dishes = new Set(favourites.map((view) => view.dish.id));
    const week = await queries.viewsServedIn('user-3', comingWeek, asOf);
    const expected = week
      .filter((view) => dishes.has(view.dish.id))
      .sort(
        (a, b) =>
          a.meal.servedAt.getTime() - b.meal.servedAt.getTime() ||
          (a.meal.canteenId < b.meal.canteenId ? -1 : 1) ||
          a.meal.position - b.meal.position,
      );
    expect(dishes.size).toBeGreaterThan(10);
    expect((await queries.favouriteServingsIn('user-3', comingWeek, asOf, 501)).map((view) => view.meal.id)).toEqual(
      expected.map((view) => view.meal.id),
    );
  });
});
