import { openPostgres, type PostgresDatabase } from '@canteen-meals/adapters-postgres';
import {
  decideDishMerge,
  decideRatingChange,
  ratingPeriodMs,
  type Meal,
  type RatingValue,
} from '@canteen-meals/domain';
import { accepted, MealMother, rateInPeriod } from '@canteen-meals/repository-contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { histogramsAndRecounts, lockWaiters } from './support/rating-checks.js';
import { raceSessionPerTest } from './support/race-session.js';
import { databasePerFile } from './support/test-database.js';

// Each race is driven step by step: a session of the test holds a row lock (BEGIN, not committed) until the writers
// it holds back have read and are waiting for it; then it lets them go. No step depends on how long anything takes.
const databaseUrl = databasePerFile();
let one: PostgresDatabase;
let other: PostgresDatabase;
beforeAll(async () => {
  one = await openPostgres(databaseUrl(), { poolSize: 4 });
  other = await openPostgres(databaseUrl(), { poolSize: 4 });
});
afterAll(async () => {
  await Promise.all([one?.close(), other?.close()]);
});
const holder = raceSessionPerTest(databaseUrl, () => one.pool);

const served = new Date('2026-03-02T11:30:00Z');
const meal = (id: number, traits: Partial<Meal> = {}) => MealMother.servedAt(served, { id, ...traits });
const inPeriod = new Date(served.getTime() + ratingPeriodMs / 2);
const rate = (database: PostgresDatabase, user: string, mealId: number, rating: RatingValue | null) =>
  database.adapters.ratings.change(user, mealId, (snapshot) => decideRatingChange(snapshot, rating, inPeriod));
const dishOf = async (mealId: number) =>
  Number(
    (await one.pool.query<{ dish_id: string }>('SELECT dish_id FROM meals WHERE meal_id = $1', [mealId])).rows[0]!
      .dish_id,
  );
const ratingOf = async (user: string, mealId: number) =>
  (
    await one.pool.query<{ rating: number }>('SELECT rating FROM ratings WHERE user_id = $1 AND meal_id = $2', [
      user,
      mealId,
    ])
  ).rows[0]?.rating ?? null;
const expectHistogramsToMatchRecount = async () => {
  const { stored, recounted } = await histogramsAndRecounts(one.pool);
  expect(stored).toEqual(recounted);
};
const holdRows = async (sql: string, values: unknown[]) => {
  await holder().query('BEGIN');
  await holder().query(sql, values);
};

