import { MealMother } from '@canteen-meals/repository-contract';
import { apiPrefix, routePaths } from '@canteen-meals/http-contract';
import { describe, expect, it } from 'vitest';
import { httpStatusOf, type ErrorCode } from '../src/index.js';
import { now, useSharedTestApp } from './app-fixture.js';

const fixture = useSharedTestApp();
const day = 24 * 60 * 60 * 1000;
const url = `${apiPrefix}${routePaths.getUpcoming}`;

function get(query = '', token: string | null = fixture.token()) {
  return fixture.app.inject({
    method: 'GET',
    url: `${url}${query}`,
    headers: token === null ? {} : { authorization: `Bearer ${token}` },
  });
}

function expectError(response: Awaited<ReturnType<typeof get>>, code: ErrorCode) {
  expect(response.statusCode, response.body).toBe(httpStatusOf[code]);
  expect(response.json()).toEqual({ status: 'error', error: { code, message: expect.any(String) } });
}

/** The meal ids and days of an answer's servings. */
const servingsOf = (response: Awaited<ReturnType<typeof get>>) =>
  (response.json().data.servings as { meal_id: number; date: string }[]).map((serving) => [
    serving.meal_id,
    serving.date,
  ]);

/** "Last month" (meal 4 of the fixture's menu) is served again in 3 and in 9 days; tomorrow's meal again in 2. */
async function withReturningDishes() {
  await fixture.adapters.meals.upsertMany([
    MealMother.servedAt(new Date(now.getTime() + 3 * day), { id: 5, name: 'Last month' }),
    MealMother.servedAt(new Date(now.getTime() + 9 * day), { id: 6, name: 'Last month' }),
    MealMother.servedAt(new Date(now.getTime() + 2 * day), { id: 7, name: 'Tomorrow' }),
  ]);
}

describe('GET /api/v1/me/upcoming', () => {
  it('needs a token, a valid one', async () => {
    const without = await get('', null);
    expectError(without, 'unauthenticated');
    expect(without.headers['www-authenticate']).toBe('Bearer');
    expectError(await get('', 'not-a-token'), 'invalid_token');
  });

  it('answers the coming servings of the dishes the caller marked any serving of, as menu items with their day, privately', async () => {
    await withReturningDishes();
    await fixture.adapters.markings.setMarked('alice', 4, true); // last month's serving: the dish is a favourite
    await fixture.adapters.markings.setMarked('bob', 3, true);

    const response = await get();
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers['cache-control']).toBe('private, no-store');
    expect(response.json()).toEqual({
      status: 'success',
      data: {
        servings: [
          {
            meal_id: 5,
            name: 'Last month',
            category: null,
            notes: [],
            labels: [],
            prices: {},
            served_at: '2026-03-13T12:00:00.000Z',
            rateable: true,
            canteen_id: 'default',
            rating_open: false,
            rating_count: 0,
            rating_average: null,
            rating_median: null,
            rating_distribution: { '1': 0, '2': 0, '3': 0, '4': 0, '5': 0 },
            marked: false,
            rating_personal: null,
            dish_id: expect.any(Number),
            dish: {
              dish_id: expect.any(Number),
              name: 'Last month',
              rating_count: 0,
              rating_average: null,
              rating_median: null,
              times_served: 1,
              last_served_at: '2026-02-08T12:00:00.000Z',
              next_served_at: '2026-03-13T12:00:00.000Z',
            },
            availability: 'available',
            availability_changed_at: null,
            date: '2026-03-13',
          },
        ],
        truncated: false,
      },
    });
    expect(servingsOf(await get('?days=14'))).toEqual([
      [5, '2026-03-13'],
      [6, '2026-03-19'],
    ]);
    expect(servingsOf(await get('', fixture.token({ sub: 'bob' })))).toEqual([
      [3, '2026-03-11'],
      [7, '2026-03-12'],
    ]);
    expect(servingsOf(await get('', fixture.token({ sub: 'carol' })))).toEqual([]);
  });

  it("counts today's servings already served, on the canteen's clocks, and carries the dish's statistics and the caller's rating", async () => {
    await fixture.app.inject({
      method: 'POST',
      url: `${apiPrefix}${routePaths.rateMeal}`,
      headers: { authorization: `Bearer ${fixture.token()}`, 'content-type': 'application/json' },
      payload: { meal_id: 1, rating: 4 },
    });
    await fixture.adapters.markings.setMarked('alice', 1, true);

    const [serving] = (await get('?days=1')).json().data.servings;
    expect(serving).toMatchObject({
      meal_id: 1,
      date: '2026-03-10',
      rating_open: true,
      marked: true,
      rating_personal: 4,
      rating_count: 1,
      dish: { rating_count: 1, rating_average: 4, rating_median: 4, times_served: 1 },
    });
    // At 23:30 in Berlin the same day it still counts; at midnight the day is over.
    fixture.clock.set('2026-03-10T22:59:59.999Z');
    expect(servingsOf(await get('?days=1'))).toEqual([[1, '2026-03-10']]);
    fixture.clock.set('2026-03-10T23:00:00.000Z');
    expect(servingsOf(await get('?days=1'))).toEqual([]);
  });

  it('lists no withdrawn serving, and keeps a dish a favourite whose marked serving was withdrawn', async () => {
    await withReturningDishes();
    await fixture.adapters.markings.setMarked('alice', 3, true);
    await fixture.adapters.meals.withdraw(3, now);
    expect(servingsOf(await get())).toEqual([[7, '2026-03-12']]);
    await fixture.adapters.meals.withdraw(7, now);
    expect(servingsOf(await get())).toEqual([]);
  });

  it('takes days from 1 to 14 and refuses anything else, and any other parameter, in the envelope', async () => {
    await withReturningDishes();
    await fixture.adapters.markings.setMarked('alice', 4, true);
    expect(servingsOf(await get('?days=3'))).toEqual([]);
    expect(servingsOf(await get('?days=4'))).toEqual([[5, '2026-03-13']]);
    for (const query of [
      '?days=0',
      '?days=15',
      '?days=07',
      '?days=1.5',
      '?days=-1',
      '?days=',
      '?days=seven',
      '?days=1&days=2',
      '?limit=3',
      '?days=7&canteen=default',
    ]) {
      expectError(await get(query), 'invalid_request');
    }
  });
});
