import { signHmacToken } from '@canteen-meals/adapters-http';
import { FixedClock } from '@canteen-meals/adapters-memory';
import { createSqliteAdapters, openSqliteDatabase } from '@canteen-meals/adapters-sqlite';
import type { Meal } from '@canteen-meals/domain';
import { MealMother } from '@canteen-meals/repository-contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildServer } from '../src/composition-root.js';
import { ConfigError, loadConfig } from '../src/config.js';

const secret = 'read-side-secret-of-at-least-32-bytes!!';

describe('TZ_NAME', () => {
  it('defaults to Europe/Berlin and takes any IANA zone', () => {
    expect(loadConfig({}).timeZone).toBe('Europe/Berlin');
    expect(loadConfig({ TZ_NAME: 'America/New_York' }).timeZone).toBe('America/New_York');
  });

  it('refuses a name that is not a time zone', () => {
    expect(() => loadConfig({ TZ_NAME: 'Mars/Olympus_Mons' })).toThrow(ConfigError);
    expect(() => loadConfig({ TZ_NAME: 'Europe/Berlin; drop table' })).toThrow(/TZ_NAME/);
  });
});

describe('the wired server on SQLite', () => {
  const executed: string[] = [];
  const db = openSqliteDatabase(':memory:', {
    defaultTimeZone: 'Asia/Tokyo',
    onStatement: (sql) => executed.push(sql),
  });
  const now = new Date('2026-06-15T12:00:00Z');
  // 100 meals served on 2026-06-15 in Tokyo (UTC+9): from 2026-06-14T15:00Z to 2026-06-15T15:00Z.
  const menu: Meal[] = Array.from({ length: 100 }, (_, index) =>
    MealMother.servedAt(new Date(Date.parse('2026-06-14T15:00:00Z') + index * 60_000), { id: index + 1 }),
  );
  const token = signHmacToken(secret, { sub: 'alice' });
  let server: Awaited<ReturnType<typeof buildServer>>;

  beforeAll(async () => {
    const config = loadConfig({
      JWT_SECRET: secret,
      DATABASE_URL: 'memory:',
      LOG_LEVEL: 'silent',
      TZ_NAME: 'Asia/Tokyo',
    });
    const persistence = { ...createSqliteAdapters(db), ping: async () => {}, close: async () => void db.close() };
    server = await buildServer(config, { clock: new FixedClock(now), persistence });
    await persistence.meals.upsertMany(menu);
    for (const meal of menu) await persistence.markings.setMarked('alice', meal.id, true);
  });
  afterAll(() => server.app.close());

  async function get(url: string) {
    executed.length = 0;
    const response = await server.app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${token}` } });
    expect(response.statusCode).toBe(200);
    return { data: response.json().data, statements: executed.length };
  }

  it("answers GET /meals?ids= for 1, 10 and 100 meals with the same two statements (the meals, the reader's preferences)", async () => {
    const counts: number[] = [];
    for (const size of [1, 10, 100]) {
      const ids = menu.slice(0, size).map((meal) => meal.id);
      const { data, statements } = await get(`/api/v1/meals?ids=${ids.join(',')}`);
      expect(data.meals.map((meal: { meal_id: number }) => meal.meal_id)).toEqual(ids);
      counts.push(statements);
    }
    // One for the meals, one for the reader's preferences (label filter and aversions).
    expect(counts).toEqual([2, 2, 2]);
  });

  it("answers GET /meals?date= with the day of the default canteen's zone (TZ_NAME), in three statements (with the reader's preferences)", async () => {
    const { data, statements } = await get('/api/v1/meals?date=2026-06-15');
    expect(data.meals).toHaveLength(100);
    expect(data.meals[0]).toMatchObject({
      meal_id: 1,
      served_at: '2026-06-14T15:00:00.000Z',
      marked: true,
      rating_open: true,
    });
    // The canteens (each day is judged on its canteen's clocks), then every meal of every canteen at once.
    // And one for the reader's preferences.
    expect(statements).toBe(3);
    expect((await get('/api/v1/meals?date=2026-06-14')).data.meals).toEqual([]);
  });

  it("answers GET /me/upcoming with today's favourites on the canteen's clocks (TZ_NAME), in three statements (with the reader's preferences)", async () => {
    const { data, statements } = await get('/api/v1/me/upcoming?days=1');
    expect(data.truncated).toBe(false);
    expect(data.servings).toHaveLength(100);
    expect(data.servings[0]).toMatchObject({
      meal_id: 1,
      date: '2026-06-15',
      served_at: '2026-06-14T15:00:00.000Z',
      marked: true,
    });
    // The canteens (each day is judged on its canteen's clocks), then the servings of every favourite dish at once.
    expect(statements).toBe(3);
  });

  it("answers a canteen's personalized menu and /me/meals from what the process keeps, and reads again after the reader's own writes", async () => {
    const day = 'canteen=default&date=2026-06-15';
    const urls = [`/api/v1/meals?${day}`, `/api/v1/me/meals?${day}`];
    const send = (method: 'POST' | 'PUT', url: string, payload: object) =>
      server.app.inject({ method, url, headers: { authorization: `Bearer ${token}` }, payload });
    const firstOf = async (url: string) => {
      const { data, statements } = await get(url);
      return { count: data.meals.length, first: data.meals[0], statements };
    };
    // The first reads keep the public menu and the reader's part (their states with their preferences, one statement).
    for (const url of urls) await get(url);
    for (const url of urls)
      expect(await firstOf(url)).toMatchObject({ count: 100, first: { meal_id: 1, marked: true }, statements: 0 });

    // The reader's own marking, through the API: the next reads show it at once.
    expect((await send('POST', '/api/v1/mark-meal', { meal_id: 1, marked: false })).statusCode).toBe(200);
    expect((await firstOf(urls[0]!)).first).toMatchObject({ meal_id: 1, marked: false });
    expect((await firstOf(urls[1]!)).first).toMatchObject({ meal_id: 2, marked: true });
    // And their preferences: a filter no meal passes, then none.
    expect((await send('PUT', '/api/v1/me/preferences', { without: [], only: ['vegan'] })).statusCode).toBe(200);
    for (const url of urls) expect((await firstOf(url)).count).toBe(0);
    expect((await send('PUT', '/api/v1/me/preferences', { without: [], only: [] })).statusCode).toBe(200);
    expect((await send('POST', '/api/v1/mark-meal', { meal_id: 1, marked: true })).statusCode).toBe(200);
    for (const url of urls)
      expect(await firstOf(url)).toMatchObject({ count: 100, first: { meal_id: 1, marked: true } });
    for (const url of urls) expect((await firstOf(url)).statements).toBe(0);
  });

  it('answers the marked meals page by page, one statement per page', async () => {
    const first = await get('/api/v1/marked-meals?limit=100');
    expect(first.data.meals).toHaveLength(100);
    expect(first.data.meals[0].meal_id).toBe(100);
    expect(first.data.next_cursor).toBeNull();
    expect(first.statements).toBe(1);
  });
});
