import { probeThrough } from '@canteen-meals/repository-contract';
import { createSigner } from 'fast-jwt';
import type { FastifyInstance, InjectOptions } from 'fastify';
import { afterAll, beforeEach, describe, expect, it, onTestFinished } from 'vitest';
import { httpStatusOf, type ErrorCode } from '../src/index.js';
import { buildTestApp, secret } from './app-fixture.js';

let fixture: Awaited<ReturnType<typeof buildTestApp>>;
let app: FastifyInstance;

beforeEach(async () => {
  fixture = await buildTestApp();
  app = fixture.app;
});
afterAll(() => app?.close());

function post(url: string, body: unknown, token: string | null = fixture.token(), extra: InjectOptions = {}) {
  return app.inject({
    method: 'POST',
    url,
    headers: {
      'content-type': 'application/json',
      ...(token === null ? {} : { authorization: `Bearer ${token}` }),
      ...extra.headers,
    },
    payload: typeof body === 'string' ? body : JSON.stringify(body),
  });
}

function expectError(
  response: { statusCode: number; json(): unknown; headers: Record<string, unknown> },
  code: ErrorCode,
) {
  expect(response.statusCode).toBe(httpStatusOf[code]);
  expect(response.headers['content-type']).toMatch(/^application\/json/);
  const body = response.json() as { status: string; error: { code: string; message: string } };
  expect(body).toEqual({ status: 'error', error: { code, message: expect.any(String) } });
  expect(body.error.message.length).toBeGreaterThan(0);
}

describe('POST /api/v1/mark-meal', () => {
  it('marks and unmarks, idempotently', async () => {
    for (const marked of [true, true, false, false, true]) {
      const response = await post('/api/v1/mark-meal', { meal_id: 1, marked });
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({ status: 'success', data: { marked } });
      expect(await probeThrough(() => fixture.adapters.queries).marked('alice', 1)).toBe(marked);
    }
  });

  it('marks meals whatever their rating rules say', async () => {
    for (const mealId of [2, 3, 4]) {
      expect((await post('/api/v1/mark-meal', { meal_id: mealId, marked: true })).statusCode).toBe(200);
    }
  });

  it('answers meal_not_found for an unknown meal', async () => {
    expectError(await post('/api/v1/mark-meal', { meal_id: 99, marked: true }), 'meal_not_found');
  });
});

describe('POST /api/v1/rate-meal', () => {
  it('answers exactly the four statistics fields', async () => {
    await post('/api/v1/rate-meal', { meal_id: 1, rating: 2 }, fixture.token({ sub: 'bob' }));
    await post('/api/v1/rate-meal', { meal_id: 1, rating: 5 }, fixture.token({ sub: 'carol' }));
    const response = await post('/api/v1/rate-meal', { meal_id: 1, rating: 4 });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      status: 'success',
      data: { rating_count: 3, rating_average: 11 / 3, rating_median: 4, rating_personal: 4 },
    });
  });

  it('replaces a rating and deletes it with null, twice without harm', async () => {
    await post('/api/v1/rate-meal', { meal_id: 1, rating: 1 });
    await post('/api/v1/rate-meal', { meal_id: 1, rating: 3 }, fixture.token({ sub: 'bob' }));
    const replaced = await post('/api/v1/rate-meal', { meal_id: 1, rating: 5 });
    expect(replaced.json().data).toEqual({ rating_count: 2, rating_average: 4, rating_median: 4, rating_personal: 5 });
    for (let i = 0; i < 2; i++) {
      const deleted = await post('/api/v1/rate-meal', { meal_id: 1, rating: null });
      expect(deleted.json().data).toEqual({
        rating_count: 1,
        rating_average: 3,
        rating_median: 3,
        rating_personal: null,
      });
    }
  });

  it('answers null statistics for a meal without ratings', async () => {
    const response = await post('/api/v1/rate-meal', { meal_id: 1, rating: null });
    expect(response.json().data).toEqual({
      rating_count: 0,
      rating_average: null,
      rating_median: null,
      rating_personal: null,
    });
  });

  it.each([
    [99, 'meal_not_found'],
    [2, 'meal_not_rateable'],
    [3, 'meal_not_yet_served'],
    [4, 'rating_period_over'],
  ] as const)('refuses meal %i with %s, for setting and for deleting', async (mealId, code) => {
    expectError(await post('/api/v1/rate-meal', { meal_id: mealId, rating: 3 }), code);
    expectError(await post('/api/v1/rate-meal', { meal_id: mealId, rating: null }), code);
  });
});

