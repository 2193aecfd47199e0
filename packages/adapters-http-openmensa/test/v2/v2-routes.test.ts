import type { Canteen, MenuDay } from '@canteen-meals/domain';
import { request as httpRequest } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { academica, item, today, v2App } from './v2-fixture.js';

type App = Awaited<ReturnType<typeof v2App>>;
let current: App | undefined;
afterEach(() => current?.app.close());
const open = async (options: Parameters<typeof v2App>[0] = {}) => (current = await v2App(options));

const menu: MenuDay[] = [
  {
    date: today,
    closed: false,
    items: [
      item('Currywurst', { prices: { student: '3.00', employee: '4.50', other: '5.125' }, notes: ['Schwein', 'Senf'] }),
      item('Salatbar', { category: 'Beilagen' }),
    ],
  },
  { date: '2026-03-11', closed: true },
  { date: '2026-03-12', closed: false, items: [item('Ramen')] },
  { date: '2026-03-09', closed: false, items: [item('Gestern')] },
];

const bare: Canteen = {
  id: 'bistro',
  name: 'Bistro',
  timeZone: 'UTC',
  city: null,
  address: null,
  coordinates: null,
  feeds: [],
  openmensaId: 3,
};

describe('GET /api/v2/canteens', () => {
  it('answers the canteens by id, as openmensa.org writes them: keys in its order, coordinates [lat, lng], city never null', async () => {
    const { get } = await open({ canteens: [academica, bare] });
    const response = await get('/api/v2/canteens');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(response.headers['x-om-api-version']).toBe('2');
    expect(response.body).toBe(
      '[{"id":1,"name":"Default canteen","city":"","address":null,"coordinates":null},' +
        '{"id":3,"name":"Bistro","city":"","address":null,"coordinates":null},' +
        '{"id":187,"name":"Mensa Academica","city":"Aachen","address":"Pontwall 3, 52062 Aachen","coordinates":[50.77964,6.07838]}]',
    );
  });

  it('ignores parameters it does not know, as openmensa.org does', async () => {
    const { get } = await open();
    expect((await get('/api/v2/canteens?colour=red')).statusCode).toBe(200);
    expect((await get('/api/v2/canteens/187?colour=red')).json().id).toBe(187);
  });

  it('writes whole coordinates as Ruby floats', async () => {
    const { get } = await open({ canteens: [{ ...academica, coordinates: { lat: 50, lng: -6 } }] });
    expect((await get('/api/v2/canteens/187')).body).toContain('"coordinates":[50.0,-6.0]');
  });

  describe('paging, as paginate-responder', () => {
    const many = Array.from(
      { length: 12 },
      (_, index): Canteen => ({ ...bare, id: `c-${index}`, name: `C ${index}`, openmensaId: 10 + index }),
    );

    it('adds Link and X-* headers: limit=5 of 13 canteens is 3 pages', async () => {
      const { get } = await open({ canteens: many });
      const response = await get('/api/v2/canteens?limit=5');
      expect(response.json()).toHaveLength(5);
      expect(response.headers.link).toBe(
        '<http://localhost:80/api/v2/canteens?limit=5&page=1>; rel="first", ' +
          '<http://localhost:80/api/v2/canteens?limit=5&page=2>; rel="next", ' +
          '<http://localhost:80/api/v2/canteens?limit=5&page=3>; rel="last"',
      );
      expect(response.headers).toMatchObject({
        'x-total-pages': '3',
        'x-total-count': '13',
        'x-per-page': '5',
        'x-current-page': '1',
      });
      const middle = await get('/api/v2/canteens?limit=5&page=2&hasCoordinates=');
      expect(middle.headers.link).toContain(
        '<http://localhost:80/api/v2/canteens?hasCoordinates=&limit=5&page=1>; rel="prev"',
      );
      expect(middle.headers.link).toContain('rel="next"');
      const last = await get('/api/v2/canteens?limit=5&page=3');
      expect(last.json()).toHaveLength(3);
      expect(last.headers.link).not.toContain('rel="next"');
    });

    it('lets per_page win over limit, clamps it to 1..1500, defaults to 500, and writes per_page as used', async () => {
      const { get } = await open({ canteens: many });
      expect((await get('/api/v2/canteens?per_page=2&limit=7')).json()).toHaveLength(2);
      expect((await get('/api/v2/canteens')).headers['x-per-page']).toBe('500');
      expect((await get('/api/v2/canteens?limit=99999')).headers['x-per-page']).toBe('1500');
      const zero = await get('/api/v2/canteens?per_page=0');
      expect(zero.json()).toHaveLength(1);
      expect(zero.headers['x-per-page']).toBe('1');
      expect(zero.headers.link).toContain('/api/v2/canteens?page=2&per_page=1>; rel="next"');
      expect((await get('/api/v2/canteens?per_page=abc')).headers['x-per-page']).toBe('1');
    });

    it('answers 200 [] past the end, with at least one page, and 400 for a page below 1', async () => {
      const { get } = await open({ canteens: many });
      const past = await get('/api/v2/canteens?page=9');
      expect([past.statusCode, past.body]).toEqual([200, '[]']);
      expect(past.headers).toMatchObject({ 'x-total-pages': '1', 'x-current-page': '9' });
      for (const page of ['0', '-1']) {
        const refused = await get(`/api/v2/canteens?page=${page}`);
        expect([refused.statusCode, refused.body]).toEqual([400, 'Page must be > 1!']);
        expect(refused.headers['x-om-api-version']).toBe('2');
      }
      expect((await get('/api/v2/canteens?page=abc')).headers['x-current-page']).toBe('1');
    });

    it('builds the links from the forwarded host and protocol behind a trusted proxy', async () => {
      const { get } = await open({ canteens: many, trustProxy: true });
      const response = await get('/api/v2/canteens?limit=5', {
        'x-forwarded-proto': 'https',
        'x-forwarded-host': 'mensa.example',
      });
      expect(response.headers.link).toContain('<https://mensa.example/api/v2/canteens?limit=5&page=2>; rel="next"');
    });

    it('names in the links the host and query each request asked, though the answer is kept for all of them', async () => {
      const { get } = await open({ canteens: many, trustProxy: true });
      const next = async (path: string, host: string) =>
        (await get(path, { 'x-forwarded-proto': 'https', 'x-forwarded-host': host })).headers.link as string;
      for (let round = 0; round < 2; round++) {
        expect(await next('/api/v2/canteens?limit=5', 'a.example')).toContain(
          '<https://a.example/api/v2/canteens?limit=5&page=2>; rel="next"',
        );
        expect(await next('/api/v2/canteens?limit=5', 'b.example')).toContain(
          '<https://b.example/api/v2/canteens?limit=5&page=2>; rel="next"',
        );
        expect(await next('/api/v2/canteens?limit=5&colour=red', 'a.example')).toContain(
          '<https://a.example/api/v2/canteens?colour=red&limit=5&page=2>; rel="next"',
        );
      }
    });
  });

  describe('a hostile Host header (issue 39)', () => {
    const many = Array.from(
      { length: 12 },
      (_, index): Canteen => ({ ...bare, id: `c-${index}`, name: `C ${index}`, openmensaId: 10 + index }),
    );
    const hostile = [
      'evil.example>; rel="next", <javascript:alert(1)',
      'a.example;rel=next',
      'a"b.example',
      'a.example, <https://evil.example/>',
      'a.example/path',
    ];

    it.each(hostile.map((host) => [host]))('writes no link of its own into Link: %s', async (host) => {
      const { get } = await open({ canteens: many });
      const response = await get('/api/v2/canteens?limit=5', { host });
      expect(response.statusCode).toBe(200);
      // Relative links, on the request's own path: one entry per relation, nothing from the header.
      expect(response.headers.link).toBe(
        '</api/v2/canteens?limit=5&page=1>; rel="first", </api/v2/canteens?limit=5&page=2>; rel="next", ' +
          '</api/v2/canteens?limit=5&page=3>; rel="last"',
      );
    });

    it('over a real connection too, where Node passes such a Host header through', async () => {
      const { app } = await open({ canteens: many });
      const address = new URL(await app.listen({ port: 0, host: '127.0.0.1' }));
      const link = await new Promise<string | undefined>((resolve, reject) => {
        const request = httpRequest(
          {
            host: address.hostname,
            port: address.port,
            path: '/api/v2/canteens?limit=5',
            headers: { host: hostile[0] },
          },
          (response) => {
            response.resume();
            resolve(String(response.headers.link));
          },
        );
        request.on('error', reject).end();
      });
      expect(link).not.toMatch(/javascript|evil/);
      expect(link).toContain('</api/v2/canteens?limit=5&page=2>; rel="next"');
    });

    it('nor through X-Forwarded-Host behind a trusted proxy', async () => {
      const { get } = await open({ canteens: many, trustProxy: true });
      const response = await get('/api/v2/canteens?limit=5', {
        'x-forwarded-proto': 'https',
        'x-forwarded-host': 'x>; rel="next", <javascript:alert(1)',
      });
      expect(response.headers.link).not.toMatch(/javascript|x>/);
      expect(response.headers.link).toContain('</api/v2/canteens?limit=5&page=2>; rel="next"');
    });

    it('builds every link on PUBLIC_BASE_URL when it is set, whatever the Host', async () => {
      const { get } = await open({ canteens: many, publicBaseUrl: 'https://meals.example.org/mensa' });
      for (const host of ['localhost', hostile[0]!]) {
        const response = await get('/api/v2/canteens?limit=5', { host });
        expect(response.headers.link).toContain(
          '<https://meals.example.org/mensa/api/v2/canteens?limit=5&page=2>; rel="next"',
        );
        expect(String(response.headers.link).match(/<[^>]*>/g)).toHaveLength(3);
      }
    });

    it('keeps valid hosts: names, IPv4 and IPv6 addresses with ports', async () => {
      const { get } = await open({ canteens: many });
      for (const host of ['mensa.example:8080', '127.0.0.1:3000', '[::1]:3000']) {
        expect((await get('/api/v2/canteens?limit=5', { host })).headers.link).toContain(
          `<http://${host}/api/v2/canteens?limit=5&page=2>`,
        );
      }
    });

    it('refuses a page number past 2^53 - 1 as openmensa.org refuses page 0, never answering X-Current-Page: Infinity', async () => {
      const { get } = await open({ canteens: many });
      for (const page of ['9'.repeat(400), '9007199254740992']) {
        const response = await get(`/api/v2/canteens?page=${page}`);
        expect([response.statusCode, response.body]).toEqual([400, 'Page must be > 1!']);
        expect(response.headers['x-current-page']).toBeUndefined();
      }
      expect((await get('/api/v2/canteens?page=9007199254740991')).headers['x-current-page']).toBe('9007199254740991');
    });
  });

  describe('filters', () => {
    const near = (id: number, lat: number, lng: number): Canteen => ({
      ...bare,
      id: `n-${id}`,
      openmensaId: id,
      coordinates: { lat, lng },
    });
    // Potsdam: Griebnitzsee is 5 km west of the Palais, Berlin-Mitte 25 km north-east.
    const canteens = [near(4, 52.4005, 13.0135), near(5, 52.3934, 13.1269), near(6, 52.52, 13.405), bare];

    it('ids: by id, not in the order asked, each once, ignoring what is not a positive number', async () => {
      const { get } = await open({ canteens });
      expect((await get('/api/v2/canteens?ids=6,4,x,-5,4')).json().map((c: { id: number }) => c.id)).toEqual([4, 6]);
      expect((await get('/api/v2/canteens?ids=abc')).body).toBe('[]');
      expect((await get('/api/v2/canteens?ids=')).json()).toHaveLength(5);
    });

    it('near: within dist km (default 10), nearest first, canteens without coordinates left out', async () => {
      const { get } = await open({ canteens });
      const at = 'near[lat]=52.4005&near[lng]=13.0135';
      expect((await get(`/api/v2/canteens?${at}`)).json().map((c: { id: number }) => c.id)).toEqual([4, 5]);
      expect((await get(`/api/v2/canteens?${at}&near[dist]=50`)).json().map((c: { id: number }) => c.id)).toEqual([
        4, 5, 6,
      ]);
      expect((await get(`/api/v2/canteens?${at}&near[dist]=1`)).json().map((c: { id: number }) => c.id)).toEqual([4]);
    });

    it('hasCoordinates: false and 0 keep those without, any other value those with', async () => {
      const { get } = await open({ canteens });
      const ids = async (value: string) =>
        (await get(`/api/v2/canteens?hasCoordinates=${value}`)).json().map((c: { id: number }) => c.id);
      expect(await ids('false')).toEqual([1, 3]);
      expect(await ids('0')).toEqual([1, 3]);
      expect(await ids('true')).toEqual([4, 5, 6]);
      expect(await ids('yes')).toEqual([4, 5, 6]);
    });
  });
});

