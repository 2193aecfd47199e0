import { MealMother } from '@canteen-meals/repository-contract';
import { describe, expect, it } from 'vitest';
import { adminScope } from '../src/index.js';
import { now, useSharedTestApp } from './app-fixture.js';

const fixture = useSharedTestApp();

const academica = {
  name: 'Mensa Academica',
  timezone: 'Europe/Berlin',
  city: 'Aachen',
  address: 'Pontwall 3, 52062 Aachen',
  coordinates: { lat: 50.77964, lng: 6.07838 },
};

function put(id: string, body: unknown, scope: string | null = adminScope) {
  return fixture.app.inject({
    method: 'PUT',
    url: `/api/v1/admin/canteens/${id}`,
    headers: {
      authorization: `Bearer ${fixture.token(scope === null ? {} : { scope })}`,
      'content-type': 'application/json',
    },
    payload: JSON.stringify(body),
  });
}

const get = (url: string, headers: Record<string, string> = {}) => fixture.app.inject({ method: 'GET', url, headers });
const authorized = (url: string) => get(url, { authorization: `Bearer ${fixture.token()}` });
const errorOf = (response: { statusCode: number; json(): any }) => [response.statusCode, response.json().error?.code];
const idsOf = (response: { json(): any }) =>
  response.json().data.meals.map((meal: { meal_id: number }) => meal.meal_id);

describe('PUT /api/v1/admin/canteens/{canteen_id}', () => {
  it('creates (201), then replaces every field (200), absent optional fields becoming null', async () => {
    const created = await put('mensa-academica', academica);
    expect(created.statusCode).toBe(201);
    expect(created.json()).toEqual({
      status: 'success',
      data: {
        canteen_id: 'mensa-academica',
        openmensa_id: 2,
        ...academica,
        feeds: [],
        note_labels: {},
        placeholder_names: [],
      },
    });

    const replaced = await put('mensa-academica', { name: 'Mensa Academica', timezone: 'Europe/Vienna' });
    expect(replaced.statusCode).toBe(200);
    expect(replaced.json().data).toEqual({
      canteen_id: 'mensa-academica',
      openmensa_id: 2,
      name: 'Mensa Academica',
      timezone: 'Europe/Vienna',
      city: null,
      address: null,
      coordinates: null,
      feeds: [],
      note_labels: {},
      placeholder_names: [],
    });
  });

  it('takes openmensa_id, keeps it when a PUT leaves it out, and numbers a new canteen above the highest', async () => {
    expect((await put('mensa-academica', { ...academica, openmensa_id: 187 })).json().data.openmensa_id).toBe(187);
    expect((await put('mensa-academica', academica)).json().data.openmensa_id).toBe(187);
    expect((await get('/api/v1/canteens/mensa-academica')).json().data.openmensa_id).toBe(187);
    expect((await put('bistro', academica)).json().data.openmensa_id).toBe(188);
    const list = (await get('/api/v1/canteens')).json().data.canteens;
    expect(list.map((c: { openmensa_id: number }) => c.openmensa_id)).toEqual([188, 1, 187]);
  });

  it('answers 409 openmensa_id_taken naming the field when another canteen has the number, and changes nothing', async () => {
    await put('mensa-academica', { ...academica, openmensa_id: 187 });
    const taken = await put('bistro', { ...academica, openmensa_id: 187 });
    expect(errorOf(taken)).toEqual([409, 'openmensa_id_taken']);
    expect(taken.json().error.message).toBe('openmensa_id 187 is taken by the canteen "mensa-academica".');
    expect(errorOf(await get('/api/v1/canteens/bistro'))).toEqual([404, 'canteen_not_found']);
    expect(errorOf(await put('default', { name: 'Default', timezone: 'UTC', openmensa_id: 187 }))).toEqual([
      409,
      'openmensa_id_taken',
    ]);
    expect((await get('/api/v1/canteens/default')).json().data).toMatchObject({
      openmensa_id: 1,
      name: 'Default canteen',
    });
  });

  it.each([0, -1, 2_147_483_648, 1.5, '7'])('refuses openmensa_id %j with 400 invalid_request', async (openmensaId) => {
    expect(errorOf(await put('mensa', { ...academica, openmensa_id: openmensaId }))).toEqual([400, 'invalid_request']);
  });

  it("stores the canteen's note spellings and placeholder names, and refuses a spelling naming an unknown code", async () => {
    const spelled = await put('mensa-academica', {
      ...academica,
      note_labels: { 'mit Sesam': 'sesame' },
      placeholder_names: ['Betriebsferien'],
    });
    expect(spelled.json().data).toMatchObject({
      note_labels: { 'mit Sesam': 'sesame' },
      placeholder_names: ['Betriebsferien'],
    });
    const refused = await put('mensa-academica', { ...academica, note_labels: { Gefl: 'chicken' } });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().error).toMatchObject({
      code: 'invalid_request',
      message: expect.stringContaining('"chicken"'),
    });
  });

  it('needs the meals:write scope and a token', async () => {
    expect(errorOf(await put('bistro', academica, null))).toEqual([403, 'forbidden']);
    const anonymous = await fixture.app.inject({
      method: 'PUT',
      url: '/api/v1/admin/canteens/bistro',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify(academica),
    });
    expect(errorOf(anonymous)).toEqual([401, 'unauthenticated']);
    expect(errorOf(await get('/api/v1/canteens/bistro'))).toEqual([404, 'canteen_not_found']);
  });

  it.each([
    ['an id with capitals', 'Mensa', academica],
    ['an id of 65 characters', 'a'.repeat(65), academica],
    ['an id starting with a dash', '-mensa', academica],
    ['an unknown time zone', 'mensa', { ...academica, timezone: 'Mars/Olympus_Mons' }],
    ['a latitude of 91', 'mensa', { ...academica, coordinates: { lat: 91, lng: 6 } }],
    ['a blank name', 'mensa', { ...academica, name: '   ' }],
    ['a name with a control character', 'mensa', { ...academica, name: 'Mensa\u0007' }],
    ['an unknown field', 'mensa', { ...academica, opening_hours: '11-14' }],
    ['a missing time zone', 'mensa', { name: 'Mensa' }],
    ['a string for coordinates', 'mensa', { ...academica, coordinates: '50.7,6.0' }],
  ])('refuses %s with 400 invalid_request and stores nothing', async (_, id, body) => {
    expect(errorOf(await put(id, body))).toEqual([400, 'invalid_request']);
    expect(
      (await get('/api/v1/canteens')).json().data.canteens.map((c: { canteen_id: string }) => c.canteen_id),
    ).toEqual(['default']);
  });
});

