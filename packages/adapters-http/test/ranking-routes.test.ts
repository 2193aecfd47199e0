import { createInMemoryAdapters, FixedClock, InMemoryDatabase } from '@canteen-meals/adapters-memory';
import { createUseCases, rankingScore, type Meal, type RankingSettings, type RatingValue } from '@canteen-meals/domain';
import { MealMother } from '@canteen-meals/repository-contract';
import type { LightMyRequestResponse } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import {
  buildHttpApp,
  createHmacTokenVerifier,
  signHmacToken,
  type MenuCachingOptions,
  httpUseCasesOf,
} from '../src/index.js';
import { now, secret, timeZone } from './app-fixture.js';

// `now` is 2026-03-10T12:00:00Z, 13:00 in Berlin: the meals below are served today unless said otherwise.
const today = '2026-03-10';
const rankings = (query: string) => `/api/v1/rankings?${query}`;
const todays = rankings(`canteen=default&date=${today}`);

const opened: Array<{ close(): Promise<unknown> }> = [];
afterEach(async () => {
  for (const app of opened.splice(0)) await app.close();
});

async function setup(
  meals: Meal[],
  options: { menuCaching?: MenuCachingOptions; rankingSettings?: RankingSettings } = {},
) {
  const adapters = createInMemoryAdapters(new InMemoryDatabase({ defaultTimeZone: timeZone }));
  await adapters.meals.upsertMany(meals);
  const clock = new FixedClock(now);
  const useCases = createUseCases(adapters, clock, { start: '11:00', timeZone });
  const app = await buildHttpApp({
    useCases: httpUseCasesOf(useCases),
    clock,
    verifyToken: createHmacTokenVerifier({ secret }),
    ...options,
  });
  opened.push(app);
  const get = (url: string, headers: Record<string, string> = {}) => app.inject({ method: 'GET', url, headers });
  /** Each rating by a user of its own, through the use case (fast), inside the meal's rating period. */
  const rateMany = async (mealId: number, ratings: readonly RatingValue[]) => {
    for (const [index, rating] of ratings.entries()) {
      const result = await useCases.rateMeal.execute({ userId: `rater-${mealId}-${index}`, mealId, rating });
      expect(result.ok).toBe(true);
    }
  };
  const mark = async (userId: string, mealId: number) => {
    expect(await useCases.markMeal.execute({ userId, mealId, marked: true })).toEqual({
      ok: true,
      value: { marked: true },
    });
  };
  const bearer = (sub: string) => `Bearer ${signHmacToken(secret, { sub })}`;
  return { app, adapters, clock, useCases, get, rateMany, mark, bearer };
}

type Item = Record<string, unknown> & { rank: number; name: string };
const dataOf = (response: LightMyRequestResponse) =>
  (response.json() as { data: { scope: string; by: string; items: Item[] } }).data;
const itemsOf = (response: LightMyRequestResponse) => dataOf(response).items;
const errorOf = (response: LightMyRequestResponse) => [
  response.statusCode,
  (response.json() as { error: { code: string } }).error.code,
];

const servedToday = (id: number, name: string) => MealMother.servedToday(now, { id, name });
const fives = (count: number): RatingValue[] => Array.from({ length: count }, () => 5);
/** Fifty ratings averaging 4.6: thirty 5s and twenty 4s. */
const fiftyAt46: RatingValue[] = [...fives(30), ...Array.from({ length: 20 }, (): RatingValue => 4)];

