import { describe, expect, it } from 'vitest';
import { MealMother } from '@canteen-meals/repository-contract';
import { httpStatusOf, type ErrorCode } from '../src/index.js';
import { now, useSharedTestApp } from './app-fixture.js';

const fixture = useSharedTestApp();

const day = 24 * 60 * 60 * 1000;

function get(url: string, token: string | null = fixture.token()) {
  return fixture.app.inject({
    method: 'GET',
    url,
    headers: token === null ? {} : { authorization: `Bearer ${token}` },
  });
}

async function rate(mealId: number, rating: number | null, sub = 'alice') {
  const response = await fixture.app.inject({
    method: 'POST',
    url: '/api/v1/rate-meal',
    headers: { authorization: `Bearer ${fixture.token({ sub })}`, 'content-type': 'application/json' },
    payload: { meal_id: mealId, rating },
  });
  expect(response.statusCode).toBe(200);
}

async function mark(mealId: number, sub = 'alice') {
  await fixture.adapters.markings.setMarked(sub, mealId, true);
}

/** Rates a meal whose period is not open now, by moving the clock into that period and back. */
async function rateAt(instant: Date, mealId: number, rating: number, sub = 'alice') {
  fixture.clock.set(instant);
  await rate(mealId, rating, sub);
  fixture.clock.set(now);
}

function expectError(response: Awaited<ReturnType<typeof get>>, code: ErrorCode) {
  expect(response.statusCode).toBe(httpStatusOf[code]);
  expect(response.json()).toEqual({ status: 'error', error: { code, message: expect.any(String) } });
}

const idsOf = (response: Awaited<ReturnType<typeof get>>) =>
  (response.json().data.meals as { meal_id: number }[]).map((meal) => meal.meal_id);

