import { describe, expect, it } from 'vitest';
import { adminScope, mealsFromUpsertDocument, type ErrorCode } from '../src/index.js';
import { useSharedTestApp } from './app-fixture.js';
import { concreteUrl, registeredRoutes } from './route-table.js';

const fixture = useSharedTestApp();

/** A body each body route accepts, so that only its query string can be wrong. */
const validBodies: Readonly<Record<string, unknown>> = {
  'POST /api/v1/mark-meal': { meal_id: 1, marked: true },
  'POST /api/v1/rate-meal': { meal_id: 1, rating: 3 },
  'PUT /api/v1/admin/meals': {
    meals: [{ meal_id: 9, name: 'Soup', served_at: '2026-03-10T11:00:00Z', rateable: true }],
  },
  'PUT /api/v1/admin/canteens/:canteen_id': { name: 'Mensa', timezone: 'Europe/Berlin' },
  'PUT /api/v1/admin/canteens/:canteen_id/days/:date': { closed: true },
  'POST /api/v1/admin/dishes/:dish_id/merge': { from: [2] },
  'PUT /api/v1/admin/webhooks/:webhook_id': { url: 'https://app.example.com/hooks', events: ['menu.published'] },
  'PUT /api/v1/me/preferences': { without: [], only: [] },
  'PUT /api/v1/kitchen/meals/:meal_id/availability': { status: 'sold_out' },
  'PUT /api/v1/me/push-subscriptions': {
    endpoint: 'https://push.example/1',
    keys: {
      p256dh: Buffer.concat([Buffer.from([4]), Buffer.alloc(64, 1)]).toString('base64url'),
      auth: Buffer.alloc(16, 1).toString('base64url'),
    },
  },
  'PUT /api/v1/me/notifications': { favourites_today: true, sold_out: false },
};

