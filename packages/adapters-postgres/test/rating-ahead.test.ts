import { openPostgres, PostgresRatingRepository, type PostgresDatabase } from '@canteen-meals/adapters-postgres';
import { accept, decideRatingChange, ratingPeriodMs, refuse, type Meal, type RatingValue } from '@canteen-meals/domain';
import type { RatingDecision } from '@canteen-meals/domain/ports';
import { accepted, MealMother } from '@canteen-meals/repository-contract';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { histogramsAndRecounts, lockWaiters } from './support/rating-checks.js';
import { raceSessionPerTest } from './support/race-session.js';
import { databasePerFile } from './support/test-database.js';

// Changes decided ahead of their read (migration 020): once an instance has read a meal, a change of it whose
// decision is the same whatever the user's rating is sent as (meal, user, next) alone, in one statement. Each test
// counts the statements an instance sends and drives races step by step, as rating-races.test.ts does.
const databaseUrl = databasePerFile();
let database: PostgresDatabase;
beforeAll(async () => {
  database = await openPostgres(databaseUrl(), { poolSize: 4 });
});
afterAll(async () => {
  await database?.close();
});
const holder = raceSessionPerTest(databaseUrl, () => database.pool);

const served = new Date('2026-03-02T11:30:00Z');
const meal = (id: number, traits: Partial<Meal> = {}) => MealMother.servedAt(served, { id, ...traits });
const inPeriod = new Date(served.getTime() + ratingPeriodMs / 2);
const rating =
  (value: RatingValue | null): RatingDecision =>
  (snapshot) =>
    decideRatingChange(snapshot, value, inPeriod);
const ratingOf = async (user: string, mealId: number) =>
  (
    await database.pool.query<{ rating: number }>('SELECT rating FROM ratings WHERE user_id = $1 AND meal_id = $2', [
      user,
      mealId,
    ])
  ).rows[0]?.rating ?? null;

/** An instance of its own (its own kept meals) whose statements are counted by name (a pipeline by its label). */
function instance(): { ratings: PostgresRatingRepository; sent: string[] } {
  const sent: string[] = [];
  const counting = {
    // A statement by its name, a pipeline of statements (the apply) by its label.
    query: (config: pg.QueryConfig & { label?: string }) => {
      sent.push(config.name ?? config.label ?? config.text);
      return database.pool.query(config);
    },
  } as unknown as pg.Pool;
  return { ratings: new PostgresRatingRepository(counting, { maxBatchesInFlight: 1 }), sent };
}

