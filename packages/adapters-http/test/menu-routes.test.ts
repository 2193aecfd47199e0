import { createInMemoryAdapters, FixedClock, InMemoryDatabase } from '@canteen-meals/adapters-memory';
import { createUseCases } from '@canteen-meals/domain';
import { MealMother } from '@canteen-meals/repository-contract';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import {
  buildHttpApp,
  createHmacTokenVerifier,
  signHmacToken,
  type MenuCachingOptions,
  httpUseCasesOf,
} from '../src/index.js';
import { menu, now, secret, timeZone } from './app-fixture.js';

// The canteen `default` serves meals 1 (open) and 2 (not rateable) today, 3 tomorrow, 4 a month ago (Europe/Berlin).
const today = '2026-03-10';
const tomorrow = '2026-03-11';
const publicMenu = `/api/v1/meals?canteen=default&date=${today}`;
const overlay = `/api/v1/me/meals?canteen=default&date=${today}`;
const personalFields = ['marked', 'rating_personal'];

/** Keeps every answer as long as nothing changes it: what the server does, minus the clock's bounds. */
const keepEverything: MenuCachingOptions = {
  entries: 100,
  ratingsMaxAgeMs: 0,
  ttlMs: 60_000,
  maxAgeS: 5,
  staleWhileRevalidateS: 30,
};

const opened: Array<{ close(): Promise<unknown> }> = [];
afterEach(async () => {
  for (const app of opened.splice(0)) await app.close();
});