describe('GET /api/v1/rankings?canteen=&date=: the meals of some days', () => {
  it('ranks a meal with fifty ratings averaging 4.6 above a single 5-star rating, with rank, score, count and average', async () => {
    const { get, rateMany } = await setup([servedToday(1, 'One fan'), servedToday(2, 'Crowd favourite')]);
    await rateMany(1, [5]);
    await rateMany(2, fiftyAt46);

    const response = await get(todays);

    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toEqual({
      status: 'success',
      data: {
        scope: 'meals',
        by: 'rating',
        items: [
          {
            rank: 1,
            meal_id: 2,
            name: 'Crowd favourite',
            score: rankingScore([0, 0, 0, 20, 30]),
            rating_count: 50,
            rating_average: 4.6,
            labels: [],
            availability: 'available',
            availability_changed_at: null,
          },
          {
            rank: 2,
            meal_id: 1,
            name: 'One fan',
            score: rankingScore([0, 0, 0, 0, 1]),
            rating_count: 1,
            rating_average: 5,
            labels: [],
            availability: 'available',
            availability_changed_at: null,
          },
        ],
      },
    });
    expect(itemsOf(response)[0]!.score).toBeCloseTo(4.282, 3);
    expect(itemsOf(response)[1]!.score).toBeCloseTo(2.404, 3);
  });

  it('puts the meals nobody rated last, in menu order, with no score; a poorly rated meal still ranks above them', async () => {
    const meals = [
      servedToday(1, 'Unrated A'),
      servedToday(2, 'Poor'),
      servedToday(3, 'Unrated B'),
      servedToday(4, 'Good'),
      servedToday(5, 'Unrated C'),
    ];
    const { get, rateMany } = await setup(meals);
    await rateMany(2, [1, 1, 2]);
    await rateMany(4, [4, 5]);

    const items = itemsOf(await get(todays));

    expect(items.map((item) => [item.rank, item.meal_id])).toEqual([
      [1, 4],
      [2, 2],
      [3, 1],
      [4, 3],
      [5, 5],
    ]);
    expect(items.slice(2)).toEqual(
      [1, 3, 5].map((id, index) => ({
        rank: 3 + index,
        meal_id: id,
        name: meals[id - 1]!.name,
        score: null,
        rating_count: 0,
        rating_average: null,
        labels: [],
        availability: 'available',
        availability_changed_at: null,
      })),
    );
  });

  it('ranks by=marks: most marked first, ties in menu order, each with its marks', async () => {
    const meals = [servedToday(1, 'A'), servedToday(2, 'B'), servedToday(3, 'C'), servedToday(4, 'D')];
    const { get, mark, rateMany } = await setup(meals);
    for (const [user, meal] of [
      ['alice', 3],
      ['bob', 3],
      ['carol', 3],
      ['alice', 2],
      ['bob', 4],
    ] as const)
      await mark(user, meal);
    await rateMany(1, [5, 5, 5]);

    const response = await get(`${todays}&by=marks`);

    expect(dataOf(response)).toMatchObject({ scope: 'meals', by: 'marks' });
    expect(itemsOf(response).map((item) => [item.rank, item.meal_id, item.marks])).toEqual([
      [1, 3, 3],
      [2, 2, 1],
      [3, 4, 1],
      [4, 1, 0],
    ]);
    expect(itemsOf(response)[3]).toMatchObject({ rating_count: 3, score: rankingScore([0, 0, 0, 0, 3]) });
    // By rating, no item carries marks.
    expect(itemsOf(await get(todays)).every((item) => !('marks' in item))).toBe(true);
  });

  it(`accepts a range of 31 days, refuses 32, an inverted range and bad combinations (400 invalid_request)`, async () => {
    const { get, rateMany } = await setup([
      MealMother.servedDaysAgo(now, 30, { id: 1, name: 'A month ago' }),
      servedToday(2, 'Today'),
    ]);
    await rateMany(2, [4]);

    const month = await get(rankings('canteen=default&from=2026-02-08&to=2026-03-10'));
    expect(month.statusCode, month.body).toBe(200);
    expect(itemsOf(month).map((item) => item.meal_id)).toEqual([2, 1]);

    const tooLong = await get(rankings('canteen=default&from=2026-02-07&to=2026-03-10'));
    expect(errorOf(tooLong)).toEqual([400, 'invalid_request']);
    expect(tooLong.json()).toMatchObject({ error: { message: 'a ranking covers at most 31 days' } });
    for (const query of [
      'canteen=default&from=2026-03-10&to=2026-03-09',
      `date=${today}`,
      'canteen=default',
      `canteen=default&date=${today}&from=${today}&to=${today}`,
      `canteen=default&from=${today}`,
      `canteen=default&scope=dishes&date=${today}`,
      `canteen=default&date=${today}&by=stars`,
      `canteen=default&date=${today}&scope=all`,
      `canteen=default&date=2026-02-30`,
      `canteen=default&date=${today}&limit=3`,
      `canteen=default&date=${today}&by=marks&by=rating`,
    ]) {
      const refused = await get(rankings(query));
      expect([query, ...errorOf(refused)]).toEqual([query, 400, 'invalid_request']);
      expect(refused.headers['cache-control']).toBeUndefined();
    }
  });

  it('answers 404 canteen_not_found for an unknown canteen, of meals and of dishes', async () => {
    const { get } = await setup([]);
    expect(errorOf(await get(rankings(`canteen=nowhere&date=${today}`)))).toEqual([404, 'canteen_not_found']);
    expect(errorOf(await get(rankings('canteen=nowhere&scope=dishes')))).toEqual([404, 'canteen_not_found']);
    expect(errorOf(await get(rankings('canteen=Not%20a%20slug&scope=dishes')))).toEqual([404, 'canteen_not_found']);
  });
});