describe('strict validation: 400 invalid_request', () => {
  it.each([
    ['a string rating', { meal_id: 1, rating: '5' }],
    ['a boolean rating', { meal_id: 1, rating: true }],
    ['a "true" string', { meal_id: 1, marked: 'true' }],
    ['rating 0', { meal_id: 1, rating: 0 }],
    ['rating 6', { meal_id: 1, rating: 6 }],
    ['rating 2.5', { meal_id: 1, rating: 2.5 }],
    ['a missing rating', { meal_id: 1 }],
    ['a missing meal id', { rating: 3 }],
    ['meal id 0', { meal_id: 0, rating: 3 }],
    ['a negative meal id', { meal_id: -1, rating: 3 }],
    ['a string meal id', { meal_id: '1', rating: 3 }],
    ['an unsafe integer meal id', { meal_id: 2 ** 60, rating: 3 }],
    ['an unknown field', { meal_id: 1, rating: 3, user_id: 'bob' }],
    ['an array body', [{ meal_id: 1, rating: 3 }]],
    ['a number body', 5],
    ['a null body', null],
  ])('rejects %s on rate-meal', async (_, body) => {
    const response = await post('/api/v1/rate-meal', body);
    expectError(response, 'invalid_request');
    expect(fixture.adapters.db.ratings.size).toBe(0);
  });

  it.each([
    ['a string marked', { meal_id: 1, marked: 'true' }],
    ['a numeric marked', { meal_id: 1, marked: 1 }],
    ['a null marked', { meal_id: 1, marked: null }],
    ['an unknown field', { meal_id: 1, marked: true, extra: 1 }],
  ])('rejects %s on mark-meal', async (_, body) => {
    expectError(await post('/api/v1/mark-meal', body), 'invalid_request');
    expect(fixture.adapters.db.markings.size).toBe(0);
  });
});

describe('bodies that are not JSON', () => {
  it.each([
    ['malformed JSON', '{"meal_id": 1,'],
    ['an empty body', ''],
  ])('answers invalid_json for %s', async (_, body) => {
    expectError(await post('/api/v1/rate-meal', body), 'invalid_json');
  });

  it('answers invalid_json for a request without any body', async () => {
    const response = await app.inject({
      method: 'POST',
      url: '/api/v1/rate-meal',
      headers: { authorization: `Bearer ${fixture.token()}` },
    });
    expectError(response, 'invalid_json');
  });

  it.each([
    'text/plain',
    'application/x-www-form-urlencoded',
    'application/xml',
  ])('answers unsupported_media_type for %s', async (contentType) => {
    const response = await post('/api/v1/rate-meal', '{"meal_id":1,"rating":3}', fixture.token(), {
      headers: { 'content-type': contentType },
    });
    expectError(response, 'unsupported_media_type');
  });

  it('answers payload_too_large for a body over the limit', async () => {
    const response = await post('/api/v1/rate-meal', { meal_id: 1, rating: 3, padding: 'x'.repeat(4096) });
    expectError(response, 'payload_too_large');
  });
});