describe('GET /api/v1/meals/{meal_id}', () => {
  // A meal's public fields need no token; a token that is sent must still be valid.
  it('answers the public fields without a token, and refuses an invalid token', async () => {
    await rate(1, 4);
    await mark(1);
    const anonymous = await get('/api/v1/meals/1', null);
    expect(anonymous.statusCode).toBe(200);
    const data = anonymous.json().data;
    expect(data).toMatchObject({
      meal_id: 1,
      name: 'Open meal',
      rating_count: 1,
      rating_average: 4,
      rating_open: true,
    });
    expect(data).not.toHaveProperty('marked');
    expect(data).not.toHaveProperty('rating_personal');
    expect(Object.keys(data).sort()).toEqual(
      Object.keys((await get('/api/v1/meals/1')).json().data)
        .filter((key) => key !== 'marked' && key !== 'rating_personal')
        .sort(),
    );
    expectError(await get('/api/v1/meals/999', null), 'meal_not_found');
    expectError(await get('/api/v1/meals/1', 'not-a-token'), 'invalid_token');
    // The token is checked before the query, as on every route: a bad token with a bad query answers 401.
    expectError(await get('/api/v1/meals/1?colour=red', 'not-a-token'), 'invalid_token');
    expectError(await get('/api/v1/meals/1?colour=red', null), 'invalid_request');
  });

  it("answers the meal, its statistics and distribution, and the caller's own state, with exactly these fields", async () => {
    await rate(1, 2, 'bob');
    await rate(1, 5, 'carol');
    await rate(1, 4);
    await mark(1);

    const response = await get('/api/v1/meals/1');

    expect(response.statusCode).toBe(200);
    expect(response.headers['cache-control']).toBe('private, no-store');
    expect(response.json()).toEqual({
      status: 'success',
      data: {
        meal_id: 1,
        name: 'Open meal',
        category: null,
        notes: [],
        labels: [],
        prices: {},
        served_at: '2026-03-10T11:00:00.000Z',
        rateable: true,
        canteen_id: 'default',
        rating_open: true,
        rating_count: 3,
        rating_average: 11 / 3,
        rating_median: 4,
        rating_distribution: { '1': 0, '2': 1, '3': 0, '4': 1, '5': 1 },
        marked: true,
        rating_personal: 4,
        dish_id: expect.any(Number),
        dish: {
          dish_id: expect.any(Number),
          name: 'Open meal',
          rating_count: 3,
          rating_average: 11 / 3,
          rating_median: 4,
          times_served: 1,
          last_served_at: '2026-03-10T11:00:00.000Z',
          next_served_at: null,
        },
        availability: 'available',
        availability_changed_at: null,
      },
    });
  });

  it("answers the menu's details: category, notes in order, and the prices that are given", async () => {
    await fixture.adapters.meals.upsertMany([
      {
        id: 20,
        name: 'Linseneintopf',
        servedAt: new Date('2026-03-10T10:30:00Z'),
        rateable: true,
        category: 'Hauptgericht',
        notes: ['vegan', 'enthält Sellerie'],
        prices: { student: '2.60', other: '5.125' },
      },
    ]);
    const data = (await get('/api/v1/meals/20')).json().data;
    expect(data).toMatchObject({
      category: 'Hauptgericht',
      notes: ['vegan', 'enthält Sellerie'],
      prices: { student: '2.60', other: '5.125' },
    });
    expect(Object.keys(data.prices)).toEqual(['student', 'other']);
    expect((await get('/api/v1/meals?ids=20')).json().data.meals[0]).toEqual(data);
  });

  it('answers each caller their own marking and rating', async () => {
    await rate(1, 2, 'bob');
    await mark(1);
    const bob = (await get('/api/v1/meals/1', fixture.token({ sub: 'bob' }))).json().data;
    expect(bob).toMatchObject({ marked: false, rating_personal: 2, rating_count: 1 });
    const dave = (await get('/api/v1/meals/1', fixture.token({ sub: 'dave' }))).json().data;
    expect(dave).toMatchObject({ marked: false, rating_personal: null, rating_count: 1 });
  });

  it('answers null statistics and an all-zero distribution for a meal without ratings', async () => {
    expect((await get('/api/v1/meals/2')).json().data).toMatchObject({
      rating_count: 0,
      rating_average: null,
      rating_median: null,
      rating_distribution: { '1': 0, '2': 0, '3': 0, '4': 0, '5': 0 },
      rating_personal: null,
      marked: false,
    });
  });

  it('answers rating_open false for a meal that is not rateable, not yet served, or past its week', async () => {
    for (const id of [2, 3, 4]) {
      expect((await get(`/api/v1/meals/${id}`)).json().data.rating_open).toBe(false);
    }
  });

  it('answers rating_open exactly as the rate-meal rules decide it, on the one-week boundary', async () => {
    const servedAt = Date.parse('2026-03-10T11:00:00.000Z');
    fixture.clock.set(servedAt + 7 * day);
    expect((await get('/api/v1/meals/1')).json().data.rating_open).toBe(true);
    fixture.clock.set(servedAt + 7 * day + 1);
    expect((await get('/api/v1/meals/1')).json().data.rating_open).toBe(false);
    fixture.clock.set(servedAt - 1);
    expect((await get('/api/v1/meals/1')).json().data.rating_open).toBe(false);
  });

  it('answers meal_not_found for an id that names no meal', async () => {
    expectError(await get('/api/v1/meals/99'), 'meal_not_found');
  });

  it.each([
    'abc',
    '1.5',
    '0',
    '-1',
    '01',
    '1e3',
    '+1',
    '%201',
    '9007199254740992',
    '12345678901234567',
  ])('answers invalid_request for the id %j, which is not a meal id', async (id) =>
    expectError(await get(`/api/v1/meals/${id}`), 'invalid_request'));

  it('takes the largest safe integer as an id', async () => {
    expectError(await get('/api/v1/meals/9007199254740991'), 'meal_not_found');
  });

  it('answers invalid_token for a bad token, with WWW-Authenticate (without one it answers the public fields)', async () => {
    const forged = await get('/api/v1/meals/1', `${fixture.token()}x`);
    expectError(forged, 'invalid_token');
    expect(forged.headers['www-authenticate']).toMatch(/^Bearer/);
  });

  it('answers not_found in the envelope for a method the route does not have', async () => {
    const response = await fixture.app.inject({
      method: 'DELETE',
      url: '/api/v1/meals/1',
      headers: { authorization: `Bearer ${fixture.token()}` },
    });
    expect([404, 405]).toContain(response.statusCode);
    expect(response.json().status).toBe('error');
  });
});