describe('GET /api/v2/canteens/{id}', () => {
  it('answers the canteen by its OpenMensa number, 404 with no body for any other', async () => {
    const { get } = await open();
    expect((await get('/api/v2/canteens/187')).json()).toEqual({
      id: 187,
      name: 'Mensa Academica',
      city: 'Aachen',
      address: 'Pontwall 3, 52062 Aachen',
      coordinates: [50.77964, 6.07838],
    });
    for (const path of [
      '/api/v2/canteens/188',
      '/api/v2/canteens/mensa-academica',
      '/api/v2/canteens/0',
      '/api/v2/nothing',
      '/api/v2/canteens/187/what',
    ]) {
      const missing = await get(path);
      expect([missing.statusCode, missing.body], path).toEqual([404, '']);
      expect(missing.headers['x-om-api-version']).toBe('2');
    }
  });

  it.each([
    '/api/v2//canteens/187',
    '/api/v2/canteens/187/',
    '/api/v2/canteens/187?',
    '/api/v2/canteens/187.json',
    '/api/v2//canteens/187.json?',
  ])('takes the path a real client sends: %s', async (path) => {
    const { get } = await open();
    const response = await get(path);
    expect(response.statusCode).toBe(200);
    expect(response.json().id).toBe(187);
  });
});