describe('GET /api/v1/rankings?canteen=&scope=dishes: the dishes over all their servings', () => {
  it('ranks a dish by the ratings of all its servings, and by the users who marked any of them', async () => {
    const meals = [
      MealMother.servedDaysAgo(now, 7, { id: 1, name: 'Lentil soup' }),
      servedToday(2, 'lentil soup'),
      servedToday(3, 'Curry'),
      servedToday(4, 'Salad'),
      MealMother.servedTomorrow(now, { id: 5, name: 'Risotto' }),
    ];
    const { get, rateMany, mark, clock } = await setup(meals);
    // Rated a week ago, inside its rating period then.
    clock.set(new Date(now.getTime() - 7 * 24 * 60 * 60 * 1000 + 60_000));
    await rateMany(1, [5, 5, 4]);
    clock.set(now);
    await rateMany(2, [5, 4, 5, 5]);
    await rateMany(3, [5, 5, 5]);
    for (const [user, meal] of [
      ['alice', 1],
      ['alice', 2],
      ['bob', 2],
      ['carol', 3],
    ] as const)
      await mark(user, meal);

    const response = await get(rankings('canteen=default&scope=dishes'));

    expect(response.statusCode, response.body).toBe(200);
    expect(dataOf(response)).toMatchObject({ scope: 'dishes', by: 'rating' });
    const items = itemsOf(response);
    expect(items.map((item) => [item.rank, item.name, item.rating_count])).toEqual([
      [1, 'Lentil soup', 7],
      [2, 'Curry', 3],
      [3, 'Salad', 0],
      [4, 'Risotto', 0],
    ]);
    expect(items[0]).toEqual({
      rank: 1,
      dish_id: expect.any(Number),
      name: 'Lentil soup',
      score: rankingScore([0, 0, 0, 2, 5]),
      rating_count: 7,
      rating_average: 33 / 7,
    });
    // By marks, alice counts once for the soup although she marked both servings.
    const byMarks = itemsOf(await get(rankings('canteen=default&scope=dishes&by=marks')));
    expect(byMarks.map((item) => [item.name, item.marks])).toEqual([
      ['Lentil soup', 2],
      ['Curry', 1],
      ['Salad', 0],
      ['Risotto', 0],
    ]);
  });
});

