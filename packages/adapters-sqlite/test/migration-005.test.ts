import { backfillDishes, createSqliteAdapters, type SqliteDatabase } from '@canteen-meals/adapters-sqlite';
import { decideRatingChange } from '@canteen-meals/domain';
import { probeThrough, readAt } from '@canteen-meals/repository-contract';
import { describe, expect, it } from 'vitest';
import { legacyFilePerTest } from './support/legacy-file.js';

const noon = 1741608000000; // 2025-03-10T12:00:00Z
const week = 7 * 24 * 3_600_000;

interface DishRow {
  dish_id: number;
  canteen_id: string;
  name: string;
  histogram: string;
}

describe('migration 005 (dishes) on a database that has migrations 001 to 004', () => {
  const { open } = legacyFilePerTest(4, (old) => {
    // Meals 1 and 3 differ only in case (and spacing): one dish, named after meal 1. Meal 4 has the same name in
    // another canteen: a dish of its own. The histograms equal the ratings rows.
    old.exec(`
      INSERT INTO canteens (canteen_id, name, time_zone) VALUES ('bistro', 'Bistro', 'UTC');
      INSERT INTO meals (meal_id, name, served_at, rateable, canteen_id, rated_2, rated_4, rated_5) VALUES
        (1, 'currywurst', ${noon - week}, 1, 'default', 1, 0, 1),
        (2, 'Lentil soup', ${noon}, 1, 'default', 0, 1, 0),
        (3, '  CURRYWURST ', ${noon}, 1, 'default', 0, 1, 1),
        (4, 'Currywurst', ${noon}, 1, 'bistro', 0, 0, 1),
        (5, 'Salad bar', ${noon + week}, 0, 'default', 0, 0, 0);
      INSERT INTO ratings (user_id, meal_id, rating) VALUES
        ('alice', 1, 5), ('bob', 1, 2), ('alice', 2, 4), ('alice', 3, 4), ('carol', 3, 5), ('dave', 4, 5);
      INSERT INTO markings (user_id, meal_id) VALUES ('alice', 1), ('carol', 3), ('carol', 5);
      INSERT INTO meal_sources (source_key, meal_id, source, served_on) VALUES ('feed|2025-03-10|Currywurst', 3, 'feed', '2025-03-10');`);
  });
  const dishesIn = (db: SqliteDatabase) =>
    db
      .prepare<[], DishRow>(
        "SELECT dish_id, canteen_id, name, rated_1 || ',' || rated_2 || ',' || rated_3 || ',' || rated_4 || ',' || rated_5 AS histogram FROM dishes ORDER BY dish_id",
      )
      .all();
  const dishOfMeals = (db: SqliteDatabase) =>
    db
      .prepare<[], { meal_id: number; dish_id: number | null }>('SELECT meal_id, dish_id FROM meals ORDER BY meal_id')
      .all();

  it('puts every meal in a dish at open: names that differ only in case share one, whose histogram is the sum', async () => {
    const db = open();
    expect(dishesIn(db)).toEqual([
      { dish_id: 1, canteen_id: 'default', name: 'currywurst', histogram: '0,1,0,1,2' },
      { dish_id: 2, canteen_id: 'default', name: 'Lentil soup', histogram: '0,0,0,1,0' },
      { dish_id: 3, canteen_id: 'bistro', name: 'Currywurst', histogram: '0,0,0,0,1' },
      { dish_id: 4, canteen_id: 'default', name: 'Salad bar', histogram: '0,0,0,0,0' },
    ]);
    expect(dishOfMeals(db)).toEqual([
      { meal_id: 1, dish_id: 1 },
      { meal_id: 2, dish_id: 2 },
      { meal_id: 3, dish_id: 1 },
      { meal_id: 4, dish_id: 3 },
      { meal_id: 5, dish_id: 4 },
    ]);
    expect(
      db.prepare('SELECT canteen_id, name_key, search_key, name, dish_id FROM dish_names ORDER BY dish_id').all(),
    ).toEqual([
      { canteen_id: 'default', name_key: 'currywurst', search_key: 'currywurst', name: 'currywurst', dish_id: 1 },
      { canteen_id: 'default', name_key: 'lentil soup', search_key: 'lentil soup', name: 'Lentil soup', dish_id: 2 },
      { canteen_id: 'bistro', name_key: 'currywurst', search_key: 'currywurst', name: 'Currywurst', dish_id: 3 },
      { canteen_id: 'default', name_key: 'salad bar', search_key: 'salad bar', name: 'Salad bar', dish_id: 4 },
    ]);
    const [view] = await createSqliteAdapters(db).queries.viewsByIds('alice', [3], readAt);
    expect(view?.dish).toEqual({
      id: 1,
      canteenId: 'default',
      name: 'currywurst',
      histogram: [0, 1, 0, 1, 2],
      timesServed: 2,
      lastServedAt: new Date(noon),
      nextServedAt: null,
    });
  });

  it('loses nothing: meals, their histograms, ratings, markings and sources; no withdrawn meal; foreign keys hold', async () => {
    const db = open();
    const { meals, queries } = createSqliteAdapters(db);
    const probe = probeThrough(() => queries);
    expect(await meals.count()).toBe(5);
    expect(await probe.meal(3)).toMatchObject({ name: '  CURRYWURST ', servedAt: new Date(noon) });
    expect([await probe.histogram(1), await probe.histogram(3), await probe.histogram(4)]).toEqual([
      [0, 1, 0, 0, 1],
      [0, 0, 0, 1, 1],
      [0, 0, 0, 0, 1],
    ]);
    expect(db.prepare('SELECT user_id, meal_id, rating FROM ratings ORDER BY user_id, meal_id').all()).toHaveLength(6);
    expect([await probe.marked('alice', 1), await probe.marked('carol', 3), await probe.marked('carol', 5)]).toEqual([
      true,
      true,
      true,
    ]);
    expect(db.prepare('SELECT meal_id FROM meal_sources').pluck().all()).toEqual([3]);
    expect(db.prepare('SELECT count(*) FROM meals WHERE withdrawn_at IS NOT NULL').pluck().get()).toBe(0);
    expect(db.pragma('foreign_key_check')).toEqual([]);
  });

  it('backfills once: opening again, or running the backfill again, changes nothing', () => {
    const first = open();
    const before = dishesIn(first);
    first.close();
    const again = open();
    expect(backfillDishes(again)).toBe(0);
    expect(dishesIn(again)).toEqual(before);
    expect(again.prepare('SELECT version FROM schema_migrations WHERE version = 5').all()).toEqual([{ version: 5 }]);
  });

  it('assigns only meals without a dish: one that lacks it joins the dish of its name, adding its histogram', () => {
    const db = open();
    db.prepare(`INSERT INTO meals (meal_id, name, served_at, rateable, rated_1) VALUES (6, 'CurryWurst', ?, 1, 3)`).run(
      noon + 2 * week,
    );
    expect(backfillDishes(db)).toBe(1);
    expect(dishOfMeals(db).at(-1)).toEqual({ meal_id: 6, dish_id: 1 });
    expect(dishesIn(db)[0]).toMatchObject({ dish_id: 1, histogram: '3,1,0,1,2' });
  });

  it('goes on working: a rating changes the meal and its dish; a renamed meal takes its ratings to its new dish', async () => {
    const db = open();
    const { meals, ratings } = createSqliteAdapters(db);
    const change = await ratings.change('bob', 3, (snapshot) =>
      decideRatingChange(snapshot, 1, new Date(noon + 3_600_000)),
    );
    expect(change).toMatchObject({
      ok: true,
      value: { histogram: [1, 0, 0, 1, 1], dish: { id: 1, histogram: [1, 1, 0, 1, 2] } },
    });

    const renamed = await createSqliteAdapters(db).queries.viewsByIds('alice', [3], readAt);
    await meals.upsertMany([{ ...renamed[0]!.meal, name: 'Lentil Soup' }]);
    expect(dishesIn(db).slice(0, 2)).toEqual([
      { dish_id: 1, canteen_id: 'default', name: 'currywurst', histogram: '0,1,0,0,1' },
      { dish_id: 2, canteen_id: 'default', name: 'Lentil soup', histogram: '1,0,0,2,1' },
    ]);
  });
});