async function setup(menuCaching?: MenuCachingOptions) {
  const adapters = createInMemoryAdapters(new InMemoryDatabase({ defaultTimeZone: timeZone }));
  await adapters.meals.upsertMany(menu);
  const clock = new FixedClock(now);
  const useCases = createUseCases(adapters, clock, { start: '11:00', timeZone });
  const app = await buildHttpApp({
    useCases: httpUseCasesOf(useCases),
    clock,
    verifyToken: createHmacTokenVerifier({ secret }),
    ...(menuCaching === undefined ? {} : { menuCaching }),
  });
  opened.push(app);
  const bearer = (sub: string, scope?: string) =>
    `Bearer ${signHmacToken(secret, { sub, ...(scope === undefined ? {} : { scope }) })}`;
  const send = (options: InjectOptions) => app.inject(options);
  const get = (url: string, headers: Record<string, string> = {}) => send({ method: 'GET', url, headers });
  const write = async (method: 'POST' | 'PUT' | 'DELETE', url: string, sub: string, body?: unknown, scope?: string) => {
    const response = await send({
      method,
      url,
      headers: {
        authorization: bearer(sub, scope),
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(body === undefined ? {} : { payload: JSON.stringify(body) }),
    });
    expect(response.statusCode, response.body).toBeLessThan(300);
    return response;
  };
  const rate = (sub: string, mealId: number, rating: number | null) =>
    write('POST', '/api/v1/rate-meal', sub, { meal_id: mealId, rating });
  const mark = (sub: string, mealId: number, marked: boolean) =>
    write('POST', '/api/v1/mark-meal', sub, { meal_id: mealId, marked });
  return { app, adapters, clock, useCases, bearer, get, write, rate, mark };
}

type Meal = Record<string, unknown> & { meal_id: number };
const mealsOf = (response: LightMyRequestResponse) => (response.json() as { data: { meals: Meal[] } }).data.meals;
const etagOf = (response: LightMyRequestResponse) => String(response.headers.etag);

describe('GET /api/v1/meals?canteen=&date= without a token: the public menu', () => {
  it('answers every meal without a personal field, cacheable by anyone, with a strong ETag and Vary: Authorization', async () => {
    const { get, rate, mark, bearer } = await setup();
    await rate('alice', 1, 4);
    await mark('alice', 1, true);

    const response = await get(publicMenu);

    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(response.headers['cache-control']).toBe('public, max-age=5, stale-while-revalidate=30');
    expect(response.headers.etag).toMatch(/^"[A-Za-z0-9_-]{27}"$/);
    expect(String(response.headers.vary).toLowerCase()).toContain('authorization');
    const meals = mealsOf(response);
    expect(meals.map((meal) => meal.meal_id)).toEqual([1, 2]);
    for (const meal of meals) for (const field of personalFields) expect(meal).not.toHaveProperty(field);
    expect(response.json()).toMatchObject({ status: 'success', data: { unknown_ids: [] } });
    expect(meals[0]).toMatchObject({ rating_count: 1, rating_average: 4, rating_distribution: { 4: 1 } });

    // The personalized answer is the same menu with the caller's own fields, and private.
    const personal = await get(publicMenu, { authorization: bearer('alice') });
    expect(personal.statusCode).toBe(200);
    expect(personal.headers['cache-control']).toBe('private, no-store');
    expect(String(personal.headers.vary).toLowerCase()).toContain('authorization');
    expect(personal.headers.etag).toBeUndefined();
    const personalMeals = mealsOf(personal);
    expect(personalMeals.map(({ marked, rating_personal, ...rest }) => rest)).toEqual(meals);
    expect(personalMeals.map((meal) => [meal.marked, meal.rating_personal])).toEqual([
      [true, 4],
      [false, null],
    ]);
  });

  it('answers 304 with no body to If-None-Match with the current tag (weak or in a list too), 200 to any other', async () => {
    const { get } = await setup();
    const tag = etagOf(await get(publicMenu));

    for (const ifNoneMatch of [tag, `W/${tag}`, `"other", ${tag}`, '*']) {
      const revalidated = await get(publicMenu, { 'if-none-match': ifNoneMatch });
      expect(revalidated.statusCode, ifNoneMatch).toBe(304);
      expect(revalidated.body).toBe('');
      expect(revalidated.headers.etag).toBe(tag);
      expect(revalidated.headers['cache-control']).toBe('public, max-age=5, stale-while-revalidate=30');
    }
    const changed = await get(publicMenu, { 'if-none-match': '"an-older-tag"' });
    expect(changed.statusCode).toBe(200);
    expect(mealsOf(changed)).toHaveLength(2);
  });

  it('gives the same tag to the same answer however the days are asked for, and across apps (instances)', async () => {
    const first = await setup(keepEverything);
    const second = await setup();
    const tag = etagOf(await first.get(publicMenu));
    expect(etagOf(await first.get(`/api/v1/meals?canteen=default&from=${today}&to=${today}`))).toBe(tag);
    expect(etagOf(await second.get(publicMenu))).toBe(tag);
    expect(etagOf(await first.get(`/api/v1/meals?canteen=default&date=${tomorrow}`))).not.toBe(tag);
  });

  it('refuses in the envelope what it cannot answer: an unknown canteen, a range too long, a bad token', async () => {
    const { get } = await setup();
    const unknown = await get(`/api/v1/meals?canteen=nowhere&date=${today}`);
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toMatchObject({ status: 'error', error: { code: 'canteen_not_found' } });
    const tooLong = await get('/api/v1/meals?canteen=default&from=2026-03-01&to=2026-03-31');
    expect(tooLong.statusCode).toBe(400);
    expect(tooLong.json()).toMatchObject({ status: 'error', error: { code: 'invalid_request' } });
    const badToken = await get(publicMenu, { authorization: 'Bearer not-a-token' });
    expect(badToken.statusCode).toBe(401);
    expect(badToken.json()).toMatchObject({ status: 'error', error: { code: 'invalid_token' } });
    for (const url of ['/api/v1/meals?ids=1,2', `/api/v1/meals?date=${today}`]) {
      const personalOnly = await get(url);
      expect(personalOnly.statusCode, url).toBe(401);
      expect(personalOnly.json()).toMatchObject({ status: 'error', error: { code: 'unauthenticated' } });
    }
  });
});

describe.each([
  ['read afresh every time', undefined],
  ['kept in the process', keepEverything],
])('the public menu, %s, changes its tag on every kind of change', (_name, caching) => {
  it('a rating, and its deletion', async () => {
    const { get, rate } = await setup(caching);
    const before = etagOf(await get(publicMenu));
    await rate('bob', 1, 5);
    const rated = await get(publicMenu);
    expect(etagOf(rated)).not.toBe(before);
    expect(mealsOf(rated)[0]).toMatchObject({ rating_count: 1, rating_average: 5 });
    await rate('bob', 1, null);
    const deleted = await get(publicMenu);
    expect(mealsOf(deleted)[0]).toMatchObject({ rating_count: 0 });
    expect(etagOf(deleted)).toBe(before);
  });

  it('a rating of another serving of a dish the menu shows (the dish figures move)', async () => {
    const { get, rate, write } = await setup(caching);
    // Meal 5, served yesterday, is a serving of the same dish as meal 1 (same name, same canteen).
    const yesterday = MealMother.servedDaysAgo(now, 1, { id: 5, name: 'Open meal' });
    await write(
      'PUT',
      '/api/v1/admin/meals',
      'admin',
      { meals: [{ meal_id: 5, name: yesterday.name, served_at: yesterday.servedAt.toISOString(), rateable: true }] },
      'meals:write',
    );
    const before = await get(publicMenu);
    await rate('bob', 5, 2);
    const after = await get(publicMenu);
    expect(etagOf(after)).not.toBe(etagOf(before));
    expect((mealsOf(after)[0]!.dish as { rating_count: number }).rating_count).toBe(1);
  });

  it('an upsert, a withdrawal, an import, a dish merge and a canteen saved with another time zone', async () => {
    const { get, write, useCases } = await setup(caching);
    const tags = [etagOf(await get(publicMenu))];
    const changed = async () => {
      const tag = etagOf(await get(publicMenu));
      expect(tags).not.toContain(tag);
      tags.push(tag);
      return tag;
    };

    await write(
      'PUT',
      '/api/v1/admin/meals',
      'admin',
      {
        meals: [{ meal_id: 2, name: 'Salad bar, larger', served_at: menu[1]!.servedAt.toISOString(), rateable: false }],
      },
      'meals:write',
    );
    await changed();
    await write('DELETE', '/api/v1/admin/meals/2', 'admin', undefined, 'meals:write');
    expect(mealsOf(await get(publicMenu)).map((meal) => meal.meal_id)).toEqual([1]);
    await changed();
    const imported = await useCases.importMenu.execute({
      source: 'Mensa',
      rateable: true,
      days: [
        { date: today, closed: false, items: [{ category: 'Suppe', name: 'Lentil soup', notes: [], prices: {} }] },
      ],
    });
    expect(imported).toMatchObject({ ok: true });
    expect(mealsOf(await get(publicMenu)).map((meal) => meal.name)).toContain('Lentil soup');
    await changed();
    const served = mealsOf(await get(publicMenu));
    const open = served.find((meal) => meal.meal_id === 1)!;
    const soup = served.find((meal) => meal.name === 'Lentil soup')!;
    const merged = await useCases.mergeDishes.execute({
      target: open.dish_id as number,
      from: [soup.dish_id as number],
    });
    expect(merged).toMatchObject({ ok: true });
    await changed();
    // On the clocks of Pacific/Kiritimati (UTC+14) the meals of the Berlin day 2026-03-10 fall on the 11th.
    await write(
      'PUT',
      '/api/v1/admin/canteens/default',
      'admin',
      { name: 'Mensa', timezone: 'Pacific/Kiritimati' },
      'meals:write',
    );
    expect(await changed()).toBeDefined();
  });

  it('not a marking: the public menu holds nothing personal', async () => {
    const { get, mark } = await setup(caching);
    const before = etagOf(await get(publicMenu));
    await mark('alice', 1, true);
    expect(etagOf(await get(publicMenu))).toBe(before);
  });
});

describe('kept public menus', () => {
  it('serve a rating at most ratingsMaxAgeMs late on the instance that took it, and exact after', async () => {
    const { get, rate, clock } = await setup({ ...keepEverything, ratingsMaxAgeMs: 1000 });
    const before = etagOf(await get(publicMenu));
    await rate('bob', 1, 5);
    clock.set(now.getTime() + 999);
    expect(etagOf(await get(publicMenu))).toBe(before);
    clock.set(now.getTime() + 1000);
    const fresh = await get(publicMenu);
    expect(etagOf(fresh)).not.toBe(before);
    expect(mealsOf(fresh)[0]).toMatchObject({ rating_count: 1 });
  });

  it('change when the clock alone changes the answer: a meal becomes rateable at its serving time', async () => {
    const { get, clock } = await setup(keepEverything);
    const tomorrowMenu = `/api/v1/meals?canteen=default&date=${tomorrow}`;
    const before = await get(tomorrowMenu);
    expect(mealsOf(before)[0]).toMatchObject({ meal_id: 3, rating_open: false });
    clock.set(menu[2]!.servedAt.getTime() - 1);
    expect(etagOf(await get(tomorrowMenu))).toBe(etagOf(before));
    clock.set(menu[2]!.servedAt);
    const served = await get(tomorrowMenu);
    expect(mealsOf(served)[0]).toMatchObject({ meal_id: 3, rating_open: true });
    expect(etagOf(served)).not.toBe(etagOf(before));
  });

  it('show writes nobody announced (another instance, a command-line tool) once ttlMs has passed', async () => {
    const { get, adapters, clock } = await setup({ ...keepEverything, ttlMs: 4000 });
    const before = etagOf(await get(publicMenu));
    // Straight into the database, as another instance sharing it would write: this app is told nothing.
    await adapters.meals.upsertMany([{ ...menu[1]!, name: 'Renamed elsewhere' }]);
    clock.set(now.getTime() + 3999);
    expect(etagOf(await get(publicMenu))).toBe(before);
    clock.set(now.getTime() + 4000);
    expect(mealsOf(await get(publicMenu)).map((meal) => meal.name)).toContain('Renamed elsewhere');
  });

  it('are not kept at all without settings: a write behind the app shows at once', async () => {
    const { get, adapters } = await setup();
    await get(publicMenu);
    await adapters.meals.upsertMany([{ ...menu[1]!, name: 'Renamed elsewhere' }]);
    expect(mealsOf(await get(publicMenu)).map((meal) => meal.name)).toContain('Renamed elsewhere');
  });
});

describe('GET /api/v1/me/meals: the personal overlay of a menu', () => {
  it("answers only the caller's marked or rated meals of those days, with a private tag", async () => {
    const { get, rate, mark, bearer } = await setup();
    await mark('alice', 1, true);
    await rate('alice', 1, 3);
    await mark('alice', 2, true);
    await mark('alice', 3, true); // tomorrow: not in today's overlay
    await rate('bob', 1, 5);

    const response = await get(overlay, { authorization: bearer('alice') });

    expect(response.statusCode).toBe(200);
    expect(response.headers['cache-control']).toBe('private, no-cache');
    expect(response.headers.etag).toMatch(/^"[A-Za-z0-9_-]{22}"$/);
    expect(response.json()).toEqual({
      status: 'success',
      data: {
        meals: [
          { meal_id: 1, marked: true, rating_personal: 3 },
          { meal_id: 2, marked: true, rating_personal: null },
        ],
      },
    });
    const bobs = await get(overlay, { authorization: bearer('bob') });
    expect(bobs.json()).toEqual({
      status: 'success',
      data: { meals: [{ meal_id: 1, marked: false, rating_personal: 5 }] },
    });
    const carols = await get(`/api/v1/me/meals?canteen=default&from=${today}&to=${tomorrow}`, {
      authorization: bearer('carol'),
    });
    expect(carols.json()).toEqual({ status: 'success', data: { meals: [] } });
  });

  it('answers 304 while nothing of the caller changed, and a new tag after a marking or a rating', async () => {
    const { get, mark, rate, bearer } = await setup();
    const alice = { authorization: bearer('alice') };
    await mark('alice', 1, true);
    const tag = etagOf(await get(overlay, alice));
    expect((await get(overlay, { ...alice, 'if-none-match': tag })).statusCode).toBe(304);
    await rate('bob', 1, 4); // somebody else: the overlay stays
    expect((await get(overlay, { ...alice, 'if-none-match': tag })).statusCode).toBe(304);

    await mark('alice', 1, false);
    const unmarked = await get(overlay, { ...alice, 'if-none-match': tag });
    expect(unmarked.statusCode).toBe(200);
    expect(unmarked.json().data.meals).toEqual([]);
    await rate('alice', 1, 2);
    const rated = await get(overlay, { ...alice, 'if-none-match': etagOf(unmarked) });
    expect(rated.statusCode).toBe(200);
    expect(rated.json().data.meals).toEqual([{ meal_id: 1, marked: false, rating_personal: 2 }]);
  });

  it('needs a token and a canteen with its days', async () => {
    const { get, bearer } = await setup();
    const anonymous = await get(overlay);
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.json()).toMatchObject({ status: 'error', error: { code: 'unauthenticated' } });
    const alice = { authorization: bearer('alice') };
    for (const [url, status, code] of [
      [`/api/v1/me/meals?date=${today}`, 400, 'invalid_request'],
      ['/api/v1/me/meals?canteen=default', 400, 'invalid_request'],
      [`/api/v1/me/meals?canteen=default&date=${today}&from=${today}&to=${today}`, 400, 'invalid_request'],
      [`/api/v1/me/meals?canteen=default&date=2026-02-30`, 400, 'invalid_request'],
      [`/api/v1/me/meals?canteen=default&date=${today}&ids=1`, 400, 'invalid_request'],
      [`/api/v1/me/meals?canteen=nowhere&date=${today}`, 404, 'canteen_not_found'],
    ] as const) {
      const response = await get(url, alice);
      expect(response.statusCode, url).toBe(status);
      expect(response.json(), url).toMatchObject({ status: 'error', error: { code } });
    }
  });
});

