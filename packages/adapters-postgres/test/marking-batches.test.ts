import { openPostgres, PostgresMarkingRepository, type PostgresDatabase } from '@canteen-meals/adapters-postgres';
import type { Meal } from '@canteen-meals/domain';
import { MealMother } from '@canteen-meals/repository-contract';
import type pg from 'pg';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { databasePerFile } from './support/test-database.js';

// Two "instances": two pools with their own batchers on one database.
const databaseUrl = databasePerFile();
let instances: PostgresDatabase[];
beforeAll(async () => {
  instances = [await openPostgres(databaseUrl(), { poolSize: 4 }), await openPostgres(databaseUrl(), { poolSize: 4 })];
});
afterAll(async () => {
  await Promise.all(instances.map((instance) => instance.close()));
});
beforeEach(async () => {
  await instances[0]!.pool.query('TRUNCATE ratings, markings, meal_sources, meals, dish_names, dishes');
});

const served = new Date('2026-03-02T11:30:00Z');
const meal = (id: number, traits: Partial<Meal> = {}) => MealMother.servedAt(served, { id, ...traits });
const markedPairs = async () =>
  (await instances[0]!.pool.query<{ user_id: string; meal_id: string }>('SELECT user_id, meal_id FROM markings')).rows
    .map((row) => `${row.user_id}/${row.meal_id}`)
    .sort();

/** A marking repository over a pool that counts the statements it is sent. */
function countingMarkings(pool: pg.Pool): { markings: PostgresMarkingRepository; statements: () => number } {
  let statements = 0;
  const counting = {
    query: (...args: Parameters<pg.Pool['query']>) => ((statements += 1), pool.query(...args)),
  } as unknown as pg.Pool;
  return { markings: new PostgresMarkingRepository(counting), statements: () => statements };
}

describe('PostgreSQL marking batches', () => {
  it('sends the markings asked for in one turn as one statement, and answers each whether its meal exists', async () => {
    await instances[0]!.adapters.meals.upsertMany([meal(1), meal(2), meal(3)]);
    await instances[0]!.adapters.meals.withdraw(3, served);
    await instances[0]!.adapters.markings.setMarked('bob', 2, true);
    const { markings, statements } = countingMarkings(instances[0]!.pool);
    const users = Array.from({ length: 50 }, (_, index) => `user-${index}`);

    const answers = await Promise.all([
      ...users.map((user) => markings.setMarked(user, 1, true)),
      markings.setMarked('bob', 2, false),
      markings.setMarked('bob', 3, true), // withdrawn: no meal to mark
      markings.setMarked('bob', 404, true), // no such meal
      markings.setMarked('carl', 404, false),
    ]);

    expect(statements()).toBe(1);
    expect(answers).toEqual([...users.map(() => true), true, false, false, false]);
    expect(await markedPairs()).toEqual(users.map((user) => `${user}/1`).sort());
  });

  it("applies one user's markings of one meal in the order they were asked for, each in a batch of its own", async () => {
    await instances[0]!.adapters.meals.upsertMany([meal(1)]);
    const { markings, statements } = countingMarkings(instances[0]!.pool);

    const answers = await Promise.all([
      markings.setMarked('alice', 1, true),
      markings.setMarked('alice', 1, false),
      markings.setMarked('alice', 1, true),
      markings.setMarked('bob', 1, true),
    ]);

    expect(answers).toEqual([true, true, true, true]);
    expect(statements()).toBe(3); // alice's three changes cannot share a batch; bob's joins the first
    expect(await markedPairs()).toEqual(['alice/1', 'bob/1']);
  });

  it('is idempotent: marking twice keeps one marking, clearing an absent one changes nothing', async () => {
    await instances[0]!.adapters.meals.upsertMany([meal(1)]);
    const { markings } = countingMarkings(instances[0]!.pool);
    expect(await Promise.all([markings.setMarked('alice', 1, true), markings.setMarked('bob', 1, false)])).toEqual([
      true,
      true,
    ]);
    expect(await markings.setMarked('alice', 1, true)).toBe(true);
    expect(await markedPairs()).toEqual(['alice/1']);
  });

  it("ends with exactly the last wave's markings when two instances mark and clear the same markings at once", async () => {
    const mealIds = [1, 2, 3, 4];
    await instances[0]!.adapters.meals.upsertMany(mealIds.map((id) => meal(id)));
    const users = Array.from({ length: 40 }, (_, index) => `user-${index}`);
    const pairs = users.flatMap((user) => mealIds.map((mealId) => ({ user, mealId })));
    const wanted = (wave: number, index: number) => (index * 7 + wave) % 3 !== 0;
    for (let wave = 0; wave < 8; wave++) {
      // Both instances ask for the same state of every marking, in opposite orders: their batches insert and delete
      // the same rows at once, which is where two statements could wait for each other in a cycle.
      const asked = pairs.map((pair, index) => ({ ...pair, marked: wanted(wave, index) }));
      const answers = await Promise.all([
        ...asked.map(({ user, mealId, marked }) => instances[0]!.adapters.markings.setMarked(user, mealId, marked)),
        ...[...asked]
          .reverse()
          .map(({ user, mealId, marked }) => instances[1]!.adapters.markings.setMarked(user, mealId, marked)),
      ]);
      expect(answers.every(Boolean)).toBe(true);
      const expected = asked
        .filter(({ marked }) => marked)
        .map(({ user, mealId }) => `${user}/${mealId}`)
        .sort();
      expect(await markedPairs()).toEqual(expected);
    }
  });
});
