import { createSqliteAdapters, openSqliteDatabase } from '@canteen-meals/adapters-sqlite';
import { MealMother, rateInPeriod } from '@canteen-meals/repository-contract';
import type { Meal } from '@canteen-meals/domain';
import { afterAll, describe, expect, it } from 'vitest';

const sizes = [1, 10, 100] as const;
const day = Date.parse('2026-03-10T00:00:00Z');
const minute = 60_000;

// better-sqlite3's `verbose` hook sees every statement executed (not prepared): a query counter.
const executed: string[] = [];
const db = openSqliteDatabase(':memory:', { onStatement: (sql) => executed.push(sql) });
const adapters = createSqliteAdapters(db);
afterAll(() => db.close());

/** 100 meals on one day, each marked and rated by alice and rated by bob, so every view joins real rows. */
const menu: Meal[] = Array.from({ length: 100 }, (_, index) =>
  MealMother.servedAt(new Date(day + 8 * 60 * minute + index * minute), { id: index + 1 }),
);
await adapters.meals.upsertMany(menu);
for (const meal of menu) {
  await adapters.markings.setMarked('alice', meal.id, true);
  await rateInPeriod(adapters.ratings, 'alice', meal, 4);
  await rateInPeriod(adapters.ratings, 'bob', meal, 2);
}

async function statementsOf<T>(read: () => Promise<T>): Promise<{ count: number; result: T }> {
  executed.length = 0;
  const result = await read();
  return { count: executed.length, result };
}

describe('the read side runs a constant number of statements, whatever the number of meals', () => {
  it('reads 1, 10 and 100 meals by id in one statement each', async () => {
    for (const size of sizes) {
      const ids = menu.slice(0, size).map((meal) => meal.id);
      const { count, result } = await statementsOf(() => adapters.queries.viewsByIds('alice', ids));
      expect(result).toHaveLength(size);
      expect(result.every((view) => view.marked && view.personalRating === 4)).toBe(true);
      expect(count).toBe(1);
    }
  });

  it('reads the meals of a day of 1, 10 and 100 meals in one statement each', async () => {
    for (const size of sizes) {
      const until = new Date(menu[size - 1]!.servedAt.getTime() + 1);
      const { count, result } = await statementsOf(() => adapters.queries.viewsServedBetween('alice', new Date(day), until));
      expect(result).toHaveLength(size);
      expect(count).toBe(1);
    }
  });

  it('reads pages of 1, 10 and 100 marked and rated meals in one statement each', async () => {
    for (const size of sizes) {
      const marked = await statementsOf(() => adapters.queries.markedMeals('alice', { after: null, limit: size }));
      const rated = await statementsOf(() => adapters.queries.ratedMeals('bob', { after: null, limit: size }));
      expect([marked.result.length, rated.result.length]).toEqual([size, size]);
      expect([marked.count, rated.count]).toEqual([1, 1]);
    }
  });

  it('erases a user with 1, 10 and 100 ratings in the same five statements: BEGIN, UPDATE, two DELETEs, COMMIT', async () => {
    for (const size of sizes) {
      const user = `eraser-${size}`;
      for (const meal of menu.slice(0, size)) {
        await rateInPeriod(adapters.ratings, user, meal, 5);
        await adapters.markings.setMarked(user, meal.id, true);
      }
      const { count, result } = await statementsOf(() => adapters.userData.eraseAll(user));
      expect(result).toEqual({ markings: size, ratings: size });
      expect(executed[0]).toBe('BEGIN IMMEDIATE');
      expect(count).toBe(5);
    }
  });
});