describe("GET /api/v1/meals?date= without canteen: every canteen's day, in pages", () => {
  it('answers at most 500 meals a page, in menu order, and every meal once across the pages', async () => {
    const { adapters, get, bearer, write } = await setup();
    await write(
      'PUT',
      '/api/v1/admin/canteens/bistro',
      'admin',
      { name: 'Bistro', timezone: 'Europe/Berlin' },
      'meals:write',
    );
    // 300 meals of `default` and 250 of `bistro` today, at two serving times, many sharing a time and a position.
    const served = (hour: number) => new Date(`${today}T${String(hour).padStart(2, '0')}:00:00Z`);
    await adapters.meals.upsertMany(
      Array.from({ length: 550 }, (_, i) => ({
        ...MealMother.servedAt(served(i % 2 === 0 ? 10 : 12), { id: 1000 + i, name: `Dish ${i}` }),
        canteenId: i < 300 ? 'default' : 'bistro',
        position: i % 7,
      })),
    );
    const alice = { authorization: bearer('alice') };
    const first = await get(`/api/v1/meals?date=${today}`, alice);
    expect(first.statusCode, first.body).toBe(200);
    expect(first.headers['cache-control']).toBe('private, no-store');
    const firstPage = first.json().data as { meals: Meal[]; next_cursor: string | null };
    expect(firstPage.meals).toHaveLength(500);
    expect(firstPage.next_cursor).toEqual(expect.any(String));

    const second = await get(`/api/v1/meals?date=${today}&cursor=${firstPage.next_cursor}`, alice);
    const secondPage = second.json().data as { meals: Meal[]; next_cursor: string | null };
    expect(secondPage.next_cursor).toBeNull();
    const all = [...firstPage.meals, ...secondPage.meals];
    // Today's meals 1 and 2 of the fixture, and the 550.
    expect(all).toHaveLength(552);
    expect(new Set(all.map((meal) => meal.meal_id)).size).toBe(552);
    const order = all.map((meal) => [Date.parse(meal.served_at as string), meal.meal_id] as const);
    const positions = new Map([...adapters.db.meals.values()].map((meal) => [meal.id, meal.position] as const));
    const key = ([at, id]: readonly [number, number]) => [at, positions.get(id)!, id];
    for (let i = 1; i < order.length; i++) {
      const [a, b] = [key(order[i - 1]!), key(order[i]!)];
      expect(
        a[0]! < b[0]! || (a[0] === b[0] && (a[1]! < b[1]! || (a[1] === b[1] && a[2]! < b[2]!))),
        `${a} before ${b}`,
      ).toBe(true);
    }
  });

  it('refuses a cursor of another day or another user, and a cursor with anything but date', async () => {
    const { adapters, get, bearer } = await setup();
    await adapters.meals.upsertMany(
      Array.from({ length: 501 }, (_, i) => MealMother.servedToday(now, { id: 1000 + i, name: `Dish ${i}` })),
    );
    const alice = { authorization: bearer('alice') };
    const cursor = (await get(`/api/v1/meals?date=${today}`, alice)).json().data.next_cursor as string;
    expect(cursor).toEqual(expect.any(String));
    for (const [url, headers, code] of [
      [`/api/v1/meals?date=${tomorrow}&cursor=${cursor}`, alice, 'invalid_cursor'],
      [`/api/v1/meals?date=${today}&cursor=${cursor}`, { authorization: bearer('bob') }, 'invalid_cursor'],
      [`/api/v1/meals?date=${today}&cursor=made-up`, alice, 'invalid_cursor'],
      [`/api/v1/meals?ids=1&cursor=${cursor}`, alice, 'invalid_request'],
      [`/api/v1/meals?canteen=default&date=${today}&cursor=${cursor}`, alice, 'invalid_request'],
      [`/api/v1/meals?canteen=default&date=${today}&cursor=${cursor}`, {}, 'invalid_request'],
    ] as const) {
      const response = await get(url, headers);
      expect(response.json(), url).toMatchObject({ status: 'error', error: { code } });
    }
  });
});

