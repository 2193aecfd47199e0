import { describe, expect, it } from 'vitest';
import { adminScope, kitchenScope, type ErrorCode, httpStatusOf } from '../src/index.js';
import { now, useSharedTestApp } from './app-fixture.js';

// The test menu (Europe/Berlin, now 2026-03-10 12:00 UTC): meals 1 and 2 are served today, 3 tomorrow, 4 a month ago.
const fixture = useSharedTestApp();
const minute = 60 * 1000;

function put(
  mealId: number | string,
  body: unknown,
  token: string | null = fixture.token({ sub: 'kitchen', scope: kitchenScope }),
) {
  return fixture.app.inject({
    method: 'PUT',
    url: `/api/v1/kitchen/meals/${mealId}/availability`,
    headers: { 'content-type': 'application/json', ...(token === null ? {} : { authorization: `Bearer ${token}` }) },
    payload: JSON.stringify(body),
  });
}

function get(url: string, token: string | null = fixture.token()) {
  return fixture.app.inject({
    method: 'GET',
    url,
    headers: token === null ? {} : { authorization: `Bearer ${token}` },
  });
}

function expectError(response: Awaited<ReturnType<typeof get>>, code: ErrorCode, message: string | RegExp = /./) {
  expect(response.statusCode).toBe(httpStatusOf[code]);
  expect(response.json()).toEqual({ status: 'error', error: { code, message: expect.stringMatching(message) } });
}

const availabilityEvents = () =>
  fixture.adapters.db.outbox.filter((event) => event.type === 'meal.availability_changed');

describe('PUT /api/v1/kitchen/meals/{meal_id}/availability', () => {
  it("lets the kitchen say a serving of its canteen's today sold out, answering the availability and its instant", async () => {
    const before = availabilityEvents().length;
    const response = await put(1, { status: 'sold_out' });

    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      status: 'success',
      data: { meal_id: 1, availability: 'sold_out', availability_changed_at: now.toISOString() },
    });
    expect(
      availabilityEvents()
        .slice(before)
        .map((event) => event.data),
    ).toEqual([
      { mealId: 1, canteenId: 'default', date: '2026-03-10', availability: 'sold_out', availabilityChangedAt: now },
    ]);
  });

  it('is idempotent: the same status again keeps its instant and records no second event', async () => {
    await put(1, { status: 'few_left' });
    const recorded = availabilityEvents().length;
    fixture.clock.set(new Date(now.getTime() + 5 * minute));

    const again = await put(1, { status: 'few_left' });

    expect(again.json()).toEqual({
      status: 'success',
      data: { meal_id: 1, availability: 'few_left', availability_changed_at: now.toISOString() },
    });
    expect(availabilityEvents()).toHaveLength(recorded);
    const later = await put(1, { status: 'available' });
    expect(later.json().data).toEqual({
      meal_id: 1,
      availability: 'available',
      availability_changed_at: new Date(now.getTime() + 5 * minute).toISOString(),
    });
  });

  it("answers 409 meal_not_today to the kitchen for another day's meal, and lets meals:write correct any day", async () => {
    expectError(await put(3, { status: 'sold_out' }), 'meal_not_today', /2026-03-11.*2026-03-10/);
    expectError(await put(4, { status: 'sold_out' }), 'meal_not_today');
    expect((await get('/api/v1/meals/3')).json().data.availability).toBe('available');

    const corrected = await put(3, { status: 'sold_out' }, fixture.token({ sub: 'admin', scope: adminScope }));
    expect(corrected.statusCode).toBe(200);
    expect(corrected.json().data.availability).toBe('sold_out');
  });

  it('answers 404 meal_not_found for an unknown and for a withdrawn meal', async () => {
    expectError(await put(99, { status: 'sold_out' }), 'meal_not_found');
    await fixture.adapters.meals.withdraw(2, now);
    expectError(await put(2, { status: 'sold_out' }), 'meal_not_found');
  });

  it('needs a token (401) with meals:kitchen or meals:write (403), and changes nothing otherwise', async () => {
    expectError(await put(1, { status: 'sold_out' }, null), 'unauthenticated');
    expectError(
      await put(1, { status: 'sold_out' }, fixture.token({ scope: 'meals:read-reports' })),
      'forbidden',
      /meals:kitchen.*meals:write/,
    );
    expectError(await put(1, { status: 'sold_out' }, fixture.token()), 'forbidden');
    expect((await get('/api/v1/meals/1')).json().data.availability).toBe('available');
  });

  it('refuses any other status, a missing one, and unknown fields with 400 invalid_request naming the field', async () => {
    expectError(
      await put(1, { status: 'gone' }),
      'invalid_request',
      /^"status" must be one of "available", "few_left", "sold_out"$/,
    );
    expectError(await put(1, { status: 'SOLD_OUT' }), 'invalid_request', /"status"/);
    expectError(await put(1, {}), 'invalid_request', /"status"/);
    expectError(await put(1, { status: 'sold_out', colour: 'red' }), 'invalid_request', /^unknown field "colour"$/);
    expectError(await put(0, { status: 'sold_out' }), 'invalid_request', /meal_id/);
    expect((await get('/api/v1/meals/1')).json().data.availability).toBe('available');
  });
});

