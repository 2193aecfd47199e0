import { createInMemoryAdapters, FixedClock, InMemoryDatabase } from '@canteen-meals/adapters-memory';
import { createUseCases } from '@canteen-meals/domain';
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

// Today's menu of `default` (Europe/Berlin): bread (wheat), a vegan curry with mustard, cheese (milk, vegetarian),
// a sesame roll, and the feed's "Kein Angebot" entry (a placeholder).
const today = '2026-03-10';
const hour = 3_600_000;
const served = new Date(now.getTime() - hour);
const menu = [
  MealMother.servedAt(served, { id: 1, name: 'Bread', labels: ['gluten', 'wheat'] }),
  MealMother.servedAt(served, { id: 2, name: 'Curry', labels: ['mustard', 'vegan', 'vegetarian'] }),
  MealMother.servedAt(served, { id: 3, name: 'Cheese', labels: ['milk', 'vegetarian'] }),
  MealMother.servedAt(served, { id: 4, name: 'Roll', labels: ['gluten', 'sesame', 'spelt'] }),
  MealMother.servedAt(served, { id: 5, name: 'Kein Angebot', rateable: false, labels: ['placeholder'] }),
];
const keepEverything: MenuCachingOptions = {
  entries: 100,
  ratingsMaxAgeMs: 0,
  ttlMs: 60_000,
  maxAgeS: 5,
  staleWhileRevalidateS: 30,
};

const opened: Array<{ close(): Promise<unknown> }> = [];
afterEach(async () => {
  for (const app of opened.splice(0)) await app.close();
});

async function setup() {
  const adapters = createInMemoryAdapters(new InMemoryDatabase({ defaultTimeZone: timeZone }));
  await adapters.meals.upsertMany(menu);
  const clock = new FixedClock(now);
  const useCases = createUseCases(adapters, clock, { start: '11:00', timeZone });
  const app = await buildHttpApp({
    useCases: httpUseCasesOf(useCases),
    clock,
    verifyToken: createHmacTokenVerifier({ secret }),
    menuCaching: keepEverything,
  });
  opened.push(app);
  const bearer = (sub: string) => `Bearer ${signHmacToken(secret, { sub })}`;
  const get = (url: string, sub?: string) =>
    app.inject({ method: 'GET', url, headers: sub === undefined ? {} : { authorization: bearer(sub) } });
  return { app, adapters, useCases, get, bearer };
}

const idsOf = (response: LightMyRequestResponse) => {
  expect(response.statusCode, response.body).toBe(200);
  const data = response.json().data as {
    meals?: { meal_id: number }[];
    servings?: { meal_id: number }[];
    items?: { meal_id: number }[];
  };
  return (data.meals ?? data.servings ?? data.items ?? []).map((meal) => meal.meal_id);
};
const menuUrl = (query = '') => `/api/v1/meals?canteen=default&date=${today}${query}`;

