import { probeThrough } from '@canteen-meals/repository-contract';
import { histogramOf, type RatingValue } from '@canteen-meals/domain';
import { describe, expect, it } from 'vitest';
import { httpStatusOf, type ErrorCode } from '../src/index.js';
import { menu, now, useSharedTestApp } from './app-fixture.js';

const fixture = useSharedTestApp();

function call(method: 'GET' | 'DELETE' | 'POST', url: string, token: string | null, payload?: unknown) {
  return fixture.app.inject({
    method,
    url,
    headers: {
      ...(token === null ? {} : { authorization: `Bearer ${token}` }),
      ...(payload === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(payload === undefined ? {} : { payload: JSON.stringify(payload) }),
  });
}

const alice = () => fixture.token({ sub: 'alice' });
const bob = () => fixture.token({ sub: 'bob' });

async function rate(token: string, mealId: number, rating: number, at: Date = now) {
  fixture.clock.set(at);
  const response = await call('POST', '/api/v1/rate-meal', token, { meal_id: mealId, rating });
  fixture.clock.set(now);
  expect(response.statusCode).toBe(200);
}

async function mark(token: string, mealId: number) {
  expect((await call('POST', '/api/v1/mark-meal', token, { meal_id: mealId, marked: true })).statusCode).toBe(200);
}

/** alice and bob both rate meal 1 (open) and meal 4 (its week is over by now) and mark some meals. */
async function populate() {
  const lastMonth = new Date('2026-02-08T13:00:00Z');
  await rate(alice(), 1, 5);
  await rate(bob(), 1, 2);
  await rate(alice(), 4, 4, lastMonth);
  await rate(bob(), 4, 4, lastMonth);
  await mark(alice(), 3);
  await mark(alice(), 2);
  await mark(bob(), 2);
}

function expectError(response: Awaited<ReturnType<typeof call>>, code: ErrorCode) {
  expect(response.statusCode).toBe(httpStatusOf[code]);
  expect(response.json()).toEqual({ status: 'error', error: { code, message: expect.any(String) } });
}

describe('GET /api/v1/me/data', () => {
  it('answers an empty export for a user the service holds nothing of', async () => {
    const response = await call('GET', '/api/v1/me/data', alice());
    expect(response.statusCode).toBe(200);
    expect(response.headers['cache-control']).toBe('private, no-store');
    expect(response.json()).toEqual({
      status: 'success',
      data: {
        user_id: 'alice',
        exported_at: now.toISOString(),
        markings: [],
        ratings: [],
        preferences: { without: [], only: [] },
        aversions: [],
      },
    });
  });

  it("answers every marking and rating of the caller, with the meal's name and serving time, and no one else's", async () => {
    await populate();
    const response = await call('GET', '/api/v1/me/data', alice());
    expect(response.json().data).toEqual({
      user_id: 'alice',
      exported_at: now.toISOString(),
      markings: [
        { meal_id: 2, name: 'Salad bar', served_at: '2026-03-10T11:00:00.000Z' },
        { meal_id: 3, name: 'Tomorrow', served_at: '2026-03-11T12:00:00.000Z' },
      ],
      ratings: [
        { meal_id: 1, name: 'Open meal', served_at: '2026-03-10T11:00:00.000Z', rating: 5 },
        { meal_id: 4, name: 'Last month', served_at: '2026-02-08T12:00:00.000Z', rating: 4 },
      ],
      preferences: { without: [], only: [] },
      aversions: [],
    });
    const bobs = (await call('GET', '/api/v1/me/data', bob())).json().data;
    expect(bobs.markings.map((m: { meal_id: number }) => m.meal_id)).toEqual([2]);
    expect(bobs.ratings.map((r: { rating: number }) => r.rating)).toEqual([2, 4]);
  });

  it('answers unauthenticated without a token and invalid_token for an expired one', async () => {
    expectError(await call('GET', '/api/v1/me/data', null), 'unauthenticated');
    expectError(await call('GET', '/api/v1/me/data', fixture.token({ expiresInMs: -60_000 })), 'invalid_token');
  });
});

describe('DELETE /api/v1/me/data', () => {
  it("erases the caller's markings and ratings and answers how many", async () => {
    await populate();
    const response = await call('DELETE', '/api/v1/me/data', alice());
    expect(response.statusCode).toBe(200);
    expect(response.headers['cache-control']).toBe('private, no-store');
    expect(response.json()).toEqual({
      status: 'success',
      data: { markings_erased: 2, ratings_erased: 2, preferences_erased: 0, aversions_erased: 0 },
    });
    expect((await call('GET', '/api/v1/me/data', alice())).json().data).toMatchObject({ markings: [], ratings: [] });
  });

  it('updates the statistics of every meal the caller rated, including one whose week is over', async () => {
    await populate();
    await call('DELETE', '/api/v1/me/data', alice());

    const open = (await call('GET', '/api/v1/meals/1', alice())).json().data;
    expect(open).toMatchObject({ rating_count: 1, rating_average: 2, rating_personal: null, marked: false });
    const closed = (await call('GET', '/api/v1/meals/4', alice())).json().data;
    expect(closed).toMatchObject({ rating_open: false, rating_count: 1, rating_average: 4, rating_personal: null });
    expect(closed.rating_distribution).toEqual({ '1': 0, '2': 0, '3': 0, '4': 1, '5': 0 });
  });

  it("leaves every other user's data and every histogram equal to the ratings that remain", async () => {
    await populate();
    const bobBefore = (await call('GET', '/api/v1/me/data', bob())).json().data;

    await call('DELETE', '/api/v1/me/data', alice());

    expect((await call('GET', '/api/v1/me/data', bob())).json().data).toEqual(bobBefore);
    const { db } = fixture.adapters;
    for (const meal of menu) {
      const remaining = [...(db.ratings.get(meal.id)?.values() ?? [])] as RatingValue[];
      expect(await probeThrough(() => fixture.adapters.queries).histogram(meal.id)).toEqual(histogramOf(remaining));
    }
  });

  it('is idempotent: a second erasure succeeds and erases nothing', async () => {
    await populate();
    await call('DELETE', '/api/v1/me/data', alice());
    const again = await call('DELETE', '/api/v1/me/data', alice());
    expect(again.statusCode).toBe(200);
    expect(again.json()).toEqual({
      status: 'success',
      data: { markings_erased: 0, ratings_erased: 0, preferences_erased: 0, aversions_erased: 0 },
    });
    expect((await call('GET', '/api/v1/meals/1', bob())).json().data).toMatchObject({
      rating_count: 1,
      rating_personal: 2,
    });
  });

  it('erases nothing without a valid token', async () => {
    await populate();
    expectError(await call('DELETE', '/api/v1/me/data', null), 'unauthenticated');
    expectError(await call('DELETE', '/api/v1/me/data', `${alice()}x`), 'invalid_token');
    expect((await call('GET', '/api/v1/me/data', alice())).json().data.ratings).toHaveLength(2);
  });
});