describe('the availability in every meal answer', () => {
  it('starts available and never changed on a new serving', async () => {
    expect((await get('/api/v1/meals/1', null)).json().data).toMatchObject({
      availability: 'available',
      availability_changed_at: null,
    });
  });

  it('shows a change on the meal read, both menus, the marked and rated lists, the upcoming favourites, the dish and the rankings', async () => {
    await fixture.adapters.markings.setMarked('alice', 1, true);
    await fixture.app.inject({
      method: 'POST',
      url: '/api/v1/rate-meal',
      headers: { authorization: `Bearer ${fixture.token()}`, 'content-type': 'application/json' },
      payload: { meal_id: 1, rating: 4 },
    });
    await put(1, { status: 'sold_out' });
    const soldOut = { availability: 'sold_out', availability_changed_at: now.toISOString() };
    const mealOne = (meals: { meal_id: number }[]) => meals.find((meal) => meal.meal_id === 1);

    expect((await get('/api/v1/meals/1', null)).json().data).toMatchObject(soldOut);
    expect((await get('/api/v1/meals/1')).json().data).toMatchObject(soldOut);
    expect(mealOne((await get('/api/v1/meals?ids=1,3')).json().data.meals)).toMatchObject(soldOut);
    expect(mealOne((await get('/api/v1/meals?canteen=default&date=2026-03-10', null)).json().data.meals)).toMatchObject(
      soldOut,
    );
    expect(mealOne((await get('/api/v1/meals?canteen=default&date=2026-03-10')).json().data.meals)).toMatchObject(
      soldOut,
    );
    expect(mealOne((await get('/api/v1/marked-meals')).json().data.meals)).toMatchObject(soldOut);
    expect(mealOne((await get('/api/v1/rated-meals')).json().data.meals)).toMatchObject(soldOut);
    expect((await get('/api/v1/me/upcoming')).json().data.servings[0]).toMatchObject({ meal_id: 1, ...soldOut });
    const dishId = (await get('/api/v1/meals/1')).json().data.dish_id as number;
    expect(mealOne((await get(`/api/v1/dishes/${dishId}`)).json().data.servings)).toMatchObject(soldOut);
    const ranking = (await get('/api/v1/rankings?canteen=default&date=2026-03-10', null)).json().data.items;
    expect(mealOne(ranking)).toMatchObject(soldOut);
    expect(ranking.find((item: { meal_id: number }) => item.meal_id === 2)).toMatchObject({
      availability: 'available',
      availability_changed_at: null,
    });
  });

  it('changes the public menu and its ETag at once, however the menu was kept', async () => {
    const url = '/api/v1/meals?canteen=default&date=2026-03-10';
    const first = await get(url, null);
    const etag = first.headers.etag as string;
    expect((await fixture.app.inject({ method: 'GET', url, headers: { 'if-none-match': etag } })).statusCode).toBe(304);

    await put(1, { status: 'few_left' });

    const after = await fixture.app.inject({ method: 'GET', url, headers: { 'if-none-match': etag } });
    expect(after.statusCode).toBe(200);
    expect(after.headers.etag).not.toBe(etag);
    expect(after.json().data.meals.find((meal: { meal_id: number }) => meal.meal_id === 1)).toMatchObject({
      availability: 'few_left',
    });
  });

  // The OpenMensa v2 answer and XML export keep their shapes:
  // packages/adapters-http-openmensa/test/availability.test.ts.
});