describe('label filters on the public menu', () => {
  it('leaves out placeholders by default and answers them with placeholders=true', async () => {
    const { get } = await setup();
    expect(idsOf(await get(menuUrl()))).toEqual([1, 2, 3, 4]);
    expect(idsOf(await get(menuUrl('&placeholders=true')))).toEqual([1, 2, 3, 4, 5]);
  });

  it('without= leaves out meals carrying any code, a parent covering its sub-kinds; only= keeps those carrying all', async () => {
    const { get } = await setup();
    expect(idsOf(await get(menuUrl('&without=gluten')))).toEqual([2, 3]);
    expect(idsOf(await get(menuUrl('&without=mustard,sesame')))).toEqual([1, 3]);
    expect(idsOf(await get(menuUrl('&only=vegetarian')))).toEqual([2, 3]);
    expect(idsOf(await get(menuUrl('&only=vegan')))).toEqual([2]);
    expect(idsOf(await get(menuUrl('&only=vegetarian&without=milk')))).toEqual([2]);
    // Labels travel with every meal, parents included.
    const [curry] = (await get(menuUrl('&only=vegan'))).json().data.meals;
    expect(curry.labels).toEqual(['mustard', 'vegan', 'vegetarian']);
  });

  it('refuses unknown codes with 400, naming each', async () => {
    const { get } = await setup();
    const refused = await get(menuUrl('&without=gluten,nutz&only=vegn'));
    expect(refused.statusCode).toBe(400);
    expect(refused.json().error).toEqual({ code: 'invalid_request', message: expect.stringMatching(/"nutz".*"vegn"/) });
  });

  it('keeps a filtered answer cacheable by its URL, with its own strong tag', async () => {
    const { get } = await setup();
    const bare = await get(menuUrl());
    const filtered = await get(menuUrl('&without=gluten'));
    expect(filtered.headers['cache-control']).toBe(bare.headers['cache-control']);
    expect(filtered.headers['cache-control']).toMatch(/^public/);
    expect(filtered.headers.etag).not.toBe(bare.headers.etag);
    // Kept apart: the unfiltered answer read again is still the whole menu.
    expect(idsOf(await get(menuUrl()))).toEqual([1, 2, 3, 4]);
    expect((await get(menuUrl('&without=gluten'))).headers.etag).toBe(filtered.headers.etag);
  });
});

describe('label filters on the other menu reads', () => {
  it("filters the personalized menu, every canteen's day, and the meals asked for by id", async () => {
    const { get } = await setup();
    expect(idsOf(await get(menuUrl('&without=gluten'), 'alice'))).toEqual([2, 3]);
    expect(idsOf(await get(`/api/v1/meals?date=${today}&only=vegan`, 'alice'))).toEqual([2]);
    expect(idsOf(await get(`/api/v1/meals?date=${today}`, 'alice'))).toEqual([1, 2, 3, 4]);
    expect(idsOf(await get('/api/v1/meals?ids=1,2,5&without=wheat', 'alice'))).toEqual([2, 5]);
  });

  it("filters a dish's servings, and refuses an unknown code there too", async () => {
    const { get, adapters } = await setup();
    await adapters.meals.upsertMany([
      MealMother.servedAt(new Date(served.getTime() - 86_400_000), {
        id: 6,
        name: 'Bread',
        labels: ['gluten', 'spelt'],
      }),
    ]);
    const dish = (await get('/api/v1/meals/1', 'alice')).json().data.dish_id as number;
    const servings = async (query: string) =>
      ((await get(`/api/v1/dishes/${dish}${query}`)).json().data.servings as { meal_id: number }[]).map(
        (meal) => meal.meal_id,
      );
    expect(await servings('')).toEqual([1, 6]);
    expect(await servings('?without=wheat')).toEqual([6]);
    expect(await servings('?only=spelt')).toEqual([6]);
    expect((await get(`/api/v1/dishes/${dish}?without=wheet`)).statusCode).toBe(400);
  });

  it('filters the upcoming favourites and the rankings, ranks counting only the meals kept', async () => {
    const { get, useCases } = await setup();
    await useCases.markMeal.execute({ userId: 'alice', mealId: 1, marked: true });
    await useCases.markMeal.execute({ userId: 'alice', mealId: 2, marked: true });
    expect(idsOf(await get('/api/v1/me/upcoming?days=1', 'alice'))).toEqual([1, 2]);
    expect(idsOf(await get('/api/v1/me/upcoming?days=1&without=gluten', 'alice'))).toEqual([2]);
    const ranking = await get(`/api/v1/rankings?canteen=default&date=${today}&only=vegetarian`);
    expect(idsOf(ranking)).toEqual([2, 3]);
    expect(ranking.json().data.items.map((item: { rank: number }) => item.rank)).toEqual([1, 2]);
    expect((await get(`/api/v1/rankings?canteen=default&date=${today}&only=vegetable`)).statusCode).toBe(400);
  });
});