describe('GET /api/v1/rankings: public and cacheable like the menu', () => {
  it('answers without a token (and the same with one), public cache headers, a strong ETag, and 304 to a matching If-None-Match', async () => {
    const { get, rateMany, bearer } = await setup([servedToday(1, 'Soup'), servedToday(2, 'Curry')]);
    await rateMany(1, [4]);

    const response = await get(todays);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(response.headers['cache-control']).toBe('public, max-age=5, stale-while-revalidate=30');
    expect(response.headers.etag).toMatch(/^"[A-Za-z0-9_-]{27}"$/);
    const tag = String(response.headers.etag);

    for (const ifNoneMatch of [tag, `W/${tag}`, `"other", ${tag}`]) {
      const revalidated = await get(todays, { 'if-none-match': ifNoneMatch });
      expect(revalidated.statusCode, ifNoneMatch).toBe(304);
      expect(revalidated.body).toBe('');
      expect(revalidated.headers.etag).toBe(tag);
      expect(revalidated.headers['cache-control']).toBe('public, max-age=5, stale-while-revalidate=30');
    }
    expect((await get(todays, { 'if-none-match': '"an-older-tag"' })).statusCode).toBe(200);
    // The answer is everybody's: a token changes nothing, not even the tag.
    const withToken = await get(todays, { authorization: bearer('alice') });
    expect(withToken.body).toBe(response.body);
    expect(withToken.headers.etag).toBe(tag);
    // Another ranking, another tag.
    expect((await get(`${todays}&by=marks`)).headers.etag).not.toBe(tag);
  });

  it('takes max-age and stale-while-revalidate from the menu caching options', async () => {
    const menuCaching = { entries: 10, ratingsMaxAgeMs: 1000, ttlMs: 4000, maxAgeS: 60, staleWhileRevalidateS: 600 };
    const { get } = await setup([servedToday(1, 'Soup')], { menuCaching });
    expect((await get(todays)).headers['cache-control']).toBe('public, max-age=60, stale-while-revalidate=600');
    expect((await get(rankings('canteen=default&scope=dishes'))).headers['cache-control']).toBe(
      'public, max-age=60, stale-while-revalidate=600',
    );
  });

  it('changes its tag, and its answer, after a rating; the old tag then answers 200', async () => {
    const { get, app, bearer } = await setup([servedToday(1, 'Soup'), servedToday(2, 'Curry')]);
    const before = await get(todays);
    const dishesBefore = await get(rankings('canteen=default&scope=dishes'));

    const rated = await app.inject({
      method: 'POST',
      url: '/api/v1/rate-meal',
      headers: { authorization: bearer('alice'), 'content-type': 'application/json' },
      payload: JSON.stringify({ meal_id: 2, rating: 5 }),
    });
    expect(rated.statusCode, rated.body).toBe(200);

    const after = await get(todays, { 'if-none-match': String(before.headers.etag) });
    expect(after.statusCode).toBe(200);
    expect(after.headers.etag).not.toBe(before.headers.etag);
    expect(itemsOf(after).map((item) => [item.meal_id, item.rating_count])).toEqual([
      [2, 1],
      [1, 0],
    ]);
    const dishesAfter = await get(rankings('canteen=default&scope=dishes'), {
      'if-none-match': String(dishesBefore.headers.etag),
    });
    expect(dishesAfter.statusCode).toBe(200);
    expect(dishesAfter.headers.etag).not.toBe(dishesBefore.headers.etag);
  });
});

describe('ranking settings', () => {
  it('scores with the prior and z the app is given', async () => {
    const meals = [servedToday(1, 'Soup')];
    const settings: RankingSettings = { prior: [2, 2, 2, 2, 2], z: 0 };
    const { get, rateMany } = await setup(meals, { rankingSettings: settings });
    await rateMany(1, [5]);
    // z = 0: the posterior mean, (2 + 4 + 6 + 8 + 15) / 11.
    expect(itemsOf(await get(todays))[0]!.score).toBeCloseTo(35 / 11, 12);
  });

  it('refuses invalid settings when the app is built', async () => {
    const adapters = createInMemoryAdapters(new InMemoryDatabase({ defaultTimeZone: timeZone }));
    const useCases = createUseCases(adapters, new FixedClock(now), { start: '11:00', timeZone });
    const build = (rankingSettings: RankingSettings) =>
      buildHttpApp({
        useCases: httpUseCasesOf(useCases),
        verifyToken: createHmacTokenVerifier({ secret }),
        rankingSettings,
      }).then((app) => app.close());
    await expect(build({ prior: [1, 1, 0, 1, 1], z: 1.65 })).rejects.toThrow(/rankingSettings: every pseudo-count/);
    await expect(build({ prior: [1, 1, 1, 1, 1], z: -1 })).rejects.toThrow(/rankingSettings: z must/);
  });
});
