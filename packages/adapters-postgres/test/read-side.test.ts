import { openPostgres, type PostgresDatabase } from '@canteen-meals/adapters-postgres';
import { defaultCanteenId, histogramOf, type Meal, type RatingValue } from '@canteen-meals/domain';
import { MealMother, rateInPeriod } from '@canteen-meals/repository-contract';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databasePerFile } from './support/test-database.js';

const databaseUrl = databasePerFile();
const sizes = [1, 10, 100] as const;
const day = Date.parse('2026-03-10T00:00:00Z');
const minute = 60_000;
/** The reads stand at noon of the day the meals are served: some of each dish's servings are past, some to come. */
const asOf = new Date(day + 12 * 60 * minute);
/** 100 meals on one day, each marked and rated by alice and rated by bob, so every view joins real rows. */
const menu: Meal[] = Array.from({ length: 100 }, (_, index) =>
  MealMother.servedAt(new Date(day + 8 * 60 * minute + index * minute), { id: index + 1 }),
);

let database: PostgresDatabase;
beforeAll(async () => {
  database = await openPostgres(databaseUrl(), { poolSize: 8 });
  const { meals, markings, ratings } = database.adapters;
  await meals.upsertMany(menu);
  for (const meal of menu) {
    await markings.setMarked('alice', meal.id, true);
    await rateInPeriod(ratings, 'alice', meal, 4);
    await rateInPeriod(ratings, 'bob', meal, 2);
  }
});
afterAll(async () => {
  await database?.close();
});

/** Every statement a pooled connection sends, counted on the client side (pool.query goes through Client#query). */
async function statementsOf<T>(read: () => Promise<T>): Promise<{ count: number; result: T }> {
  const original = pg.Client.prototype.query;
  let count = 0;
  pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
    count += 1;
    return (original as (...a: unknown[]) => unknown).apply(this, args);
  } as typeof original;
  try {
    const result = await read();
    return { count, result };
  } finally {
    pg.Client.prototype.query = original;
  }
}