// Issue 26: `today` and `tomorrow` are days on the canteen's calendar, not the server's.
describe('GET /api/v1/meals?canteen=&date=today|tomorrow', () => {
  it("answers the same menu as the canteen's calendar day, in the canteen's time zone", async () => {
    const { get, write, bearer } = await setup();
    const idsOf = async (url: string, headers: Record<string, string> = {}) => {
      const response = await get(url, headers);
      expect(response.statusCode, response.body).toBe(200);
      return mealsOf(response).map((meal) => meal.meal_id);
    };
    expect(await idsOf('/api/v1/meals?canteen=default&date=today')).toEqual(await idsOf(publicMenu));
    expect(await idsOf('/api/v1/meals?canteen=default&date=tomorrow')).toEqual(
      await idsOf(`/api/v1/meals?canteen=default&date=${tomorrow}`),
    );
    expect(await idsOf('/api/v1/meals?canteen=default&date=tomorrow')).toEqual([3]);
    const personal = await get('/api/v1/me/meals?canteen=default&date=today', { authorization: bearer('alice') });
    expect(personal.statusCode).toBe(200);

    // 12:00 UTC on 2026-03-10 is already 2026-03-11 in Auckland: there, today is the day that is tomorrow in Berlin.
    await write(
      'PUT',
      '/api/v1/admin/canteens/auckland',
      'admin',
      { name: 'Auckland', timezone: 'Pacific/Auckland' },
      'meals:write',
    );
    await write(
      'PUT',
      '/api/v1/admin/meals',
      'admin',
      MealMother.upsertBody({
        ...MealMother.servedAt(new Date('2026-03-11T00:00:00Z'), { id: 90, name: 'Pie' }),
        canteenId: 'auckland',
      }),
      'meals:write',
    );
    expect(await idsOf('/api/v1/meals?canteen=auckland&date=today')).toEqual([90]);
    expect(await idsOf('/api/v1/meals?canteen=auckland&date=2026-03-11')).toEqual([90]);
  });

  it('refuses today without a canteen (every canteen has its own calendar) and an unknown canteen', async () => {
    const { get, bearer } = await setup();
    const alone = await get('/api/v1/meals?date=today', { authorization: bearer('alice') });
    expect(alone.statusCode).toBe(400);
    expect(alone.json().error).toEqual({
      code: 'invalid_request',
      message: "date=today needs canteen: it is a day on that canteen's calendar.",
    });
    const unknown = await get('/api/v1/meals?canteen=nowhere&date=tomorrow');
    expect([unknown.statusCode, unknown.json().error.code]).toEqual([404, 'canteen_not_found']);
  });
});