describe('unknown query parameters', () => {
  it('answer 400 invalid_request, naming the parameter, on every registered route', async () => {
    const routes = registeredRoutes(fixture.app);
    expect(routes.length).toBeGreaterThan(20);
    for (const [method, path] of routes) {
      // OpenMensa's API v2 ignores parameters it does not know, as openmensa.org does (its own tests say so).
      // (Its CORS preflight route, /api/v2/*, prints as a bare wildcard.)
      if (path.startsWith('/api/v2') || (method === 'OPTIONS' && path.endsWith('*'))) continue;
      const url = `${concreteUrl(path)}?${path.endsWith('/dishes') ? 'q=soup&' : ''}colour=red`;
      const body = validBodies[`${method} ${path}`];
      const response = await fixture.app.inject({
        method: method as 'GET',
        url,
        headers: {
          authorization: `Bearer ${fixture.token({ scope: adminScope })}`,
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        ...(body === undefined ? {} : { payload: JSON.stringify(body) }),
      });
      expect([method, path, response.statusCode]).toEqual([method, path, 400]);
      if (method === 'HEAD') continue;
      expect([method, path, response.json()]).toEqual([
        method,
        path,
        { status: 'error', error: { code: 'invalid_request', message: 'unknown query parameter "colour"' } },
      ]);
    }
    // Nothing was erased or written on the way.
    expect(fixture.adapters.db.ratings.size + fixture.adapters.db.markings.size).toBe(0);
  });
});

function send(method: 'POST' | 'PUT' | 'DELETE', url: string, payload: string, headers: Record<string, string> = {}) {
  return fixture.app.inject({
    method,
    url,
    headers: {
      authorization: `Bearer ${fixture.token({ scope: adminScope })}`,
      'content-type': 'application/json',
      ...headers,
    },
    payload,
  });
}

function expectError(response: Awaited<ReturnType<typeof send>>, code: ErrorCode, message: string | RegExp) {
  expect(response.statusCode).toBe(400);
  expect(response.json()).toEqual({
    status: 'error',
    error: { code, message: typeof message === 'string' ? message : expect.stringMatching(message) },
  });
}

describe('validation messages', () => {
  it.each([
    ['an unknown field', '{"meal_id":1,"rating":3,"colour":"red"}', 'unknown field "colour"'],
    ['a missing field', '{"meal_id":1}', 'missing field "rating"'],
    ['a string for an integer', '{"meal_id":1,"rating":"5"}', '"rating" must be an integer or null'],
    ['a fraction', '{"meal_id":1,"rating":2.5}', '"rating" must be an integer or null'],
    ['a rating out of range', '{"meal_id":1,"rating":7}', '"rating" must be an integer from 1 to 5'],
    ['a string meal id', '{"meal_id":"1","rating":3}', '"meal_id" must be an integer'],
    ['an array for the body', '[1,2]', 'the body must be an object'],
  ])('name the field for %s, without schema noise', async (_name, payload, message) => {
    const response = await send('POST', '/api/v1/rate-meal', payload);
    expectError(response, 'invalid_request', message);
    expect(response.json().error.message).not.toMatch(/anyOf|oneOf|schema|pattern/);
  });

  it('name a nested field with its path', async () => {
    const payload = JSON.stringify({
      meals: [{ meal_id: 9, name: 'Soup', served_at: '2026-03-10T11:00:00Z', rateable: 'yes' }],
    });
    expectError(
      await send('PUT', '/api/v1/admin/meals', payload),
      'invalid_request',
      '"meals[0].rateable" must be a boolean',
    );
  });

  it('name the field of a meals document imported from a file the same way', () => {
    const document = {
      meals: [{ meal_id: 9, name: 'Soup', served_at: '2026-03-10T11:00:00Z', rateable: true, colour: 'red' }],
    };
    expect(() => mealsFromUpsertDocument(document)).toThrow('invalid meals document: unknown field "meals[0].colour"');
  });

  it('name a query parameter with a wrong form', async () => {
    const response = await fixture.app.inject({
      method: 'GET',
      url: '/api/v1/marked-meals?limit=ten',
      headers: { authorization: `Bearer ${fixture.token()}` },
    });
    expect(response.json().error).toEqual({
      code: 'invalid_request',
      message: 'query parameter "limit" must be an integer from 1 to 100',
    });
  });

  // The message names what is allowed, not only that the value does not fit.
  it.each([
    ['/api/v1/me/upcoming?days=15', 'query parameter "days" must be an integer from 1 to 14'],
    ['/api/v1/me/upcoming?days=0', 'query parameter "days" must be an integer from 1 to 14'],
    ['/api/v1/rated-meals?limit=0', 'query parameter "limit" must be an integer from 1 to 100'],
    ['/api/v1/meals?date=9.3.2026', 'query parameter "date" must be a calendar day YYYY-MM-DD, today or tomorrow'],
    ['/api/v1/meals/007', 'path parameter "meal_id" must be an integer of at least 1, without leading zeros'],
  ])('name what is allowed: %s', async (url, message) => {
    const response = await fixture.app.inject({
      method: 'GET',
      url,
      headers: { authorization: `Bearer ${fixture.token()}` },
    });
    expect(response.json().error).toEqual({ code: 'invalid_request', message });
  });
});

describe('JSON bodies', () => {
  it.each([
    ['__proto__', '{"meal_id":1,"rating":3,"__proto__":{"admin":true}}', 'unknown field "__proto__"'],
    [
      'constructor',
      '{"meal_id":1,"rating":3,"constructor":{"prototype":{"admin":true}}}',
      'unknown field "constructor"',
    ],
  ])('answer invalid_request naming a %s key', async (_key, payload, message) => {
    expectError(await send('POST', '/api/v1/rate-meal', payload), 'invalid_request', message);
  });

  it('answer invalid_request naming a nested __proto__ key', async () => {
    const payload =
      '{"meals":[{"meal_id":9,"name":"Soup","served_at":"2026-03-10T11:00:00Z","rateable":true,"__proto__":{"x":1}}]}';
    expectError(
      await send('PUT', '/api/v1/admin/meals', payload),
      'invalid_request',
      'unknown field "meals[0].__proto__"',
    );
  });

  it.each([
    ['at the top', '{"meal_id":1,"rating":1,"rating":5}', 'rating'],
    ['with whitespace around the colon', '{"meal_id" : 1, "rating" :1 ,"rating"\n:\t5}', 'rating'],
    [
      'deep inside',
      '{"meals":[{"meal_id":9,"name":"Soup","served_at":"2026-03-10T11:00:00Z","rateable":true,"prices":{"student":"1.00","student":"2.00"}}]}',
      'student',
    ],
  ])('answer invalid_json for a key repeated %s, naming it', async (_where, payload, key) => {
    const url = payload.includes('meals') ? '/api/v1/admin/meals' : '/api/v1/rate-meal';
    const response = await send(url.includes('admin') ? 'PUT' : 'POST', url, payload);
    expectError(response, 'invalid_json', new RegExp(`"${key}" appears twice`));
  });

  it('accept the same key in different objects and colons, quotes and escapes inside strings', async () => {
    const payload = JSON.stringify({
      meals: [
        { meal_id: 9, name: 'Soup: "hot" \\ and {cold}', served_at: '2026-03-10T11:00:00Z', rateable: true },
        { meal_id: 10, name: 'a:b:c', served_at: '2026-03-10T11:00:00Z', rateable: true },
      ],
    });
    expect((await send('PUT', '/api/v1/admin/meals', payload)).statusCode).toBe(200);
  });
});

describe('DELETE /api/v1/me/data', () => {
  it('accepts content-type: application/json without a body like a request without either', async () => {
    await fixture.adapters.markings.setMarked('alice', 1, true);
    const response = await fixture.app.inject({
      method: 'DELETE',
      url: '/api/v1/me/data',
      headers: { authorization: `Bearer ${fixture.token()}`, 'content-type': 'application/json' },
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      status: 'success',
      data: { markings_erased: 1, ratings_erased: 0, preferences_erased: 0, aversions_erased: 0 },
    });
  });

  it('still refuses a broken JSON body', async () => {
    expectError(await send('DELETE', '/api/v1/me/data', '{"x":'), 'invalid_json', 'The body is not valid JSON.');
  });
});