describe('the PostgreSQL read side runs a constant number of statements, whatever the number of meals', () => {
  it('reads 1, 10 and 100 meals by id, by day, in as many serving windows and as pages in one statement each', async () => {
    const { queries } = database.adapters;
    const wholeDay = [{ canteenId: defaultCanteenId, from: new Date(day), until: new Date(day + 24 * 60 * minute) }];
    for (const size of sizes) {
      const ids = menu.slice(0, size).map((meal) => meal.id);
      const until = new Date(menu[size - 1]!.servedAt.getTime() + 1);
      const reads: (() => Promise<readonly unknown[]>)[] = [
        () => queries.viewsByIds('alice', ids, asOf),
        () => queries.viewsServedIn('alice', [{ canteenId: defaultCanteenId, from: new Date(day), until }], asOf),
        () => queries.viewsServedIn(null, wholeDay, asOf, { after: null, limit: size }),
        () =>
          queries.viewsServedIn('alice', wholeDay, asOf, {
            after: { servedAt: new Date(day), position: 0, mealId: 1 },
            limit: size,
          }),
        async () => (await queries.personalPartOf('alice', ids)).states,
        () => queries.markedMeals('alice', { after: null, limit: size }, asOf),
        () => queries.ratedMeals('bob', { after: null, limit: size }, asOf),
        // One window per meal: the number of windows does not change the number of statements either.
        () =>
          queries.viewsServedIn(
            'alice',
            menu.slice(0, size).map((meal) => ({
              canteenId: defaultCanteenId,
              from: meal.servedAt,
              until: new Date(meal.servedAt.getTime() + 1),
            })),
            asOf,
          ),
      ];
      for (const read of reads) {
        const { count, result } = await statementsOf(read);
        expect(result).toHaveLength(size);
        expect(count).toBe(1);
      }
    }
  });

  it('reads a dish, a page of 1, 10 and 100 of its servings, and a search in one statement each', async () => {
    const { dishQueries, queries, meals } = database.adapters;
    // The 100 meals are servings of 100 dishes; these 100 more, one a day, are all servings of one.
    const servings = Array.from({ length: 100 }, (_, index) =>
      MealMother.servedAt(new Date(day + (index - 50) * 24 * 60 * minute), { id: 1001 + index, name: 'Eintopf' }),
    );
    await meals.upsertMany(servings);
    const dishId = (await queries.viewsByIds('alice', [1001], asOf))[0]!.dish.id;
    const dish = await statementsOf(() => dishQueries.dish(dishId, 'alice', asOf));
    expect(dish.result?.dish).toMatchObject({ timesServed: 51, nextServedAt: servings[51]!.servedAt });
    expect(dish.count).toBe(1);
    for (const size of sizes) {
      const page = await statementsOf(() => dishQueries.servings(dishId, 'alice', { after: null, limit: size }, asOf));
      expect(page.result).toHaveLength(size);
      expect(page.count).toBe(1);
      const found = await statementsOf(() =>
        dishQueries.search(defaultCanteenId, 'meal', { after: null, limit: size }, asOf),
      );
      expect(found.result).toHaveLength(size);
      expect(found.count).toBe(1);
    }
  });

  it('erases a user with 1, 10 and 100 ratings in the same seven statements', async () => {
    const { markings, ratings, userData } = database.adapters;
    for (const size of sizes) {
      const user = `eraser-${size}`;
      for (const meal of menu.slice(0, size)) {
        await rateInPeriod(ratings, user, meal, 5);
        await markings.setMarked(user, meal.id, true);
      }
      const { count, result } = await statementsOf(() => userData.eraseAll(user));
      expect(result).toMatchObject({ markings: size, ratings: size });
      expect(result.meals.map((meal) => meal.mealId)).toEqual(
        menu
          .slice(0, size)
          .map((meal) => meal.id)
          .sort((a, b) => a - b),
      );
      // BEGIN, the per-user erasure lock, lock the rated meals, delete and uncount them (finding no rating left), lock
      // their dishes, uncount them and delete the markings and the webhook deliveries about the user, COMMIT.
      expect(count).toBe(7);
    }
  });
});

describe('erasing a user while the same meals are being rated', () => {
  it('keeps every histogram equal to its ratings, and needs no retry: the erasure takes its locks in order', async () => {
    const { markings, ratings, userData, queries } = database.adapters;
    const meals = menu.slice(0, 10);
    const values: RatingValue[] = [1, 2, 3, 4, 5];
    const retriesBefore = database.adapters.retryCount();
    const work: Promise<unknown>[] = [];
    for (let round = 0; round < 20; round++) {
      for (const [index, meal] of meals.entries()) {
        work.push(rateInPeriod(ratings, 'carol', meal, values[(round + index) % 5]!));
        work.push(rateInPeriod(ratings, `rater-${index % 4}`, meal, values[(round * 3 + index) % 5]!));
      }
      work.push(markings.setMarked('carol', meals[round % meals.length]!.id, true));
      work.push(userData.eraseAll('carol'));
    }
    await Promise.all(work);

    for (const view of await queries.viewsByIds(
      'nobody',
      meals.map((meal) => meal.id),
      asOf,
    )) {
      const held = await database.pool.query<{ rating: RatingValue }>('SELECT rating FROM ratings WHERE meal_id = $1', [
        view.meal.id,
      ]);
      expect(view.histogram, `meal ${view.meal.id}`).toEqual(histogramOf(held.rows.map((row) => row.rating)));
    }
    expect(database.adapters.retryCount() - retriesBefore).toBe(0);
    // And once nothing runs beside it, an erasure leaves carol nothing.
    await userData.eraseAll('carol');
    expect(await userData.exportAll('carol')).toEqual({ markings: [], ratings: [] });
  });
});