describe('PostgreSQL rating changes decided ahead of their read', () => {
  it('reads a meal once; later changes of it, by any user, are applied in one statement each and answered exactly', async () => {
    await database.adapters.meals.upsertMany([meal(1)]);
    const { ratings, sent } = instance();
    accepted(await ratings.change('ann', 1, rating(4)));
    expect(sent).toEqual(['meals-rating-batch-read', 'meals-rating-batch-apply']);

    sent.length = 0;
    expect(await ratings.change('ben', 1, rating(2))).toEqual(
      accept({
        mealId: 1,
        previous: null,
        next: 2,
        histogram: [0, 1, 0, 1, 0],
        dish: { id: expect.any(Number), histogram: [0, 1, 0, 1, 0] },
      }),
    );
    expect(await ratings.change('ann', 1, rating(5))).toEqual(
      accept({
        mealId: 1,
        previous: 4,
        next: 5,
        histogram: [0, 1, 0, 0, 1],
        dish: { id: expect.any(Number), histogram: [0, 1, 0, 0, 1] },
      }),
    );
    expect(await ratings.change('ben', 1, rating(null))).toEqual(
      accept({
        mealId: 1,
        previous: 2,
        next: null,
        histogram: [0, 0, 0, 0, 1],
        dish: { id: expect.any(Number), histogram: [0, 0, 0, 0, 1] },
      }),
    );
    expect(sent).toEqual(['meals-rating-batch-apply', 'meals-rating-batch-apply', 'meals-rating-batch-apply']);
    expect(await ratingOf('ann', 1)).toBe(5);
    expect(await ratingOf('ben', 1)).toBeNull();
    const { stored, recounted } = await histogramsAndRecounts(database.pool);
    expect(stored).toEqual(recounted);
  });

  it('answers a change of nothing with the rating found and the histograms as they are, and writes nothing', async () => {
    await database.adapters.meals.upsertMany([meal(1)]);
    const { ratings, sent } = instance();
    accepted(await ratings.change('ann', 1, rating(4)));
    accepted(await ratings.change('ben', 1, rating(1)));
    const version = async () =>
      (await database.pool.query<{ xmin: string }>("SELECT xmin::text FROM ratings WHERE user_id = 'ann'")).rows[0]!
        .xmin;
    const before = await version();

    sent.length = 0;
    expect(await ratings.change('ann', 1, rating(4))).toEqual(
      accept({
        mealId: 1,
        previous: 4,
        next: 4,
        histogram: [1, 0, 0, 1, 0],
        dish: { id: expect.any(Number), histogram: [1, 0, 0, 1, 0] },
      }),
    );
    expect(await ratings.change('cem', 1, rating(null))).toEqual(
      accept({
        mealId: 1,
        previous: null,
        next: null,
        histogram: [1, 0, 0, 1, 0],
        dish: { id: expect.any(Number), histogram: [1, 0, 0, 1, 0] },
      }),
    );
    expect(sent).toEqual(['meals-rating-batch-apply', 'meals-rating-batch-apply']);
    expect(await version()).toBe(before);
  });

  it.each([
    ['stopped being rateable', 'UPDATE meals SET rateable = false WHERE meal_id = 1', 'meal_not_rateable'],
    ['was withdrawn', 'UPDATE meals SET withdrawn_at = now() WHERE meal_id = 1', 'meal_not_found'],
    [
      'moved to a day long past',
      "UPDATE meals SET served_at = served_at - interval '30 days' WHERE meal_id = 1",
      'rating_period_over',
    ],
  ])('refuses, after a read, a change of a meal that %s since the instance read it, and writes nothing', async (_, sql, code) => {
    await database.adapters.meals.upsertMany([meal(1)]);
    const { ratings, sent } = instance();
    accepted(await ratings.change('ann', 1, rating(4)));
    await database.pool.query(sql);

    sent.length = 0;
    const refused = await ratings.change('ben', 1, rating(2));
    expect(refused).toMatchObject({ ok: false, refusal: { code } });
    // Decided ahead on what the instance kept, not applied (the meal is not as kept), then read and refused.
    expect(sent).toEqual(['meals-rating-batch-apply', 'meals-rating-batch-read']);
    expect(await ratingOf('ben', 1)).toBeNull();
    // Refused on a read, the meal is read again next time, and refused again.
    sent.length = 0;
    expect(await ratings.change('ben', 1, rating(3))).toMatchObject({ ok: false, refusal: { code } });
    expect(sent).toEqual(['meals-rating-batch-read']);
  });

  it('reads first when the decision depends on the rating the user holds', async () => {
    await database.adapters.meals.upsertMany([meal(1)]);
    const { ratings, sent } = instance();
    accepted(await ratings.change('ann', 1, rating(4)));
    // A rule that only sets a first rating: refused for anyone who holds one, so it cannot be decided ahead.
    const firstOnly =
      (value: RatingValue): RatingDecision =>
      (snapshot) =>
        snapshot.current === null
          ? decideRatingChange(snapshot, value, inPeriod)
          : refuse('meal_not_rateable' as const);

    sent.length = 0;
    expect(await ratings.change('ann', 1, firstOnly(2))).toMatchObject({ ok: false });
    expect(accepted(await ratings.change('ben', 1, firstOnly(2)))).toMatchObject({
      previous: null,
      next: 2,
      histogram: [0, 1, 0, 1, 0],
    });
    expect(sent).toEqual(['meals-rating-batch-read', 'meals-rating-batch-read', 'meals-rating-batch-apply']);
    expect(await ratingOf('ann', 1)).toBe(4);
  });

  it('applies a change decided ahead to the rating another instance wrote while it waited for the meal', async () => {
    await database.adapters.meals.upsertMany([meal(1)]);
    const one = instance();
    const other = instance();
    accepted(await one.ratings.change('ann', 1, rating(1)));
    accepted(await other.ratings.change('ben', 1, rating(1)));
    await holder().query('BEGIN');
    await holder().query('SELECT 1 FROM meals WHERE meal_id = 1 FOR NO KEY UPDATE');
    // Both instances decided ahead (no read) and wait for the meal's lock, one after the other.
    const first = one.ratings.change('cem', 1, rating(5));
    await lockWaiters(database.pool, 1);
    const second = other.ratings.change('cem', 1, rating(2));
    await lockWaiters(database.pool, 2);
    await holder().query('COMMIT');
    const answers = [accepted(await first), accepted(await second)];

    // Whichever came second found the first one's rating under the lock and replaced it: one rating, counted once.
    const [earlier, later] = answers[0]!.previous === null ? answers : [answers[1]!, answers[0]!];
    expect(earlier).toMatchObject({ previous: null });
    expect(later).toMatchObject({ previous: earlier!.next });
    expect(later!.histogram.reduce((sum, count) => sum + count, 0)).toBe(3);
    expect(await ratingOf('cem', 1)).toBe(later!.next);
    expect([...one.sent, ...other.sent].filter((name) => name === 'meals-rating-batch-read')).toHaveLength(2);
    const { stored, recounted } = await histogramsAndRecounts(database.pool);
    expect(stored).toEqual(recounted);
  });
});
