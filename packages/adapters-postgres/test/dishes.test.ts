import { openPostgres, type PostgresDatabase, type RetryEvent } from '@canteen-meals/adapters-postgres';
import { decideDishMerge, histogramOf, type Meal, type RatingHistogram, type RatingValue } from '@canteen-meals/domain';
import { accepted, MealMother, rateInPeriod } from '@canteen-meals/repository-contract';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { databasePerFile } from './support/test-database.js';

const databaseUrl = databasePerFile();
const retries: RetryEvent[] = [];
let database: PostgresDatabase;
beforeAll(async () => {
  database = await openPostgres(databaseUrl(), { poolSize: 8, onRetry: (event) => retries.push(event) });
});
afterAll(async () => {
  await database?.close();
});
beforeEach(async () => {
  await database.pool.query('TRUNCATE ratings, markings, meal_sources, meals, dish_names, dishes');
});

const day = 24 * 60 * 60 * 1000;
const firstDay = Date.parse('2026-03-02T11:30:00Z');
const servedOnDay = (index: number, traits: Partial<Meal>) =>
  MealMother.servedAt(new Date(firstDay + index * day), traits);

/** Every dish's histogram beside the recount of the ratings of its servings, withdrawn ones included. */
async function dishHistogramsAndRecounts(): Promise<{
  stored: Record<string, RatingHistogram>;
  recounted: Record<string, RatingHistogram>;
}> {
  const { rows: dishes } = await database.pool.query<
    { dish_id: string } & Record<`rated_${1 | 2 | 3 | 4 | 5}`, number>
  >('SELECT dish_id, rated_1, rated_2, rated_3, rated_4, rated_5 FROM dishes');
  const { rows: ratings } = await database.pool.query<{ dish_id: string; rating: RatingValue }>(
    'SELECT meals.dish_id, ratings.rating FROM ratings JOIN meals USING (meal_id)',
  );
  const stored: Record<string, RatingHistogram> = {};
  const recounted: Record<string, RatingHistogram> = {};
  for (const dish of dishes) {
    stored[dish.dish_id] = [dish.rated_1, dish.rated_2, dish.rated_3, dish.rated_4, dish.rated_5];
    recounted[dish.dish_id] = histogramOf(
      ratings.filter((row) => row.dish_id === dish.dish_id).map((row) => row.rating),
    );
  }
  return { stored, recounted };
}

