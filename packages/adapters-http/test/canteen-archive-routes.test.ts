import { MealMother } from '@canteen-meals/repository-contract';
import { describe, expect, it } from 'vitest';
import { adminScope } from '../src/index.js';
import { now, useSharedTestApp } from './app-fixture.js';

const fixture = useSharedTestApp();

const academica = {
  name: 'Mensa Academica',
  timezone: 'Europe/Berlin',
  city: 'Aachen',
  address: null,
  coordinates: null,
};
const feeds = [{ name: 'full', url: 'https://mensa.example/full.xml?key=secret', schedule: '0 6 * * *' }];
const today = '2026-03-10';

function send(
  method: 'GET' | 'POST' | 'PUT' | 'DELETE',
  url: string,
  { scope = adminScope, body }: { scope?: string | null | undefined; body?: unknown } = {},
) {
  return fixture.app.inject({
    method,
    url,
    headers: {
      authorization: `Bearer ${fixture.token(scope === null ? {} : { scope })}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { payload: JSON.stringify(body) }),
  });
}

const archive = (id: string, scope?: string | null) => send('DELETE', `/api/v1/admin/canteens/${id}`, { scope });
const put = (id: string, body: unknown) => send('PUT', `/api/v1/admin/canteens/${id}`, { body });
const read = (url: string) => send('GET', url, { scope: null });
const errorOf = (response: { statusCode: number; json(): any }) => [response.statusCode, response.json().error?.code];
const idsOf = (response: { json(): any }, key = 'canteens', id = 'canteen_id') =>
  response.json().data[key].map((item: Record<string, unknown>) => item[id]);

/** Academica with today's soup (meal 20), rated 4 by alice. */
async function academicaWithSoup() {
  expect((await put('mensa-academica', { ...academica, feeds })).statusCode).toBe(201);
  const soup = {
    ...MealMother.wire(MealMother.servedToday(now, { id: 20, name: 'Soup' })),
    canteen_id: 'mensa-academica',
  };
  expect((await send('PUT', '/api/v1/admin/meals', { body: { meals: [soup] } })).statusCode).toBe(200);
  const rated = await send('POST', '/api/v1/rate-meal', { scope: null, body: { meal_id: 20, rating: 4 } });
  expect(rated.statusCode, rated.body).toBe(200);
}

describe('DELETE /api/v1/admin/canteens/{canteen_id}', () => {
  it('archives a canteen: 200 with canteen_id and archived_at, and again later with the first archived_at', async () => {
    await academicaWithSoup();
    const archived = await archive('mensa-academica');
    expect(archived.statusCode).toBe(200);
    expect(archived.json()).toEqual({
      status: 'success',
      data: { canteen_id: 'mensa-academica', archived_at: now.toISOString() },
    });
    fixture.clock.set(new Date(now.getTime() + 60_000));
    expect((await archive('mensa-academica')).json()).toEqual(archived.json());
  });

  it('leaves it out of the lists, and its reads answer 404 canteen_not_found', async () => {
    await academicaWithSoup();
    await archive('mensa-academica');
    expect(idsOf(await read('/api/v1/canteens'))).toEqual(['default']);
    for (const url of [
      '/api/v1/canteens/mensa-academica',
      `/api/v1/meals?canteen=mensa-academica&date=${today}`,
      `/api/v1/meals?canteen=mensa-academica&from=${today}&to=${today}`,
      '/api/v1/canteens/mensa-academica/dishes?q=soup',
      `/api/v1/rankings?canteen=mensa-academica&date=${today}`,
      '/api/v1/rankings?canteen=mensa-academica&scope=dishes',
      // The live stream's 404: packages/adapters-http-live/test/live-routes.test.ts ("ends the streams of a canteen").
    ]) {
      expect([url, ...errorOf(await read(url))]).toEqual([url, 404, 'canteen_not_found']);
    }
    expect(errorOf(await send('GET', '/api/v1/admin/canteens/mensa-academica/feeds'))).toEqual([
      404,
      'canteen_not_found',
    ]);
    // Every canteen's day is that of the active canteens.
    expect(idsOf(await read(`/api/v1/meals?date=${today}`), 'meals', 'meal_id')).toEqual([1, 2]);
  });

  it('keeps its meals and ratings: a meal read by id still has them, and a PUT restores the canteen (200)', async () => {
    await academicaWithSoup();
    await archive('mensa-academica');
    const soup = (await read('/api/v1/meals/20')).json().data;
    expect([soup.canteen_id, soup.rating_count, soup.rating_personal]).toEqual(['mensa-academica', 1, 4]);

    const restored = await put('mensa-academica', { ...academica, feeds });
    expect(restored.statusCode).toBe(200);
    expect(idsOf(await read('/api/v1/canteens'))).toEqual(['default', 'mensa-academica']);
    const menu = await read(`/api/v1/meals?canteen=mensa-academica&date=${today}`);
    expect(
      menu
        .json()
        .data.meals.map((meal: { meal_id: number; rating_count: number }) => [meal.meal_id, meal.rating_count]),
    ).toEqual([[20, 1]]);
  });

  it('archives the default canteen like any other', async () => {
    const archived = await archive('default');
    expect(archived.json().data).toEqual({ canteen_id: 'default', archived_at: now.toISOString() });
    expect(idsOf(await read('/api/v1/canteens'))).toEqual([]);
    expect(idsOf(await read(`/api/v1/meals?date=${today}`), 'meals', 'meal_id')).toEqual([]);
    // A meal without canteen_id goes to the default canteen, which takes none while it is archived.
    const upsert = await send('PUT', '/api/v1/admin/meals', {
      body: MealMother.upsertBody(MealMother.servedTomorrow(now, { id: 30 })),
    });
    expect(errorOf(upsert)).toEqual([404, 'canteen_not_found']);
  });

  it('answers 404 canteen_not_found for an unknown id and for one no canteen can have', async () => {
    expect(errorOf(await archive('nowhere'))).toEqual([404, 'canteen_not_found']);
    expect(errorOf(await archive('NOT%20A%20SLUG'))).toEqual([404, 'canteen_not_found']);
  });

  it('needs a token with the meals:write scope', async () => {
    expect(errorOf(await archive('default', null))).toEqual([403, 'forbidden']);
    expect(errorOf(await archive('default', 'meals:read-reports'))).toEqual([403, 'forbidden']);
    expect(errorOf(await fixture.app.inject({ method: 'DELETE', url: '/api/v1/admin/canteens/default' }))).toEqual([
      401,
      'unauthenticated',
    ]);
    expect(idsOf(await read('/api/v1/canteens'))).toEqual(['default']);
  });
});

describe('GET /api/v1/admin/canteens', () => {
  it('lists every canteen with its feeds, archived ones with archived_at and the others with null, by id', async () => {
    await academicaWithSoup();
    await put('bistro', { name: 'Bistro', timezone: 'UTC' });
    await archive('mensa-academica');
    const listed = await send('GET', '/api/v1/admin/canteens');
    expect(listed.statusCode).toBe(200);
    expect(listed.json().data.canteens).toEqual([
      {
        canteen_id: 'bistro',
        name: 'Bistro',
        timezone: 'UTC',
        city: null,
        address: null,
        coordinates: null,
        openmensa_id: expect.any(Number),
        feeds: [],
        note_labels: {},
        placeholder_names: [],
        archived_at: null,
      },
      {
        canteen_id: 'default',
        name: 'Default canteen',
        timezone: 'Europe/Berlin',
        city: null,
        address: null,
        coordinates: null,
        openmensa_id: 1,
        feeds: [],
        note_labels: {},
        placeholder_names: [],
        archived_at: null,
      },
      {
        canteen_id: 'mensa-academica',
        ...academica,
        openmensa_id: expect.any(Number),
        feeds,
        note_labels: {},
        placeholder_names: [],
        archived_at: now.toISOString(),
      },
    ]);
    await put('mensa-academica', academica);
    expect((await send('GET', '/api/v1/admin/canteens')).json().data.canteens[2].archived_at).toBeNull();
  });

  it('needs a token with the meals:write scope', async () => {
    expect(errorOf(await send('GET', '/api/v1/admin/canteens', { scope: null }))).toEqual([403, 'forbidden']);
    expect(errorOf(await fixture.app.inject({ method: 'GET', url: '/api/v1/admin/canteens' }))).toEqual([
      401,
      'unauthenticated',
    ]);
  });
});