describe('GET /api/v2/canteens/{id}/days', () => {
  it('lists the days with a menu or closed, from today on, ascending', async () => {
    const { get } = await open({ menus: { [academica.id]: menu } });
    const response = await get('/api/v2/canteens/187/days');
    expect(response.body).toBe(
      '[{"date":"2026-03-10","closed":false},{"date":"2026-03-11","closed":true},{"date":"2026-03-12","closed":false}]',
    );
    expect(response.headers['x-total-count']).toBe('3');
    expect((await get('/api/v2/canteens/187/days?start=2026-03-09')).json()).toHaveLength(4);
    expect((await get('/api/v2/canteens/187/days?start=2026-03-12')).json()).toEqual([
      { date: '2026-03-12', closed: false },
    ]);
    // An unreadable start is today, as openmensa.org reads it.
    expect((await get('/api/v2/canteens/187/days?start=tomorrow')).json()).toHaveLength(3);
    expect((await get('/api/v2/canteens/187/days?per_page=1&page=2')).json()).toEqual([
      { date: '2026-03-11', closed: true },
    ]);
    expect((await get('/api/v2/canteens/999/days')).statusCode).toBe(404);
  });

  it('answers one day, closed or not; a day with no menu that is not closed is 404', async () => {
    const { get } = await open({ menus: { [academica.id]: menu } });
    expect((await get('/api/v2/canteens/187/days/2026-03-11')).body).toBe('{"date":"2026-03-11","closed":true}');
    expect((await get('/api/v2/canteens/187/days/2026-03-09')).body).toBe('{"date":"2026-03-09","closed":false}');
    for (const date of ['2026-03-13', 'today', '2026-02-30']) {
      const missing = await get(`/api/v2/canteens/187/days/${date}`);
      expect([missing.statusCode, missing.body]).toEqual([404, '']);
    }
  });
});

