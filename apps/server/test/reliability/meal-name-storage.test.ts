import { FixedClock } from '@meals/adapters-memory';
import { signHmacToken } from '@meals/adapters-http';
import { createSqliteAdapters, openSqliteDatabase } from '@meals/adapters-sqlite';
import { afterAll, describe, expect, it } from 'vitest';
import { buildServer } from '../../src/composition-root.js';
import { loadConfig } from '../../src/config.js';

// Found by the fuzz test: a name starting with a NUL passed validation and then broke SQLite's CHECK (length() stops
// at a NUL): a 500; an unpaired surrogate was acknowledged and stored mangled. Neither can be stored as text faithfully
// (PostgreSQL refuses both in TEXT), so both are refused up front with 400 invalid_request.
const secret = 'meal-name-secret-that-is-at-least-32-bytes';
const db = openSqliteDatabase(':memory:');
const persistence = { ...createSqliteAdapters(db), close: async () => void db.close() };
const config = loadConfig({ NODE_ENV: 'production', JWT_SECRET: secret, DATABASE_URL: 'memory:', LOG_LEVEL: 'silent' });
const server = buildServer(config, { clock: new FixedClock('2026-03-10T12:00:00Z'), persistence });
afterAll(async () => (await server).app.close());

const upsert = async (name: string) =>
  (await server).app.inject({
    method: 'PUT',
    url: '/api/v1/admin/meals',
    headers: { authorization: `Bearer ${signHmacToken(secret, { sub: 'admin', scope: 'meals:write' })}`, 'content-type': 'application/json' },
    payload: `{"meals":[{"meal_id":1,"name":${name},"served_at":"2026-03-10T11:00:00Z","rateable":true}]}`,
  });

describe('meal names that cannot be stored as text', () => {
  it.each([
    ['a leading NUL character', '"\\u0000Soup"'],
    ['a NUL character inside', '"Soup\\u0000of the day"'],
    ['an unpaired high surrogate', '"Soup \\ud800"'],
    ['an unpaired low surrogate', '"\\udc00 Soup"'],
  ])('refuses a name with %s: 400 invalid_request, nothing stored', async (_, name) => {
    const response = await upsert(name);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ status: 'error', error: { code: 'invalid_request', message: expect.stringContaining('meals[0]') } });
    expect(await persistence.meals.count()).toBe(0);
  });

  it('still takes tabs, emoji and combining marks, and stores them exactly', async () => {
    const name = 'Tab\there 🍜 e\u0301';
    expect((await upsert(JSON.stringify(name))).statusCode).toBe(200);
    expect((await persistence.meals.findById(1))?.name).toBe(name);
  });
});