describe('authentication', () => {
  it('answers unauthenticated with WWW-Authenticate: Bearer without a token, before reading the body', async () => {
    const response = await post('/api/v1/rate-meal', '{not json', null);
    expectError(response, 'unauthenticated');
    expect(response.headers['www-authenticate']).toBe('Bearer');
  });

  it('answers unauthenticated for a non-Bearer scheme', async () => {
    const response = await post('/api/v1/rate-meal', { meal_id: 1, rating: 3 }, null, {
      headers: { authorization: 'Basic YWxpY2U6cGFzcw==' },
    });
    expectError(response, 'unauthenticated');
  });

  const sign = (payload: Record<string, unknown>, options: Record<string, unknown> = {}) =>
    createSigner({ key: secret, algorithm: 'HS256', ...options })(payload);
  const inAnHour = () => Math.floor(Date.now() / 1000) + 3600;

  it.each([
    [
      'a bad signature',
      () => sign({ sub: 'alice', exp: inAnHour() }, { key: 'another-secret-of-at-least-32-bytes!!!' }),
    ],
    ['alg none', () => `${b64({ alg: 'none', typ: 'JWT' })}.${b64({ sub: 'alice', exp: inAnHour() })}.`],
    ['an expired token', () => sign({ sub: 'alice', exp: Math.floor(Date.now() / 1000) - 60 })],
    ['nbf in the future', () => sign({ sub: 'alice', exp: inAnHour(), nbf: inAnHour() - 60 })],
    ['no exp', () => sign({ sub: 'alice' })],
    ['no sub', () => sign({ exp: inAnHour() })],
    ['a numeric sub', () => sign({ sub: 42, exp: inAnHour() })],
    ['an empty sub', () => sign({ sub: '', exp: inAnHour() })],
    ['a sub of 256 characters', () => sign({ sub: 'a'.repeat(256), exp: inAnHour() })],
    ['a sub with a NUL', () => sign({ sub: 'ali\u0000ce', exp: inAnHour() })],
    ['a sub with an unpaired surrogate', () => sign({ sub: 'ali\uD800ce', exp: inAnHour() })],
    ['a crit header', () => sign({ sub: 'alice', exp: inAnHour() }, { header: { crit: ['x-unknown'] } })],
    ['garbage', () => 'not.a.token'],
  ])('answers invalid_token for %s', async (_, makeToken) => {
    const response = await post('/api/v1/rate-meal', { meal_id: 1, rating: 3 }, makeToken());
    expectError(response, 'invalid_token');
    expect(response.headers['www-authenticate']).toMatch(/^Bearer/);
    expect(fixture.adapters.db.ratings.size).toBe(0);
  });

  it('accepts a sub of exactly 255 characters', async () => {
    const response = await post(
      '/api/v1/mark-meal',
      { meal_id: 1, marked: true },
      fixture.token({ sub: 'a'.repeat(255) }),
    );
    expect(response.statusCode).toBe(200);
  });

  it('enforces issuer and audience when configured', async () => {
    const strict = await buildTestApp({ issuer: 'https://id.example', audience: 'meals' });
    onTestFinished(() => strict.app.close());
    const call = (token: string) =>
      strict.app.inject({
        method: 'POST',
        url: '/api/v1/mark-meal',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        payload: { meal_id: 1, marked: true },
      });
    expect((await call(strict.token())).statusCode).toBe(200);
    expectError(await call(strict.token({ issuer: 'https://evil.example' })), 'invalid_token');
    expectError(await call(strict.token({ audience: 'other' })), 'invalid_token');
    expectError(await call(fixture.token()), 'invalid_token');
  });

  it('takes the user only from the token', async () => {
    await post('/api/v1/rate-meal', { meal_id: 1, rating: 5 }, fixture.token({ sub: 'bob' }));
    expect(await probeThrough(() => fixture.adapters.queries).rating('bob', 1)).toBe(5);
    expect(await probeThrough(() => fixture.adapters.queries).rating('alice', 1)).toBeNull();
  });
});