describe('GET /api/v1/meals?ids=', () => {
  it('answers the meals in the order of the ids, each once, and lists the unknown ids', async () => {
    await rate(1, 3);
    const response = await get('/api/v1/meals?ids=3,1,99,1,3,98,99');
    expect(response.statusCode).toBe(200);
    expect(response.headers['cache-control']).toBe('private, no-store');
    const data = response.json().data;
    expect(idsOf(response)).toEqual([3, 1]);
    expect(data.unknown_ids).toEqual([99, 98]);
    expect(data.meals[1]).toEqual((await get('/api/v1/meals/1')).json().data);
  });

  it('answers a single id like the single-meal route, in a list', async () => {
    expect((await get('/api/v1/meals?ids=4')).json().data).toEqual({
      meals: [(await get('/api/v1/meals/4')).json().data],
      unknown_ids: [],
    });
  });

  it('accepts 100 ids, repeats included, and refuses 101', async () => {
    const hundred = Array.from({ length: 100 }, (_, index) => (index % 50) + 1);
    const response = await get(`/api/v1/meals?ids=${hundred.join(',')}`);
    expect(response.statusCode).toBe(200);
    expect(idsOf(response)).toEqual([1, 2, 3, 4]);
    expect(response.json().data.unknown_ids).toHaveLength(46);
    expectError(await get(`/api/v1/meals?ids=${[...hundred, 1].join(',')}`), 'invalid_request');
  });

  it.each([
    ['an empty list', 'ids='],
    ['an empty item', 'ids=1,,2'],
    ['a trailing comma', 'ids=1,2,'],
    ['spaces', 'ids=1,%202'],
    ['a word', 'ids=one'],
    ['zero', 'ids=0'],
    ['a negative id', 'ids=-1'],
    ['a leading zero', 'ids=01'],
    ['a fraction', 'ids=1.0'],
    ['an unsafe integer', 'ids=9007199254740992'],
    ['a JSON array', 'ids=[1,2]'],
    ['the parameter twice', 'ids=1&ids=2'],
    ['both ids and date', 'ids=1&date=2026-03-10'],
    ['neither ids nor date', ''],
    ['an unknown parameter', 'ids=1&page=2'],
  ])('answers invalid_request for %s', async (_, query) => {
    expectError(await get(`/api/v1/meals?${query}`), 'invalid_request');
  });

  it('checks authentication before the query string', async () => {
    expectError(await get('/api/v1/meals?ids=nonsense', null), 'unauthenticated');
  });
});

describe('GET /api/v1/meals?date=', () => {
  it('answers the meals served that day in Europe/Berlin, by serving time, then id', async () => {
    const response = await get('/api/v1/meals?date=2026-03-10');
    expect(response.statusCode).toBe(200);
    expect(idsOf(response)).toEqual([1, 2]);
    expect(response.json().data.unknown_ids).toEqual([]);
    expect(idsOf(await get('/api/v1/meals?date=2026-03-11'))).toEqual([3]);
    expect(idsOf(await get('/api/v1/meals?date=2026-03-09'))).toEqual([]);
  });

  it('takes the local day, not the UTC day, and a 23-hour day when summer time begins', async () => {
    const at = (iso: string) => new Date(iso);
    await fixture.adapters.meals.upsertMany([
      MealMother.servedAt(at('2026-03-28T22:59:59.999Z'), { id: 10, name: 'Late on Saturday' }),
      MealMother.servedAt(at('2026-03-28T23:00:00.000Z'), { id: 11, name: 'Sunday, first instant' }),
      MealMother.servedAt(at('2026-03-29T21:59:59.999Z'), { id: 12, name: 'Sunday, last instant' }),
      MealMother.servedAt(at('2026-03-29T22:00:00.000Z'), { id: 13, name: 'Monday, first instant' }),
    ]);
    expect(idsOf(await get('/api/v1/meals?date=2026-03-28'))).toEqual([10]);
    expect(idsOf(await get('/api/v1/meals?date=2026-03-29'))).toEqual([11, 12]);
    expect(idsOf(await get('/api/v1/meals?date=2026-03-30'))).toEqual([13]);
  });

  it.each([
    '2026-02-30',
    '2026-02-29',
    '2026-13-01',
    '2026-3-10',
    '10-03-2026',
    '2026-03-10T00:00:00Z',
    'today',
    '',
  ])('answers invalid_request for the date %j', async (date) =>
    expectError(await get(`/api/v1/meals?date=${encodeURIComponent(date)}`), 'invalid_request'));
});