describe('PostgreSQL rating batches racing other writers', () => {
  it('refuses a change whose meal was withdrawn between its read and its write, and writes nothing', async () => {
    await one.adapters.meals.upsertMany([meal(1)]);
    await holdRows('UPDATE meals SET withdrawn_at = now() WHERE meal_id = $1', [1]);
    const rating = rate(one, 'alice', 1, 4); // reads the meal as served (the withdrawal is not committed)
    await lockWaiters(one.pool, 1);
    await holder().query('COMMIT');

    expect(await rating).toMatchObject({ ok: false, refusal: { code: 'meal_not_found' } });
    expect(await ratingOf('alice', 1)).toBeNull();
    await expectHistogramsToMatchRecount();
  });

  it('decides again when the meal stopped being rateable meanwhile', async () => {
    await one.adapters.meals.upsertMany([meal(1)]);
    const rerunsBefore = one.adapters.ratings.rerunCount;
    await holdRows('UPDATE meals SET rateable = false WHERE meal_id = $1', [1]);
    const rating = rate(one, 'alice', 1, 4);
    await lockWaiters(one.pool, 1);
    await holder().query('COMMIT');

    expect(await rating).toMatchObject({ ok: false, refusal: { code: 'meal_not_rateable' } });
    expect(one.adapters.ratings.rerunCount - rerunsBefore).toBe(1);
  });

  it('keeps one rating per user when two instances change the same rating at once: the later compare-and-set reads again', async () => {
    await one.adapters.meals.upsertMany([meal(1)]);
    const rerunsBefore = one.adapters.ratings.rerunCount + other.adapters.ratings.rerunCount;
    await holdRows('SELECT 1 FROM meals WHERE meal_id = $1 FOR NO KEY UPDATE', [1]);
    // Both read "no rating" before either writes.
    const first = rate(one, 'alice', 1, 5);
    await lockWaiters(one.pool, 1);
    const second = rate(other, 'alice', 1, 2);
    await lockWaiters(one.pool, 2);
    await holder().query('COMMIT');
    const answers = [accepted(await first), accepted(await second)];

    // Whichever wrote first, the other found the row it had not read, read again, and replaced it.
    const [earlier, later] = answers[0]!.previous === null ? answers : [answers[1]!, answers[0]!];
    expect(earlier).toMatchObject({ previous: null });
    expect(later).toMatchObject({ previous: earlier!.next });
    expect(later!.histogram.reduce((sum, count) => sum + count, 0)).toBe(1);
    expect(await ratingOf('alice', 1)).toBe(later!.next);
    expect(one.adapters.ratings.rerunCount + other.adapters.ratings.rerunCount - rerunsBefore).toBe(1);
    await expectHistogramsToMatchRecount();
  });

  it('counts a rating in the dish its meal moved to while the rating waited (an upsert renaming the meal)', async () => {
    await one.adapters.meals.upsertMany([meal(1, { name: 'Soup' }), meal(2, { name: 'Stew' })]);
    await rateInPeriod(one.adapters.ratings, 'alice', meal(1), 4);
    const [soup, stew] = [await dishOf(1), await dishOf(2)];
    // The upsert locks meal 1, then waits for the stew's dish row; the rating read the soup and waits for meal 1.
    await holdRows('SELECT 1 FROM dishes WHERE dish_id = $1 FOR NO KEY UPDATE', [stew]);
    const renaming = other.adapters.meals.upsertMany([meal(1, { name: 'Stew' })]);
    await lockWaiters(one.pool, 1);
    const rating = rate(one, 'bob', 1, 5);
    await lockWaiters(one.pool, 2);
    await holder().query('COMMIT');
    await renaming;

    expect(accepted(await rating)).toEqual({
      mealId: 1,
      previous: null,
      next: 5,
      histogram: [0, 0, 0, 1, 1],
      dish: { id: stew, histogram: [0, 0, 0, 1, 1] },
    });
    expect(soup).not.toBe(stew);
    await expectHistogramsToMatchRecount();
  });

  it('takes a rating out of the dish its meal moved to while the change waited, though its snapshot saw that dish without it', async () => {
    await one.adapters.meals.upsertMany([meal(1, { name: 'Soup' }), meal(2, { name: 'Stew' })]);
    await rateInPeriod(one.adapters.ratings, 'alice', meal(1), 4);
    const stew = await dishOf(2);
    // As above, but the change removes alice's 4: the write's snapshot sees the stew without it (0 fours), the stew
    // after the upsert has it. PostgreSQL checks the dish row's CHECK (counts >= 0) on the row as of the snapshot
    // before it finds the row updated meanwhile: a spurious violation, which the batch runs again.
    await holdRows('SELECT 1 FROM dishes WHERE dish_id = $1 FOR NO KEY UPDATE', [stew]);
    const renaming = other.adapters.meals.upsertMany([meal(1, { name: 'Stew' })]);
    await lockWaiters(one.pool, 1);
    const rating = rate(one, 'alice', 1, null);
    await lockWaiters(one.pool, 2);
    await holder().query('COMMIT');
    await renaming;

    expect(accepted(await rating)).toEqual({
      mealId: 1,
      previous: 4,
      next: null,
      histogram: [0, 0, 0, 0, 0],
      dish: { id: stew, histogram: [0, 0, 0, 0, 0] },
    });
    await expectHistogramsToMatchRecount();
  });

  it('counts a rating in the target of a merge that took its meal while the rating waited', async () => {
    await one.adapters.meals.upsertMany([meal(1, { name: 'Curry' }), meal(2, { name: 'Vegan curry' })]);
    await rateInPeriod(one.adapters.ratings, 'alice', meal(2), 3);
    const [target, source] = [await dishOf(1), await dishOf(2)];
    // The merge locks the source's serving (meal 2), then waits for the dish rows; the rating waits for meal 2.
    await holdRows('SELECT 1 FROM dishes WHERE dish_id = $1 FOR NO KEY UPDATE', [target]);
    const merging = other.adapters.dishes.merge(target, [source], (snapshot) =>
      decideDishMerge({ target, from: [source] }, snapshot),
    );
    await lockWaiters(one.pool, 1);
    const rating = rate(one, 'bob', 2, 5);
    await lockWaiters(one.pool, 2);
    await holder().query('COMMIT');
    accepted(await merging);

    expect(accepted(await rating)).toMatchObject({
      histogram: [0, 0, 1, 0, 1],
      dish: { id: target, histogram: [0, 0, 1, 0, 1] },
    });
    await expectHistogramsToMatchRecount();
  });

  it('stays exact when the user is erased while a change of their rating waits', async () => {
    await one.adapters.meals.upsertMany([meal(1), meal(2)]);
    await rateInPeriod(one.adapters.ratings, 'alice', meal(1), 4);
    await rateInPeriod(one.adapters.ratings, 'bob', meal(1), 1);
    await holdRows('SELECT 1 FROM meals WHERE meal_id = $1 FOR NO KEY UPDATE', [1]);
    const erasing = other.adapters.userData.eraseAll('alice');
    await lockWaiters(one.pool, 1);
    const rating = rate(one, 'alice', 1, 2); // read the 4
    await lockWaiters(one.pool, 2);
    await holder().query('COMMIT');
    const [erased, change] = [await erasing, accepted(await rating)];

    // Either the erasure came first and the change, read again, set a new rating; or the change came first and the
    // erasure took its rating away.
    if (change.previous === null) {
      expect(erased.ratings).toBe(1);
      expect(await ratingOf('alice', 1)).toBe(2);
      expect(change.histogram).toEqual([1, 1, 0, 0, 0]);
    } else {
      expect(change).toMatchObject({ previous: 4, histogram: [1, 1, 0, 0, 0] });
      expect(await ratingOf('alice', 1)).toBeNull();
    }
    await expectHistogramsToMatchRecount();
  });
});
