import { createInMemoryAdapters, FixedClock, InMemoryDatabase } from '@canteen-meals/adapters-memory';
import { createUseCases } from '@canteen-meals/domain';
import { MealMother } from '@canteen-meals/repository-contract';
import type { LightMyRequestResponse } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { buildHttpApp, createHmacTokenVerifier, signHmacToken, httpUseCasesOf } from '../src/index.js';
import { now, secret, timeZone } from './app-fixture.js';

const today = '2026-03-10';
const served = new Date(now.getTime() - 3_600_000);
// Bread (wheat), a vegan curry with mustard, cheese (milk, vegetarian); tomorrow the curry again.
const menu = [
  MealMother.servedAt(served, { id: 1, name: 'Bread', labels: ['gluten', 'wheat'] }),
  MealMother.servedAt(served, { id: 2, name: 'Curry', labels: ['mustard', 'vegan', 'vegetarian'] }),
  MealMother.servedAt(served, { id: 3, name: 'Cheese', labels: ['milk', 'vegetarian'] }),
  MealMother.servedAt(new Date(served.getTime() + 86_400_000), {
    id: 4,
    name: 'Curry',
    labels: ['mustard', 'vegan', 'vegetarian'],
  }),
];

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
  });
  opened.push(app);
  const send = (method: 'GET' | 'PUT' | 'DELETE', url: string, sub = 'alice', body?: unknown) =>
    app.inject({
      method,
      url: `/api/v1${url}`,
      headers: {
        authorization: `Bearer ${signHmacToken(secret, { sub })}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(body === undefined ? {} : { payload: JSON.stringify(body) }),
    });
  const dishOf = async (mealId: number) =>
    (await useCases.getMeal.execute({ userId: 'alice', mealId })).ok
      ? ((await send('GET', `/meals/${mealId}`)).json().data.dish_id as number)
      : 0;
  return { app, adapters, useCases, send, dishOf };
}

const dataOf = (response: LightMyRequestResponse) => {
  expect(response.statusCode, response.body).toBe(200);
  return response.json().data;
};
const idsOf = (response: LightMyRequestResponse) => {
  const data = dataOf(response);
  return ((data.meals ?? data.servings) as { meal_id: number }[]).map((meal) => meal.meal_id);
};

describe('PUT and GET /api/v1/me/preferences', () => {
  it('stores the filter, answers it sorted, refuses unknown codes naming them, and needs a token', async () => {
    const { send, app } = await setup();
    expect(dataOf(await send('GET', '/me/preferences'))).toEqual({ without: [], only: [] });
    expect(dataOf(await send('PUT', '/me/preferences', 'alice', { without: ['sesame', 'mustard'], only: [] }))).toEqual(
      { without: ['mustard', 'sesame'], only: [] },
    );
    expect(dataOf(await send('GET', '/me/preferences'))).toEqual({ without: ['mustard', 'sesame'], only: [] });
    const refused = await send('PUT', '/me/preferences', 'alice', { without: ['mustrd'], only: [] });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().error).toMatchObject({
      code: 'invalid_request',
      message: expect.stringContaining('"mustrd"'),
    });
    expect((await app.inject({ method: 'GET', url: '/api/v1/me/preferences' })).statusCode).toBe(401);
  });

  it("applies to the personalized menu, every canteen's day, /me/meals and /me/upcoming unless ?all=true; never to the public menu", async () => {
    const { send, useCases } = await setup();
    await send('PUT', '/me/preferences', 'alice', { without: ['mustard'], only: ['vegetarian'] });
    const menuUrl = `/meals?canteen=default&date=${today}`;
    expect(idsOf(await send('GET', menuUrl))).toEqual([3]);
    expect(idsOf(await send('GET', `${menuUrl}&all=true`))).toEqual([1, 2, 3]);
    expect(idsOf(await send('GET', `/meals?date=${today}`))).toEqual([3]);
    expect(idsOf(await send('GET', menuUrl, 'bob'))).toEqual([1, 2, 3]);
    await useCases.markMeal.execute({ userId: 'alice', mealId: 2, marked: true });
    await useCases.markMeal.execute({ userId: 'alice', mealId: 3, marked: true });
    expect(
      dataOf(await send('GET', `/me/meals?canteen=default&date=${today}`)).meals.map(
        (meal: { meal_id: number }) => meal.meal_id,
      ),
    ).toEqual([3]);
    expect(idsOf(await send('GET', '/me/upcoming?days=2'))).toEqual([3]);
    expect(idsOf(await send('GET', '/me/upcoming?days=2&all=true'))).toEqual([2, 3, 4]);
  });
});

describe('/api/v1/me/aversions', () => {
  it('marks the servings of an avoided dish avoided: true, hide=avoided leaves them out, DELETE forgets it', async () => {
    const { send, dishOf } = await setup();
    const curry = await dishOf(2);
    expect(dataOf(await send('PUT', `/me/aversions/${curry}`))).toEqual({ dish_id: curry, avoided: true });
    expect(dataOf(await send('GET', '/me/aversions')).aversions).toEqual([
      { dish_id: curry, since: now.toISOString() },
    ]);

    const menu = dataOf(await send('GET', `/meals?canteen=default&date=${today}`)).meals as {
      meal_id: number;
      avoided?: boolean;
    }[];
    expect(menu.map((meal) => [meal.meal_id, meal.avoided ?? false])).toEqual([
      [1, false],
      [2, true],
      [3, false],
    ]);
    expect(idsOf(await send('GET', `/meals?canteen=default&date=${today}&hide=avoided`))).toEqual([1, 3]);
    expect(idsOf(await send('GET', `/meals?date=${today}&hide=avoided`))).toEqual([1, 3]);

    expect(dataOf(await send('DELETE', `/me/aversions/${curry}`))).toEqual({ dish_id: curry, avoided: false });
    expect(idsOf(await send('GET', `/meals?canteen=default&date=${today}&hide=avoided`))).toEqual([1, 2, 3]);
    expect((await send('PUT', '/me/aversions/999')).statusCode).toBe(404);
  });

  it('refuses a 501st aversion with 409 too_many_aversions naming the limit; avoiding one again stays idempotent (issue 39)', async () => {
    const { adapters, send, dishOf } = await setup();
    const extra = Array.from({ length: 501 }, (_, index) =>
      MealMother.servedAt(new Date(served.getTime() - (index + 1) * 86_400_000), {
        id: 100 + index,
        name: `Dish ${index}`,
      }),
    );
    await adapters.meals.upsertMany(extra);
    const dishes = await Promise.all(extra.map((meal) => dishOf(meal.id)));
    for (const dish of dishes.slice(0, 500)) expect((await send('PUT', `/me/aversions/${dish}`)).statusCode).toBe(200);
    const refused = await send('PUT', `/me/aversions/${dishes[500]}`);
    expect([refused.statusCode, refused.json().error]).toEqual([
      409,
      {
        code: 'too_many_aversions',
        message: 'You avoid 500 dishes, the most a person may (500): stop avoiding one first.',
      },
    ]);
    expect((await send('PUT', `/me/aversions/${dishes[0]}`)).statusCode).toBe(200);
    expect((await send('DELETE', `/me/aversions/${dishes[0]}`)).statusCode).toBe(200);
    expect((await send('PUT', `/me/aversions/${dishes[500]}`)).statusCode).toBe(200);
    // Without a limit the list comes whole (the page of the contract before it was paged), its cursor null.
    const whole = dataOf(await send('GET', '/me/aversions'));
    expect([whole.aversions.length, whole.next_cursor]).toEqual([500, null]);
  });

  it('pages the list by dish id with limit and cursor; a cursor of another caller or made up is 400 invalid_cursor', async () => {
    const { adapters, send, dishOf } = await setup();
    const extra = Array.from({ length: 5 }, (_, index) =>
      MealMother.servedAt(served, { id: 100 + index, name: `Dish ${index}` }),
    );
    await adapters.meals.upsertMany(extra);
    const dishes = (await Promise.all(extra.map((meal) => dishOf(meal.id)))).sort((a, b) => a - b);
    for (const dish of dishes) await send('PUT', `/me/aversions/${dish}`);
    const seen: number[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const query: string = cursor === null ? '?limit=2' : `?limit=2&cursor=${cursor}`;
      const page = dataOf(await send('GET', `/me/aversions${query}`));
      seen.push(...(page.aversions as { dish_id: number }[]).map((aversion) => aversion.dish_id));
      cursor = page.next_cursor as string | null;
      pages += 1;
    } while (cursor !== null);
    expect([seen, pages]).toEqual([dishes, 3]);

    const first = dataOf(await send('GET', '/me/aversions?limit=2')).next_cursor as string;
    for (const [url, sub] of [
      [`/me/aversions?cursor=${first}`, 'bob'],
      ['/me/aversions?cursor=YWJj', 'alice'],
    ] as const) {
      const refused = await send('GET', url, sub);
      expect([refused.statusCode, refused.json().error.code]).toEqual([400, 'invalid_cursor']);
    }
    for (const limit of ['0', '501', 'x'])
      expect((await send('GET', `/me/aversions?limit=${limit}`)).statusCode).toBe(400);
  });

  it('the export holds preferences and aversions, and the erasure removes both', async () => {
    const { send, dishOf } = await setup();
    const bread = await dishOf(1);
    await send('PUT', '/me/preferences', 'alice', { without: ['milk'], only: [] });
    await send('PUT', `/me/aversions/${bread}`);
    expect(dataOf(await send('GET', '/me/data'))).toMatchObject({
      preferences: { without: ['milk'], only: [] },
      aversions: [{ dish_id: bread, since: now.toISOString() }],
    });
    expect(dataOf(await send('DELETE', '/me/data'))).toMatchObject({ preferences_erased: 1, aversions_erased: 1 });
    expect(dataOf(await send('GET', '/me/data'))).toMatchObject({
      preferences: { without: [], only: [] },
      aversions: [],
    });
    expect(dataOf(await send('GET', '/me/preferences'))).toEqual({ without: [], only: [] });
  });
});
