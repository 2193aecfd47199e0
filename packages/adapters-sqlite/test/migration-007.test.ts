import { createSqliteAdapters } from '@canteen-meals/adapters-sqlite';
import { probeThrough } from '@canteen-meals/repository-contract';
import { describe, expect, it } from 'vitest';
import { legacyFilePerTest } from './support/legacy-file.js';

const noon = 1741608000000; // 2025-03-10T12:00:00Z

/** The details of `EXPLAIN QUERY PLAN`, one line per step. */
const planOf = (
  db: ReturnType<ReturnType<typeof legacyFilePerTest>['open']>,
  sql: string,
  parameters: unknown[] = [],
) => (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...parameters) as { detail: string }[]).map((step) => step.detail);

describe('migration 007 (markings by meal) on a database that has migrations 001 to 006', () => {
  const { open } = legacyFilePerTest(6, (old) => {
    old.exec(`
      INSERT INTO dishes (dish_id, canteen_id, name) VALUES (1, 'default', 'Currywurst');
      INSERT INTO dish_names (canteen_id, name_key, search_key, name, dish_id) VALUES ('default', 'currywurst', 'currywurst', 'Currywurst', 1);
      INSERT INTO meals (meal_id, name, served_at, rateable, canteen_id, position, dish_id) VALUES
        (1, 'Currywurst', ${noon}, 1, 'default', 0, 1), (2, 'Currywurst', ${noon + 86_400_000}, 1, 'default', 0, 1);
      INSERT INTO markings (user_id, meal_id) VALUES ('alice', 1), ('bob', 1), ('alice', 2);`);
  });

  it('keeps every marking, and counts them per meal and per dish from the new index alone', async () => {
    const db = open();
    const { queries, dishQueries } = createSqliteAdapters(db);
    const probe = probeThrough(() => queries);
    expect(await probe.marked('alice', 1)).toBe(true);
    expect(await probe.marked('bob', 2)).toBe(false);
    expect(await queries.markingCounts([1, 2])).toEqual(
      new Map([
        [1, 2],
        [2, 1],
      ]),
    );
    expect(await dishQueries.markingCounts([1])).toEqual(new Map([[1, 2]]));
    expect(db.prepare('SELECT version, name FROM schema_migrations WHERE version = 7').get()).toEqual({
      version: 7,
      name: 'markings-by-meal',
    });

    // A meal's markings are a range of markings_by_meal, which covers them: no scan of the markings table.
    const perMeal = planOf(
      db,
      'SELECT meal_id, count(*) FROM markings WHERE meal_id IN (SELECT value FROM json_each(?)) GROUP BY meal_id',
      ['[1,2]'],
    );
    expect(perMeal.join('\n')).toMatch(/SEARCH markings USING COVERING INDEX markings_by_meal \(meal_id=\?\)/);
    expect(perMeal.join('\n')).not.toMatch(/SCAN markings/);
    const perDish = planOf(
      db,
      `SELECT serving.dish_id, count(DISTINCT markings.user_id) FROM meals AS serving JOIN markings ON markings.meal_id = serving.meal_id
        WHERE serving.dish_id IN (SELECT value FROM json_each(?)) GROUP BY serving.dish_id`,
      ['[1]'],
    );
    expect(perDish.join('\n')).toMatch(/SEARCH markings USING COVERING INDEX markings_by_meal \(meal_id=\?\)/);
    expect(perDish.join('\n')).not.toMatch(/SCAN (markings|serving)\b/);
  });

  it('goes on working: a new marking is counted, an unmarking too', async () => {
    const db = open();
    const { queries, markings } = createSqliteAdapters(db);
    await markings.setMarked('carol', 2, true);
    await markings.setMarked('alice', 1, false);
    expect(await queries.markingCounts([1, 2])).toEqual(
      new Map([
        [1, 1],
        [2, 2],
      ]),
    );
    expect(db.pragma('foreign_key_check')).toEqual([]);
  });
});
