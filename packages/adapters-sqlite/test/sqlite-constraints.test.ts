import { createSqliteAdapters, openSqliteDatabase, type SqliteDatabase } from '@canteen-meals/adapters-sqlite';
import { sampleMeal, probeThrough } from '@canteen-meals/repository-contract';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

// The memory adapter has no constraints, so these SQLite-only guarantees live outside the shared contract.
describe('SQLite constraints behind the meal catalog', () => {
  let db: SqliteDatabase;
  beforeEach(() => {
    db = openSqliteDatabase(':memory:');
  });
  afterEach(() => db.close());

  it.each([
    ['a meal id of 0', sampleMeal(0)],
    ['an empty name', sampleMeal(3, { name: '' })],
    ['a name of 251 characters', sampleMeal(3, { name: 'x'.repeat(251) })],
  ])('rolls the whole batch back when a meal midway breaks a CHECK: %s', async (_, offending) => {
    const { meals, queries } = createSqliteAdapters(db);
    await meals.upsertMany([sampleMeal(1)]);

    await expect(
      meals.upsertMany([sampleMeal(1, { name: 'Renamed' }), sampleMeal(2), offending, sampleMeal(4)]),
    ).rejects.toThrow(/CHECK constraint failed/);

    expect(await probeThrough(() => queries).meal(1)).toEqual(sampleMeal(1));
    expect(await probeThrough(() => queries).meal(2)).toBeUndefined();
    expect(await meals.count()).toBe(1);
    // The dishes the batch created (for 'Renamed', 'Meal 2') went with it.
    expect(db.prepare('SELECT name FROM dishes').pluck().all()).toEqual(['Meal 1']);
    expect(db.prepare('SELECT name FROM dish_names').pluck().all()).toEqual(['Meal 1']);
  });

  it('rejects a rating outside 1..5 and a negative histogram count at the database', async () => {
    await createSqliteAdapters(db).meals.upsertMany([sampleMeal(1)]);
    expect(() => db.prepare("INSERT INTO ratings (meal_id, user_id, rating) VALUES (1, 'alice', 6)").run()).toThrow(
      /CHECK constraint failed/,
    );
    expect(() => db.prepare('UPDATE meals SET rated_3 = -1 WHERE meal_id = 1').run()).toThrow(
      /CHECK constraint failed/,
    );
    expect(() => db.prepare('UPDATE dishes SET rated_3 = -1').run()).toThrow(/CHECK constraint failed/);
  });
});
