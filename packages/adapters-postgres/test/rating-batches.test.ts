import { openPostgres, type PostgresDatabase } from '@canteen-meals/adapters-postgres';
import {
  decideRatingChange,
  ratingPeriodMs,
  ratingStatistics,
  type Meal,
  type RatingChange,
  type RatingValue,
} from '@canteen-meals/domain';
import { accepted, MealMother } from '@canteen-meals/repository-contract';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { histogramsAndRecounts } from './support/rating-checks.js';
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
const inPeriod = new Date(served.getTime() + ratingPeriodMs / 2);
const rate = (instance: PostgresDatabase, user: string, mealId: number, rating: RatingValue | null) =>
  instance.adapters.ratings.change(user, mealId, (snapshot) => decideRatingChange(snapshot, rating, inPeriod));
const total = (change: RatingChange) => ratingStatistics(change.histogram).count;

describe('PostgreSQL rating batches under concurrent load from two instances', () => {
  it('answers every first rating of a fresh meal with a count of its own: the answers are one linear history', async () => {
    await instances[0]!.adapters.meals.upsertMany([meal(1, { name: 'Hot meal' }), meal(2, { name: 'Hot meal' })]);
    const users = Array.from({ length: 300 }, (_, index) => `user-${index}`);
    // Alternating instances and the two servings of one dish, all asked for at once.
    const answers = await Promise.all(
      users.map((user, index) =>
        rate(instances[index % 2]!, user, 1 + (index % 3 === 0 ? 1 : 0), (1 + (index % 5)) as RatingValue),
      ),
    );
    const changes = answers.map(accepted);

    // Each new rating adds one: if the answers are a linearization, each count from 1 to 300 is answered exactly once
    // for the dish, and each meal's counts are 1 to its number of ratings.
    expect(changes.map((change) => ratingStatistics(change.dish!.histogram).count).sort((a, b) => a - b)).toEqual(
      users.map((_, index) => index + 1),
    );
    for (const mealId of [1, 2]) {
      const counts = changes
        .filter((change) => change.mealId === mealId)
        .map(total)
        .sort((a, b) => a - b);
      expect(counts).toEqual(counts.map((_, index) => index + 1));
    }
    // Each answer counts the answer's own rating.
    for (const change of changes) expect(change.histogram[change.next! - 1]).toBeGreaterThan(0);
    const { stored, recounted } = await histogramsAndRecounts(instances[0]!.pool);
    expect(stored).toEqual(recounted);
  });

  it('keeps the histograms equal to a recount and one rating per user while users change their minds on both instances', async () => {
    await instances[0]!.adapters.meals.upsertMany([
      meal(1, { name: 'Soup' }),
      meal(2, { name: 'Soup' }),
      meal(3, { name: 'Stew' }),
    ]);
    const users = Array.from({ length: 40 }, (_, index) => `user-${index}`);
    const values: (RatingValue | null)[] = [5, 3, null, 1, 4, 2];
    // Eight waves of at once: every user rates, re-rates or deletes, through either instance, on one of three meals.
    for (let wave = 0; wave < 8; wave++) {
      const answers = await Promise.all(
        users.flatMap((user, index) => [
          rate(
            instances[(index + wave) % 2]!,
            user,
            1 + ((index + wave) % 3),
            values[(index * 7 + wave) % values.length]!,
          ),
          rate(
            instances[(index + wave + 1) % 2]!,
            user,
            1 + ((index + wave) % 3),
            values[(index * 5 + wave) % values.length]!,
          ),
        ]),
      );
      for (const answer of answers.map(accepted)) {
        // Every answer holds its own rating (or its deletion): what it says of the user is part of what it counts.
        if (answer.next !== null) expect(answer.histogram[answer.next - 1]).toBeGreaterThan(0);
        // The dish counts every serving's ratings at the same instant, this meal's among them.
        expect(answer.dish!.histogram.every((count, index) => count >= answer.histogram[index]!)).toBe(true);
      }
    }
    const { stored, recounted } = await histogramsAndRecounts(instances[0]!.pool);
    expect(stored).toEqual(recounted);
    const { rows } = await instances[0]!.pool.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM ratings GROUP BY meal_id, user_id HAVING count(*) > 1',
    );
    expect(rows).toEqual([]);
  });

  it('answers refusals and changes of nothing in a batch beside the changes, without writing for them', async () => {
    const [first] = instances;
    await first!.adapters.meals.upsertMany([meal(1), meal(2, { rateable: false })]);
    accepted(await rate(first!, 'alice', 1, 4));
    const [same, refused, missing, fresh] = await Promise.all([
      rate(first!, 'alice', 1, 4),
      rate(first!, 'bob', 2, 3),
      rate(first!, 'carol', 99, 3),
      rate(first!, 'dave', 1, 2),
    ]);
    // The change of nothing is answered as of the batch's read, before the batch's own changes.
    expect(accepted(same)).toMatchObject({ previous: 4, next: 4, histogram: [0, 0, 0, 1, 0] });
    expect(refused).toMatchObject({ ok: false, refusal: { code: 'meal_not_rateable' } });
    expect(missing).toMatchObject({ ok: false, refusal: { code: 'meal_not_found' } });
    expect(accepted(fresh)).toMatchObject({ previous: null, next: 2, histogram: [0, 1, 0, 1, 0] });
  });
});