describe('GET /api/v1/canteens and /api/v1/canteens/{canteen_id}', () => {
  it('are public: no token needed, and a bad token is ignored', async () => {
    await put('mensa-academica', academica);
    await put('mensa-academica', {
      ...academica,
      feeds: [{ name: 'full', url: 'https://mensa.example/full.xml?key=secret', schedule: '0 6 * * *' }],
    });
    for (const headers of [{}, { authorization: 'Bearer not-a-token' }]) {
      const list = await get('/api/v1/canteens', headers);
      expect(list.statusCode).toBe(200);
      expect(list.json().data.canteens.map((c: { canteen_id: string }) => c.canteen_id)).toEqual([
        'default',
        'mensa-academica',
      ]);
      const one = await get('/api/v1/canteens/mensa-academica', headers);
      expect(one.json()).toEqual({
        status: 'success',
        data: { canteen_id: 'mensa-academica', openmensa_id: 2, ...academica },
      });
    }
  });

  it('answers 404 canteen_not_found for an unknown id and for one no canteen can have', async () => {
    expect(errorOf(await get('/api/v1/canteens/nowhere'))).toEqual([404, 'canteen_not_found']);
    expect(errorOf(await get('/api/v1/canteens/NOT%20A%20SLUG'))).toEqual([404, 'canteen_not_found']);
  });
});