describe('PUT /api/v1/admin/meals', () => {
  const put = (body: unknown, token: string) =>
    app.inject({
      method: 'PUT',
      url: '/api/v1/admin/meals',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      payload: JSON.stringify(body),
    });
  const meal = (id: number, servedAt = '2026-03-10T11:00:00+01:00') => ({
    meal_id: id,
    name: `Meal ${id}`,
    served_at: servedAt,
    rateable: true,
  });

  it('upserts with the meals:write scope, keeping ratings', async () => {
    await post('/api/v1/rate-meal', { meal_id: 1, rating: 4 });
    const response = await put({ meals: [meal(1), meal(10)] }, fixture.token({ scope: 'openid meals:write' }));
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ status: 'success', data: { upserted: 2 } });
    const updated = await probeThrough(() => fixture.adapters.queries).meal(1);
    expect(updated?.name).toBe('Meal 1');
    expect(updated?.servedAt.toISOString()).toBe('2026-03-10T10:00:00.000Z');
    expect(await probeThrough(() => fixture.adapters.queries).rating('alice', 1)).toBe(4);
  });

  it('takes labels, stores them with their parents and the codes the notes name, and refuses an unknown code naming it', async () => {
    const writer = fixture.token({ scope: 'meals:write' });
    const labelled = { ...meal(10), notes: ['Senf'], labels: ['wheat', 'vegan'] };
    expect((await put({ meals: [labelled] }, writer)).statusCode).toBe(200);
    expect((await probeThrough(() => fixture.adapters.queries).meal(10))?.labels).toEqual([
      'gluten',
      'mustard',
      'vegan',
      'vegetarian',
      'wheat',
    ]);

    const refused = await put({ meals: [meal(11), { ...meal(12), labels: ['gluten', 'vegn'] }] }, writer);
    expect(refused.statusCode).toBe(400);
    expect(refused.json().error).toMatchObject({ code: 'invalid_request', message: expect.stringContaining('"vegn"') });
    expect(await probeThrough(() => fixture.adapters.queries).meal(11)).toBeUndefined();
  });

  it('stores the optional category, notes and prices, amounts in canonical form; absent ones as defaults', async () => {
    const detailed = {
      ...meal(10),
      category: 'Vegetarisch',
      notes: ['vegetarisch', 'Allergene: Milch'],
      prices: { student: '2.9', employee: '4.40', pupil: '2', other: '5.125' },
    };
    const response = await put(
      { meals: [detailed, { ...meal(11), category: null }, meal(12)] },
      fixture.token({ scope: 'meals:write' }),
    );
    expect(response.statusCode).toBe(200);
    expect(await probeThrough(() => fixture.adapters.queries).meal(10)).toMatchObject({
      category: 'Vegetarisch',
      notes: ['vegetarisch', 'Allergene: Milch'],
      prices: { student: '2.90', employee: '4.40', pupil: '2.00', other: '5.125' },
    });
    for (const id of [11, 12]) {
      expect(await probeThrough(() => fixture.adapters.queries).meal(id)).toMatchObject({
        category: null,
        notes: [],
        prices: {},
      });
    }
  });

  it('names the field and the rule when a text holds a control character', async () => {
    const response = await put(
      { meals: [{ ...meal(10), name: 'Chili\u0000con Carne' }] },
      fixture.token({ scope: 'meals:write' }),
    );
    expect(response.statusCode).toBe(400);
    expect(response.json().error).toEqual({
      code: 'invalid_request',
      message: expect.stringMatching(/^meals\[0\]: the name .*no control character/),
    });
  });

  it('accepts the highest id an upsert may choose, 2^31 - 1', async () => {
    const response = await put({ meals: [meal(2 ** 31 - 1)] }, fixture.token({ scope: 'meals:write' }));
    expect(response.statusCode).toBe(200);
  });

  it('answers forbidden without the scope, before looking at the body', async () => {
    expectError(await put({ meals: [meal(10)] }, fixture.token()), 'forbidden');
    expectError(await put('not even an object', fixture.token({ scope: 'meals:read' })), 'forbidden');
    expectError(await put({ meals: [meal(10)] }, fixture.token({ scope: 'meals:writer' })), 'forbidden');
    expect(await probeThrough(() => fixture.adapters.queries).meal(10)).toBeUndefined();
  });

  it.each([
    ['a date without offset', { meals: [meal(10, '2026-03-10T11:00:00')] }],
    ['a date only', { meals: [meal(10, '2026-03-10')] }],
    ['an impossible date', { meals: [meal(10, '2026-02-30T11:00:00Z')] }],
    ['an empty name', { meals: [{ ...meal(10), name: '' }] }],
    ['a string rateable', { meals: [{ ...meal(10), rateable: 'true' }] }],
    ['an unknown field', { meals: [{ ...meal(10), price: 3 }] }],
    ['no meals', { meals: [] }],
    ['a duplicate id', { meals: [meal(10), meal(11), meal(10)] }],
    ['a price as a number', { meals: [{ ...meal(10), prices: { student: 2.6 } }] }],
    ['a price with a comma', { meals: [{ ...meal(10), prices: { student: '2,60' } }] }],
    ['a negative price', { meals: [{ ...meal(10), prices: { student: '-1.00' } }] }],
    ['an unknown price role', { meals: [{ ...meal(10), prices: { guest: '2.60' } }] }],
    ['a blank note', { meals: [{ ...meal(10), notes: ['  '] }] }],
    ['notes as a string', { meals: [{ ...meal(10), notes: 'vegan' }] }],
    ['an empty category', { meals: [{ ...meal(10), category: '' }] }],
    ['a category of 251 characters', { meals: [{ ...meal(10), category: 'x'.repeat(251) }] }],
    ['a name with a line break', { meals: [meal(11), { ...meal(10), name: 'Chili\ncon Carne' }] }],
    ['a name with a tab', { meals: [{ ...meal(10), name: 'Chili\tcon Carne' }] }],
    ['a name with DEL', { meals: [{ ...meal(10), name: 'Chili\u007f' }] }],
    ['a category with a C1 control', { meals: [{ ...meal(10), category: 'Haupt\u0085gericht' }] }],
    ['a note with U+001F', { meals: [{ ...meal(10), notes: ['vegan\u001f'] }] }],
    ['an id over 2^31 - 1', { meals: [meal(11), meal(2 ** 31)] }],
    ['the id 2^53 - 1', { meals: [meal(Number.MAX_SAFE_INTEGER)] }],
  ])('rejects %s with invalid_request, storing nothing', async (_, body) => {
    expectError(await put(body, fixture.token({ scope: 'meals:write' })), 'invalid_request');
    expect(await probeThrough(() => fixture.adapters.queries).meal(10)).toBeUndefined();
    expect(await probeThrough(() => fixture.adapters.queries).meal(11)).toBeUndefined();
  });

  it('answers menu_day_full with 422 when a day of the canteen would serve more than 500 meals, storing nothing', async () => {
    const admin = fixture.token({ scope: 'meals:write' });
    const day = Array.from({ length: 500 }, (_, index) => meal(100 + index, '2026-03-20T12:00:00+01:00'));
    expect((await put({ meals: day }, admin)).statusCode).toBe(200);

    // Midnight in Berlin, the canteen's zone: the first instant of the full day, with a meal for the next day.
    const response = await put(
      { meals: [meal(10, '2026-03-21T00:00:00+01:00'), meal(11, '2026-03-20T00:00:00+01:00')] },
      admin,
    );

    expectError(response, 'menu_day_full');
    expect(response.statusCode).toBe(422);
    expect(response.json().error.message).toBe(
      'The canteen "default" would serve 501 meals on 2026-03-20; a day holds at most 500.',
    );
    expect(await probeThrough(() => fixture.adapters.queries).meal(10)).toBeUndefined();
    expect(await probeThrough(() => fixture.adapters.queries).meal(11)).toBeUndefined();
  });
});

describe('routes and failures', () => {
  it('answers not_found in the envelope for an unknown route or method', async () => {
    expectError(await app.inject({ method: 'GET', url: '/api/v1/nothing' }), 'not_found');
    expectError(await app.inject({ method: 'GET', url: '/api/v1/rate-meal' }), 'not_found');
  });

  it('answers internal_error without internals when an adapter fails', async () => {
    fixture.adapters.ratings.change = async () => {
      throw new Error('disk on fire at /var/lib/secret.db');
    };
    const response = await post('/api/v1/rate-meal', { meal_id: 1, rating: 3 });
    expectError(response, 'internal_error');
    expect(response.body).not.toContain('disk on fire');
    expect(response.body).not.toContain('secret.db');
  });
});

function b64(value: object): string {
  return Buffer.from(JSON.stringify(value)).toString('base64url');
}