describe('GET /api/v2/canteens/{id}/days/{date}/meals', () => {
  it('answers the meals in menu order: id the serving, category, all four prices (whole as 3.0), notes', async () => {
    const { get } = await open({ menus: { [academica.id]: menu } });
    const response = await get(`/api/v2/canteens/187/days/${today}/meals`);
    const [curry, salad] = response.json() as { id: number }[];
    expect(response.body).toBe(
      `[{"id":${curry!.id},"name":"Currywurst","category":"Hauptgericht","prices":{"students":3.0,"employees":4.5,"pupils":null,"others":5.125},"notes":["Schwein","Senf"]},` +
        `{"id":${salad!.id},"name":"Salatbar","category":"Beilagen","prices":{"students":null,"employees":null,"pupils":null,"others":null},"notes":[]}]`,
    );
    expect(response.headers['x-total-count']).toBe('2');
    const one = await get(`/api/v2/canteens/187/days/${today}/meals/${salad!.id}`);
    expect(one.json()).toMatchObject({ id: salad!.id, name: 'Salatbar' });
    expect((await get(`/api/v2/canteens/187/days/2026-03-12/meals/${salad!.id}`)).statusCode).toBe(404);
    expect((await get('/api/v2/canteens/187/days/2026-03-11/meals')).body).toBe('[]');
    expect((await get('/api/v2/canteens/187/days/2026-03-13/meals')).statusCode).toBe(404);
  });

  it('writes a meal without category with "" (never null)', async () => {
    const { get, useCases } = await open();
    await useCases.upsertMeals.execute([
      { id: 77, name: 'Bare', servedAt: new Date('2026-03-10T11:00:00Z'), rateable: true, canteenId: academica.id },
    ]);
    expect((await get(`/api/v2/canteens/187/days/${today}/meals/77`)).json()).toEqual({
      id: 77,
      name: 'Bare',
      category: '',
      prices: { students: null, employees: null, pupils: null, others: null },
      notes: [],
    });
  });
});