describe('meals of a canteen', () => {
  const hour = 60 * 60 * 1000;
  const upsert = (meals: unknown[]) =>
    fixture.app.inject({
      method: 'PUT',
      url: '/api/v1/admin/meals',
      headers: { authorization: `Bearer ${fixture.token({ scope: adminScope })}`, 'content-type': 'application/json' },
      payload: JSON.stringify({ meals }),
    });

  it('puts a meal without canteen_id in default, answers canteen_id on every meal, and refuses an unknown canteen', async () => {
    await put('mensa-academica', academica);
    const soup = MealMother.wire(MealMother.servedToday(now, { id: 20, name: 'Soup' }));
    expect((await upsert([soup, { ...soup, meal_id: 21, canteen_id: 'mensa-academica' }])).statusCode).toBe(200);
    expect((await authorized('/api/v1/meals/20')).json().data.canteen_id).toBe('default');
    expect((await authorized('/api/v1/meals/21')).json().data.canteen_id).toBe('mensa-academica');

    const unknown = await upsert([{ ...soup, meal_id: 22, canteen_id: 'nowhere' }]);
    expect(errorOf(unknown)).toEqual([404, 'canteen_not_found']);
    expect(unknown.json().error.message).toContain('nowhere');
    expect(errorOf(await authorized('/api/v1/meals/22'))).toEqual([404, 'meal_not_found']);
  });

  it("answers one canteen's day, or every canteen's, each day judged on the canteen's clocks, in menu order", async () => {
    await put('bistro-ny', { name: 'Bistro', timezone: 'America/New_York' });
    // 2026-03-10T03:30Z is still 9 March in New York and already 10 March in Berlin.
    const early = new Date('2026-03-10T03:30:00Z');
    const meal = (id: number, canteen: string, at: Date) => ({
      ...MealMother.wire(MealMother.servedAt(at, { id })),
      canteen_id: canteen,
    });
    expect((await upsert([meal(30, 'bistro-ny', early), meal(31, 'default', early)])).statusCode).toBe(200);
    expect(idsOf(await authorized('/api/v1/meals?date=2026-03-09&canteen=bistro-ny'))).toEqual([30]);
    expect(idsOf(await authorized('/api/v1/meals?date=2026-03-10&canteen=bistro-ny'))).toEqual([]);
    expect(idsOf(await authorized('/api/v1/meals?date=2026-03-10&canteen=default'))).toEqual([31, 1, 2]);
    expect(idsOf(await authorized('/api/v1/meals?date=2026-03-09'))).toEqual([30]);
    expect(idsOf(await authorized('/api/v1/meals?date=2026-03-10'))).toEqual([31, 1, 2]);
  });

  it('orders the meals of one serving time by their place in the upsert batch', async () => {
    const at = new Date(now.getTime() + 2 * hour);
    const batch = [40, 43, 41, 42].map((id) => MealMother.wire(MealMother.servedAt(at, { id })));
    expect((await upsert(batch)).statusCode).toBe(200);
    expect(idsOf(await authorized('/api/v1/meals?date=2026-03-10&canteen=default'))).toEqual([1, 2, 40, 43, 41, 42]);
  });

  it('answers a range of up to 14 days of one canteen, from and to included', async () => {
    expect(idsOf(await authorized('/api/v1/meals?canteen=default&from=2026-01-01&to=2026-01-14'))).toEqual([]);
    expect(idsOf(await authorized('/api/v1/meals?canteen=default&from=2026-02-01&to=2026-02-14'))).toEqual([4]);
    expect(idsOf(await authorized('/api/v1/meals?canteen=default&from=2026-03-10&to=2026-03-11'))).toEqual([1, 2, 3]);
    expect(idsOf(await authorized('/api/v1/meals?canteen=default&from=2026-03-11&to=2026-03-11'))).toEqual([3]);
  });

  it.each([
    ['a range of 15 days', '/api/v1/meals?canteen=default&from=2026-03-01&to=2026-03-15', 400, 'invalid_request'],
    ['to before from', '/api/v1/meals?canteen=default&from=2026-03-10&to=2026-03-09', 400, 'invalid_request'],
    ['a range without canteen', '/api/v1/meals?from=2026-03-10&to=2026-03-11', 400, 'invalid_request'],
    ['from without to', '/api/v1/meals?canteen=default&from=2026-03-10', 400, 'invalid_request'],
    [
      'date with a range',
      '/api/v1/meals?canteen=default&date=2026-03-10&from=2026-03-10&to=2026-03-11',
      400,
      'invalid_request',
    ],
    ['canteen with ids', '/api/v1/meals?canteen=default&ids=1', 400, 'invalid_request'],
    ['canteen alone', '/api/v1/meals?canteen=default', 400, 'invalid_request'],
    ['an unknown canteen', '/api/v1/meals?canteen=nowhere&date=2026-03-10', 404, 'canteen_not_found'],
    ['a canteen id no canteen can have', '/api/v1/meals?canteen=NO!&date=2026-03-10', 404, 'canteen_not_found'],
    [
      'a day that does not exist',
      '/api/v1/meals?canteen=default&from=2026-02-30&to=2026-03-01',
      400,
      'invalid_request',
    ],
  ])('refuses %s', async (_, url, status, code) => {
    expect(errorOf(await authorized(url))).toEqual([status, code]);
  });
});