describe('PostgreSQL dishes under concurrent writers', () => {
  it('ends with one dish when writers of the same new name write at once, however they spell it', async () => {
    const { meals } = database.adapters;
    const spellings = ['Ofenkartoffel', 'OFENKARTOFFEL', ' ofenkartoffel ', 'Ｏｆｅｎkartoffel'];
    // Each batch also names another new dish, in a different order, so two writers wait for each other's names.
    await Promise.all(
      Array.from({ length: 8 }, (_, writer) =>
        meals.upsertMany(
          writer % 2 === 0
            ? [
                servedOnDay(writer, { id: writer * 2 + 1, name: spellings[writer % 4]! }),
                servedOnDay(writer, { id: writer * 2 + 2, name: 'Rote Grütze' }),
              ]
            : [
                servedOnDay(writer, { id: writer * 2 + 1, name: 'rote grütze' }),
                servedOnDay(writer, { id: writer * 2 + 2, name: spellings[writer % 4]! }),
              ],
        ),
      ),
    );
    const { rows } = await database.pool.query<{ dishes: number; names: number; meals: number }>(
      `SELECT (SELECT count(*)::int FROM dishes) AS dishes, (SELECT count(*)::int FROM dish_names) AS names,
         (SELECT count(DISTINCT dish_id)::int FROM meals) AS meals`,
    );
    expect(rows[0]).toEqual({ dishes: 2, names: 2, meals: 2 });
  });

  it("keeps every dish histogram equal to its servings' ratings while they are rated, renamed to another dish and erased, retrying only deadlocks", async () => {
    const { meals, ratings, userData } = database.adapters;
    const served = Array.from({ length: 12 }, (_, index) =>
      servedOnDay(index, { id: index + 1, name: index % 2 === 0 ? 'Stew' : 'Soup' }),
    );
    await meals.upsertMany(served);
    const values: RatingValue[] = [1, 2, 3, 4, 5];
    const retriesBefore = database.adapters.retryCount();
    const work: Promise<unknown>[] = [];
    for (let round = 0; round < 12; round++) {
      for (const [index, meal] of served.entries()) {
        work.push(rateInPeriod(ratings, `rater-${index % 3}`, meal, values[(round + index) % 5]!));
        work.push(rateInPeriod(ratings, 'dave', meal, values[(round * 2 + index) % 5]!));
      }
      // Two meals change dish each round, in both directions, and dave's ratings go.
      const renamed = [served[round % 12]!, served[(round + 5) % 12]!].map((meal) => ({
        ...meal,
        name: round % 2 === 0 ? 'Soup' : 'Stew',
      }));
      work.push(meals.upsertMany(renamed));
      work.push(userData.eraseAll('dave'));
    }
    await Promise.all(work);

    const { stored, recounted } = await dishHistogramsAndRecounts();
    expect(stored).toEqual(recounted);
    // An erasure that meets ratings arriving meanwhile locks their meals in a later round, possibly below meal ids it
    // holds: a deadlock with a writer of several meals is possible, and the transaction runner retries it (40P01).
    // A rating write that took a rating out of a meal renamed meanwhile may meet a spurious check violation (23514,
    // see PostgresRatingRepository) and runs again. Nothing else may need a retry.
    const notDeadlocks = retries.slice(retriesBefore).filter(({ code }) => code !== '40P01' && code !== '23514');
    expect(
      notDeadlocks.map(
        ({ code, error }) =>
          `${code}: ${error.message} ${(error as { detail?: string }).detail ?? ''} ${(error as { where?: string }).where ?? ''}`,
      ),
    ).toEqual([]);
  });

  it('runs a merge again, rather than wait for a meal row while holding dish rows, when a serving joins a source meanwhile', async () => {
    const { meals, dishes, queries } = database.adapters;
    await meals.upsertMany([
      servedOnDay(0, { id: 1, name: 'Gulasch' }),
      servedOnDay(1, { id: 2, name: 'Gulaschsuppe' }),
    ]);
    const dishOf = async (mealId: number) =>
      (await queries.viewsByIds('nobody', [mealId], new Date(firstDay)))[0]!.dish.id;
    const [target, source] = [await dishOf(1), await dishOf(2)];
    const retriesBefore = retries.length;

    // A writer holds the source's dish row and adds a serving to it, as placeInDishes and the upsert do.
    const writer = await database.pool.connect();
    try {
      await writer.query('BEGIN');
      await writer.query('SELECT 1 FROM dishes WHERE dish_id = $1 FOR NO KEY UPDATE', [source]);
      await writer.query(
        `INSERT INTO meals (meal_id, name, served_at, rateable, dish_id) VALUES (3, 'gulaschsuppe', $1, true, $2)`,
        [new Date(firstDay + 2 * day), source],
      );
      const merging = dishes.merge(target, [source], (snapshot) =>
        decideDishMerge({ target, from: [source] }, snapshot),
      );
      // The merge has locked the servings it sees (not meal 3, uncommitted) and waits for the dish rows.
      const waiting = `SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'`;
      await expect.poll(async () => (await database.pool.query<{ n: number }>(waiting)).rows[0]!.n).toBe(1);
      await writer.query('COMMIT');
      expect(accepted(await merging)).toMatchObject({ target, sources: [source] });
    } finally {
      writer.release();
    }
    expect(retries.slice(retriesBefore).map(({ code }) => code)).toEqual(['40001']);
    expect(await Promise.all([1, 2, 3].map(dishOf))).toEqual([target, target, target]);
  });

  it('runs an upsert again when a meal it took for new was inserted, with ratings in another dish, meanwhile', async () => {
    const { meals, queries } = database.adapters;
    await meals.upsertMany([servedOnDay(0, { id: 1, name: 'Linsen' }), servedOnDay(1, { id: 2, name: 'Bohnen' })]);
    const dishOf = async (mealId: number) =>
      (await queries.viewsByIds('nobody', [mealId], new Date(firstDay)))[0]!.dish.id;
    const [lentils, beans] = [await dishOf(1), await dishOf(2)];
    const retriesBefore = retries.length;

    // Another writer inserts meal 50 as lentils, rated 4, and has not committed when the upsert of meal 50 as beans
    // starts.
    const writer = await database.pool.connect();
    try {
      await writer.query('BEGIN');
      await writer.query(
        `INSERT INTO meals (meal_id, name, served_at, rateable, dish_id, rated_4) VALUES (50, 'Linsen', $1, true, $2, 1)`,
        [new Date(firstDay + 2 * day), lentils],
      );
      await writer.query(`INSERT INTO ratings VALUES (50, 'gina', 4)`);
      await writer.query('UPDATE dishes SET rated_4 = rated_4 + 1 WHERE dish_id = $1', [lentils]);
      const upserting = meals.upsertMany([servedOnDay(2, { id: 50, name: 'Bohnen' })]);
      const waiting = `SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'`;
      await expect.poll(async () => (await database.pool.query<{ n: number }>(waiting)).rows[0]!.n).toBe(1);
      await writer.query('COMMIT');
      await upserting;
    } finally {
      writer.release();
    }
    expect(retries.slice(retriesBefore).map(({ code }) => code)).toEqual(['40001']);
    expect(await dishOf(50)).toBe(beans);
    const { stored, recounted } = await dishHistogramsAndRecounts();
    expect(stored).toEqual(recounted);
    expect(stored[String(beans)]).toEqual([0, 0, 0, 1, 0]);
  });

  it('keeps the sums when dishes are merged while their servings are rated and written', async () => {
    const { meals, ratings, dishes, queries } = database.adapters;
    const names = ['Curry', 'Curry (vegan)', 'Curry mit Reis', 'Dal'];
    const served = Array.from({ length: 16 }, (_, index) =>
      servedOnDay(index, { id: index + 1, name: names[index % 4]! }),
    );
    await meals.upsertMany(served);
    const dishOf = async (mealId: number) =>
      (await queries.viewsByIds('nobody', [mealId], new Date(firstDay)))[0]!.dish.id;
    const [curry, vegan, withRice] = [await dishOf(1), await dishOf(2), await dishOf(3)];

    const work: Promise<unknown>[] = [];
    let merging: ReturnType<typeof dishes.merge> | undefined;
    for (const [index, meal] of served.entries()) {
      work.push(rateInPeriod(ratings, 'erin', meal, ((index % 5) + 1) as RatingValue));
      work.push(rateInPeriod(ratings, 'frank', meal, (((index + 2) % 5) + 1) as RatingValue));
      if (index === 5) {
        merging = dishes.merge(curry, [vegan, withRice], (snapshot) =>
          decideDishMerge({ target: curry, from: [vegan, withRice] }, snapshot),
        );
      }
      // New servings of the merged names arrive meanwhile: before the merge they join the source, after it the target.
      if (index % 4 === 1)
        work.push(meals.upsertMany([servedOnDay(100 + index, { id: 100 + index, name: 'curry (VEGAN)' })]));
    }
    await Promise.all(work);
    expect(accepted(await merging!)).toMatchObject({ target: curry, sources: [vegan, withRice] });

    const { stored, recounted } = await dishHistogramsAndRecounts();
    expect(stored).toEqual(recounted);
    const { rows } = await database.pool.query<{ dish_id: string }>(
      "SELECT DISTINCT dish_id FROM meals WHERE name IN ('Curry', 'Curry (vegan)', 'Curry mit Reis', 'curry (VEGAN)')",
    );
    expect(rows.map((row) => Number(row.dish_id))).toEqual([curry]);
  });
});