describe.each(['marked', 'rated'] as const)('GET /api/v1/%s-meals', (list) => {
  const url = `/api/v1/${list}-meals`;
  /** alice marks or rates meals 1 to 4; their order, most recently served first, is 3, 2, 1, 4 (1 and 2 tie). */
  const prepare = async () => {
    if (list === 'marked') {
      for (const id of [1, 2, 3, 4]) await mark(id);
      await mark(1, 'bob');
      return;
    }
    // Meal 2 cannot be rated: the rated list holds 3, 1, 4; each is rated inside its own period.
    await rate(1, 5);
    await rateAt(new Date('2026-03-11T13:00:00Z'), 3, 2);
    await rateAt(new Date('2026-02-09T12:00:00Z'), 4, 1);
    await rate(1, 3, 'bob');
  };
  const expectedOrder = list === 'marked' ? [3, 2, 1, 4] : [3, 1, 4];

  it('answers an empty first page with next_cursor null for a user with nothing', async () => {
    await prepare();
    const response = await get(url, fixture.token({ sub: 'dave' }));
    expect(response.statusCode).toBe(200);
    expect(response.headers['cache-control']).toBe('private, no-store');
    expect(response.json()).toEqual({ status: 'success', data: { meals: [], next_cursor: null } });
  });

  it("answers the caller's meals most recently served first, as full meal objects", async () => {
    await prepare();
    const response = await get(url);
    expect(idsOf(response)).toEqual(expectedOrder);
    expect(response.json().data.next_cursor).toBeNull();
    const first = response.json().data.meals[0];
    expect(first).toEqual((await get('/api/v1/meals/3')).json().data);
    if (list === 'rated') {
      expect(response.json().data.meals.map((meal: { rating_personal: number }) => meal.rating_personal)).toEqual([
        2, 5, 1,
      ]);
    } else {
      expect(response.json().data.meals.every((meal: { marked: boolean }) => meal.marked)).toBe(true);
    }
  });

  it('pages with an opaque cursor until next_cursor is null, without repeats or gaps', async () => {
    await prepare();
    const seen: number[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const response = await get(`${url}?limit=1${cursor === null ? '' : `&cursor=${cursor}`}`);
      expect(response.statusCode).toBe(200);
      seen.push(...idsOf(response));
      cursor = response.json().data.next_cursor;
      pages += 1;
    } while (cursor !== null && pages < 10);
    expect(seen).toEqual(expectedOrder);
    expect(pages).toBe(expectedOrder.length);
  });

  it('answers next_cursor null when the last page is exactly full', async () => {
    await prepare();
    const response = await get(`${url}?limit=${expectedOrder.length}`);
    expect(idsOf(response)).toEqual(expectedOrder);
    expect(response.json().data.next_cursor).toBeNull();
    const short = await get(`${url}?limit=${expectedOrder.length - 1}`);
    expect(short.json().data.next_cursor).toEqual(expect.any(String));
  });

  it('accepts limits from 1 to 100', async () => {
    await prepare();
    for (const limit of [1, 20, 99, 100]) expect((await get(`${url}?limit=${limit}`)).statusCode).toBe(200);
  });

  it.each([
    '0',
    '101',
    '1000',
    '-1',
    '1.5',
    '01',
    'ten',
    '',
    '1e2',
  ])('answers invalid_request for limit=%j', async (limit) => {
    expectError(await get(`${url}?limit=${limit}`), 'invalid_request');
  });

  it('answers invalid_cursor for a cursor it did not hand out: made up, altered, of the other list or user', async () => {
    await prepare();
    const other = list === 'marked' ? 'rated' : 'marked';
    const handedOut = (await get(`${url}?limit=1`)).json().data.next_cursor as string;
    const otherList = (await get(`/api/v1/${other}-meals?limit=1`)).json().data.next_cursor as string;
    const flipped = (text: string, at: number) =>
      text.slice(0, at) + (text[at] === 'A' ? 'B' : 'A') + text.slice(at + 1);
    const forged = [
      'abc',
      '!!!!',
      '',
      'x'.repeat(200),
      // The position as the service once spelled it, without its signature.
      Buffer.from(`${list}:1773140400000:1`).toString('base64url'),
      flipped(handedOut, 0),
      flipped(handedOut, Math.floor(handedOut.length / 2)),
      flipped(handedOut, handedOut.length - 1),
      `${handedOut}A`,
      handedOut.slice(0, -1),
      otherList,
    ];
    for (const cursor of forged)
      expectError(await get(`${url}?cursor=${encodeURIComponent(cursor)}`), 'invalid_cursor');
    expectError(await get(`${url}?cursor=${handedOut}`, fixture.token({ sub: 'bob' })), 'invalid_cursor');
    // The cursor handed out still pages.
    const next = await get(`${url}?limit=1&cursor=${handedOut}`);
    expect(idsOf(next)).toEqual(expectedOrder.slice(1, 2));
  });

  it('answers invalid_request for an unknown query parameter and for a repeated one', async () => {
    expectError(await get(`${url}?offset=2`), 'invalid_request');
    expectError(await get(`${url}?limit=1&limit=2`), 'invalid_request');
  });

  it('answers unauthenticated without a token', async () => {
    expectError(await get(url, null), 'unauthenticated');
  });
});
