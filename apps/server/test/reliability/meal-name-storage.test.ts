import { probeThrough } from '@canteen-meals/repository-contract';
import { signHmacToken } from '@canteen-meals/adapters-http';
import { afterAll, describe, expect, it } from 'vitest';
import { buildInProcessApp } from './support/in-process-app.js';

// Found by the fuzz test: a name starting with a NUL passed validation and then broke SQLite's CHECK (length() stops
// at a NUL): a 500; an unpaired surrogate was acknowledged and stored mangled. Neither can be stored as text
// faithfully (PostgreSQL refuses both in TEXT), so both are refused up front with 400 invalid_request.
const secret = 'meal-name-secret-that-is-at-least-32-bytes';
const admin = signHmacToken(secret, { sub: 'admin', scope: 'meals:write' });
const fixture = buildInProcessApp({ secret, now: Date.parse('2026-03-10T12:00:00Z'), menu: [] });
afterAll(async () => (await fixture).app.close());

const upsert = async (nameJson: string) =>
  (await fixture).app.inject({
    method: 'PUT',
    url: '/api/v1/admin/meals',
    headers: { authorization: `Bearer ${admin}`, 'content-type': 'application/json' },
    payload: `{"meals":[{"meal_id":1,"name":${nameJson},"served_at":"2026-03-10T11:00:00Z","rateable":true}]}`,
  });

describe('meal names that cannot be stored as text, or hold a control character', () => {
  it.each([
    ['a leading NUL character', '"\\u0000Soup"'],
    ['a NUL character inside', '"Soup\\u0000of the day"'],
    ['an unpaired high surrogate', '"Soup \\ud800"'],
    ['an unpaired low surrogate', '"\\udc00 Soup"'],
    ['a tab (a control character)', '"Tab\\there"'],
    ['a C1 control character', '"Soup\\u0085of the day"'],
  ])('refuses a name with %s: 400 invalid_request, nothing stored', async (_, nameJson) => {
    const response = await upsert(nameJson);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({
      status: 'error',
      error: { code: 'invalid_request', message: expect.stringContaining('meals[0]') },
    });
    expect(await (await fixture).persistence.meals.count()).toBe(0);
  });

  it('still takes no-break spaces, emoji, paired surrogates and combining marks, and stores them exactly', async () => {
    const name = 'No-break\u00a0space 🍜 e\u0301';
    expect((await upsert(JSON.stringify(name))).statusCode).toBe(200);
    const { persistence } = await fixture;
    expect((await probeThrough(() => persistence.queries).meal(1))?.name).toBe(name);
  });
});
