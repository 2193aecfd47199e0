import { MealMother } from '@canteen-meals/repository-contract';
import { beforeEach, describe, expect, it } from 'vitest';
import { adminScope, createHmacTokenVerifier, parseRoleClaimPaths, parseRoleScopes } from '../src/index.js';
import { buildAppWith } from './app-with.js';
import { now, secret, useSharedTestApp } from './app-fixture.js';
import { signJwt, nowSeconds } from '../../adapters-jwt/test/token-fixtures.js';

// Staff belong to their canteens: the test menu's meals 1 to 4 are the canteen `default`'s; mensa-nord serves
// meals 11 (today) and 12 (tomorrow). Grants per canteen come as SCOPE@CANTEEN_ID in the scope claim here, and as
// ROLE@CANTEEN_ID roles at the end.
const fixture = useSharedTestApp();

type Method = 'GET' | 'PUT' | 'POST' | 'DELETE';

function call(method: Method, url: string, scope: string, body?: unknown) {
  return fixture.app.inject({
    method,
    url,
    headers: {
      authorization: `Bearer ${fixture.token({ sub: 'staff', scope })}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { payload: JSON.stringify(body) }),
  });
}

const outcome = (response: { statusCode: number; json(): any }) => [response.statusCode, response.json().error?.code];

const kitchenNord = 'meals:kitchen@mensa-nord';
const managerNord = 'meals:manage@mensa-nord';
const nordToday = MealMother.servedToday(now, { id: 11, name: 'Currywurst', canteenId: 'mensa-nord' });
const nordTomorrow = MealMother.servedTomorrow(now, { id: 12, name: 'Linsen', canteenId: 'mensa-nord' });

beforeEach(async () => {
  const saved = await call('PUT', '/api/v1/admin/canteens/mensa-nord', adminScope, {
    name: 'Mensa Nord',
    timezone: 'Europe/Berlin',
  });
  expect(saved.statusCode).toBe(201);
  await fixture.adapters.meals.upsertMany([nordToday, nordTomorrow]);
});

describe('a kitchen of one canteen', () => {
  it("sets its canteen's meals sold out and is refused at another canteen's meal, naming canteen and scope", async () => {
    const own = await call('PUT', '/api/v1/kitchen/meals/11/availability', kitchenNord, { status: 'sold_out' });
    expect(own.statusCode).toBe(200);
    const other = await call('PUT', '/api/v1/kitchen/meals/1/availability', kitchenNord, { status: 'sold_out' });
    expect(other.json()).toEqual({
      status: 'error',
      error: {
        code: 'forbidden',
        message: 'You may not do this at the canteen "default": it needs the meals:kitchen scope there.',
      },
    });
    expect(other.statusCode).toBe(403);
    expect((await call('GET', '/api/v1/meals/1', kitchenNord)).json().data.availability).toBe('available');
  });

  it("changes today's servings only, and nothing of the manager's", async () => {
    expect(
      outcome(await call('PUT', '/api/v1/kitchen/meals/12/availability', kitchenNord, { status: 'sold_out' })),
    ).toEqual([409, 'meal_not_today']);
    expect(outcome(await call('DELETE', '/api/v1/admin/meals/11', kitchenNord))).toEqual([403, 'forbidden']);
    expect((await call('GET', '/api/v1/admin/canteens', kitchenNord)).json().error.message).toBe(
      'This route needs a token with one of the scopes meals:manage or meals:write.',
    );
  });
});

describe("a canteen's manager", () => {
  it("edits their canteen's menu and is refused at another's, all or nothing", async () => {
    const own = MealMother.servedTomorrow(now, { id: 13, name: 'Spätzle', canteenId: 'mensa-nord' });
    expect((await call('PUT', '/api/v1/admin/meals', managerNord, MealMother.upsertBody(own))).statusCode).toBe(200);

    const elsewhere = MealMother.servedTomorrow(now, { id: 14, name: 'Pizza', canteenId: 'default' });
    const mixed = await call('PUT', '/api/v1/admin/meals', managerNord, MealMother.upsertBody(own, elsewhere));
    expect(outcome(mixed)).toEqual([403, 'forbidden']);
    expect(mixed.json().error.message).toBe(
      'You may not do this at the canteen "default": it needs the meals:manage scope there.',
    );
    expect(outcome(await call('GET', '/api/v1/meals/14', managerNord))).toEqual([404, 'meal_not_found']);

    // Moving another canteen's meal into one's own touches the canteen it leaves.
    const moved = MealMother.servedToday(now, { id: 1, name: 'Taken', canteenId: 'mensa-nord' });
    expect(outcome(await call('PUT', '/api/v1/admin/meals', managerNord, MealMother.upsertBody(moved)))).toEqual([
      403,
      'forbidden',
    ]);
    // So is serving again a meal another canteen withdrew.
    expect((await call('DELETE', '/api/v1/admin/meals/2', adminScope)).statusCode).toBe(200);
    const revived = MealMother.servedToday(now, { id: 2, name: 'Revived', canteenId: 'mensa-nord' });
    const refused = await call('PUT', '/api/v1/admin/meals', managerNord, MealMother.upsertBody(revived));
    expect(refused.json().error.message).toContain('"default"');
    expect(outcome(await call('GET', '/api/v1/meals/2', managerNord))).toEqual([404, 'meal_not_found']);
    const closedElsewhere = {
      ...MealMother.upsertBody(own),
      closed_days: [{ canteen_id: 'default', date: '2026-03-11' }],
    };
    expect(outcome(await call('PUT', '/api/v1/admin/meals', managerNord, closedElsewhere))).toEqual([403, 'forbidden']);
  });

  it('withdraws, closes days, sets availability on any day, reads the report and feeds of their canteen only', async () => {
    expect((await call('DELETE', '/api/v1/admin/meals/11', managerNord)).statusCode).toBe(200);
    expect(outcome(await call('DELETE', '/api/v1/admin/meals/1', managerNord))).toEqual([403, 'forbidden']);
    const tomorrow = await call('PUT', '/api/v1/kitchen/meals/12/availability', managerNord, { status: 'few_left' });
    expect(tomorrow.statusCode).toBe(200);
    const closed = { closed: true };
    expect(
      (await call('PUT', '/api/v1/admin/canteens/mensa-nord/days/2026-03-12', managerNord, closed)).statusCode,
    ).toBe(200);
    expect(outcome(await call('PUT', '/api/v1/admin/canteens/default/days/2026-03-12', managerNord, closed))).toEqual([
      403,
      'forbidden',
    ]);
    const report = (canteen: string) =>
      call('GET', `/api/v1/admin/reports/ratings.csv?canteen=${canteen}&from=2026-03-01&to=2026-03-10`, managerNord);
    expect((await report('mensa-nord')).statusCode).toBe(200);
    expect(outcome(await report('default'))).toEqual([403, 'forbidden']);
    expect((await call('GET', '/api/v1/admin/canteens/mensa-nord/feeds', managerNord)).statusCode).toBe(200);
    expect(outcome(await call('GET', '/api/v1/admin/canteens/default/feeds', managerNord))).toEqual([403, 'forbidden']);
  });

  it("edits their canteen's details, but creates, archives and restores none, and sees only theirs", async () => {
    const details = { name: 'Mensa Nord am Campus', timezone: 'Europe/Berlin', note_labels: {} };
    expect((await call('PUT', '/api/v1/admin/canteens/mensa-nord', managerNord, details)).statusCode).toBe(200);
    expect(outcome(await call('PUT', '/api/v1/admin/canteens/default', managerNord, details))).toEqual([
      403,
      'forbidden',
    ]);
    const created = await call('PUT', '/api/v1/admin/canteens/mensa-ost', managerNord, details);
    expect(created.json().error).toEqual({
      code: 'forbidden',
      message: 'This needs the meals:write scope for every canteen.',
    });
    expect(outcome(await call('DELETE', '/api/v1/admin/canteens/mensa-nord', managerNord))).toEqual([403, 'forbidden']);

    const listed = await call('GET', '/api/v1/admin/canteens', managerNord);
    expect(listed.json().data.canteens.map((canteen: { canteen_id: string }) => canteen.canteen_id)).toEqual([
      'mensa-nord',
    ]);
    const all = await call('GET', '/api/v1/admin/canteens', adminScope);
    expect(all.json().data.canteens.map((canteen: { canteen_id: string }) => canteen.canteen_id)).toEqual([
      'default',
      'mensa-nord',
    ]);
  });

  it('is refused at the webhooks, whatever the canteen', async () => {
    const hook = { url: 'https://app.example.com/hooks/meals', events: ['menu.published'] };
    const refused = await call('PUT', '/api/v1/admin/webhooks/app', managerNord, hook);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().error.message).toBe('This route needs a token with the meals:write scope.');
    expect(outcome(await call('GET', '/api/v1/admin/webhooks', `${managerNord} meals:manage@default`))).toEqual([
      403,
      'forbidden',
    ]);
  });

  it('merges dishes of their canteen, not of another', async () => {
    const dishOf = async (mealId: number) =>
      (await call('GET', `/api/v1/meals/${mealId}`, managerNord)).json().data.dish.dish_id;
    const [nord11, nord12, default1] = [await dishOf(11), await dishOf(12), await dishOf(1)];
    expect(
      (await call('POST', `/api/v1/admin/dishes/${nord11}/merge`, managerNord, { from: [nord12] })).statusCode,
    ).toBe(200);
    expect(
      outcome(await call('POST', `/api/v1/admin/dishes/${default1}/merge`, managerNord, { from: [nord11] })),
    ).toEqual([403, 'forbidden']);
  });
});

describe('GET /api/v1/me/access', () => {
  it("answers the caller's scopes for every canteen and per canteen, implied ones included, existing canteens only", async () => {
    const scope = `openid meals:read-reports ${kitchenNord} meals:manage@no-such-canteen`;
    const access = await call('GET', '/api/v1/me/access', scope);
    expect(access.json()).toEqual({
      status: 'success',
      data: {
        user: 'staff',
        scopes: ['meals:read-reports'],
        global: ['meals:read-reports'],
        canteens: { 'mensa-nord': ['meals:kitchen'] },
      },
    });
    const manager = (await call('GET', '/api/v1/me/access', managerNord)).json().data;
    expect(manager).toMatchObject({
      global: [],
      canteens: { 'mensa-nord': ['meals:manage', 'meals:kitchen', 'meals:read-reports'] },
    });
    const admin = (await call('GET', '/api/v1/me/access', adminScope)).json().data;
    expect(admin).toMatchObject({
      global: ['meals:write', 'meals:manage', 'meals:kitchen', 'meals:read-reports'],
      canteens: {},
    });
  });
});

describe('ROLE@CANTEEN_ID roles of an identity provider', () => {
  it("grant the role's scopes at that canteen only, a role without @ at every canteen", async () => {
    const { app, adapters } = await buildAppWith({
      verifyToken: createHmacTokenVerifier({
        secret,
        roleMapping: {
          claimPaths: parseRoleClaimPaths('realm_access.roles'),
          scopesByRole: parseRoleScopes('kitchen=meals:kitchen;manager=meals:manage'),
        },
      }),
    });
    try {
      await adapters.canteens.save({
        id: 'mensa-nord',
        name: 'Mensa Nord',
        timeZone: 'Europe/Berlin',
        city: null,
        address: null,
        coordinates: null,
        feeds: [],
      });
      await adapters.meals.upsertMany([nordToday]);
      const token = (roles: string[]) =>
        signJwt(
          { alg: 'HS256', typ: 'JWT' },
          { sub: 'cook', iat: nowSeconds(), exp: nowSeconds() + 300, realm_access: { roles } },
          secret,
        );
      const setSoldOut = (mealId: number, roles: string[]) =>
        app.inject({
          method: 'PUT',
          url: `/api/v1/kitchen/meals/${mealId}/availability`,
          headers: { authorization: `Bearer ${token(roles)}`, 'content-type': 'application/json' },
          payload: JSON.stringify({ status: 'sold_out' }),
        });
      expect((await setSoldOut(11, ['kitchen@mensa-nord'])).statusCode).toBe(200);
      expect((await setSoldOut(1, ['kitchen@mensa-nord'])).statusCode).toBe(403);
      expect((await setSoldOut(1, ['kitchen@no-such-canteen'])).statusCode).toBe(403);
      expect((await setSoldOut(1, ['kitchen'])).statusCode).toBe(200);
    } finally {
      await app.close();
    }
  });
});