describe('GET /api/v2/canteens/{id}/meals (the Android app, Go and Dart libraries)', () => {
  it('answers the days from start for a week with their meals, not paged', async () => {
    const { get } = await open({ menus: { [academica.id]: menu } });
    const days = (await get('/api/v2/canteens/187/meals')).json() as {
      date: string;
      closed: boolean;
      meals: { name: string }[];
    }[];
    expect(days.map(({ date, closed, meals }) => [date, closed, meals.map((meal) => meal.name)])).toEqual([
      ['2026-03-10', false, ['Currywurst', 'Salatbar']],
      ['2026-03-11', true, []],
      ['2026-03-12', false, ['Ramen']],
    ]);
    expect((await get('/api/v2/canteens/187/meals?start=2026-03-09')).json()).toHaveLength(4);
    expect((await get('/api/v2/canteens/187/meals?start=2026-03-13')).body).toBe('[]');
  });
});

describe('caching and CORS', () => {
  it("answers with a strong ETag and the menu's freshness, 304 on If-None-Match, a new tag after a menu change", async () => {
    const { get, useCases } = await open({
      menus: { [academica.id]: menu },
      menuCaching: { entries: 100, ratingsMaxAgeMs: 0, ttlMs: 60_000, maxAgeS: 5, staleWhileRevalidateS: 30 },
    });
    const path = '/api/v2/canteens/187/days/2026-03-12/meals';
    const first = await get(path);
    expect(first.headers['cache-control']).toBe('public, max-age=5, stale-while-revalidate=30');
    const etag = String(first.headers.etag);
    expect(etag).toMatch(/^"[A-Za-z0-9_-]{27}"$/);
    const again = await get(path, { 'if-none-match': etag, 'cache-control': 'no-cache' });
    expect([again.statusCode, again.body]).toEqual([304, '']);
    expect(again.headers['x-total-count']).toBe('1');
    const days: MenuDay[] = [{ date: '2026-03-12', closed: false, items: [item('Neu')] }];
    await useCases.importMenu.execute({
      source: `feed-${academica.id}`,
      days,
      rateable: true,
      canteenId: academica.id,
    });
    const changed = await get(path, { 'if-none-match': etag });
    expect(changed.statusCode).toBe(200);
    expect(changed.json().map((meal: { name: string }) => meal.name)).toEqual(['Neu']);
  });

  it.each([
    [[]],
    [['https://dashboard.example']],
  ])('lets any origin read the answers and their paging headers, and answers a preflight (CORS_ORIGINS %j for v1)', async (corsOrigins) => {
    const { get, app } = await open({ corsOrigins });
    const response = await get('/api/v2/canteens', { origin: 'https://app.example' });
    expect(response.headers['access-control-allow-origin']).toBe('*');
    expect(String(response.headers['access-control-expose-headers'])).toMatch(/Link.*X-OM-Api-Version.*X-Total-Pages/);
    const preflight = await app.inject({
      method: 'OPTIONS',
      url: '/api/v2/canteens',
      headers: {
        origin: 'https://app.example',
        'access-control-request-method': 'GET',
        'access-control-request-headers': 'if-none-match',
      },
    });
    expect(preflight.statusCode).toBe(204);
    expect(preflight.headers).toMatchObject({
      'access-control-allow-origin': '*',
      'access-control-allow-headers': 'if-none-match',
    });
    expect(String(preflight.headers['access-control-allow-methods'])).toContain('GET');
  });
});
