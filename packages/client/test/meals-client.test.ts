import { apiPrefix as serverApiPrefix, signHmacToken } from '@canteen-meals/adapters-http';
import { apiPrefix, createMealsClient, MealsApiError, type LiveEvent, type MealsClient } from '@canteen-meals/client';
import { MealMother } from '@canteen-meals/repository-contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from './start-server.js';

const secret = 'client-test-secret-of-at-least-32-bytes';
const now = () => new Date();
// Meal 6 is served on this UTC day (the server runs with TZ_NAME=UTC), and no other meal is.
const mealSixServedAt = new Date(Date.UTC(2030, 0, 15, 11, 30)).toISOString();

let server: RunningServer;
let admin: MealsClient;
let alice: MealsClient;
let bob: MealsClient;

const clientFor = (sub: string, scope?: string) =>
  createMealsClient({ baseUrl: server.baseUrl, token: signHmacToken(secret, { sub, scope }) });

/** The promise's rejection, which must be a MealsApiError. */
async function failure(promise: Promise<unknown>): Promise<MealsApiError> {
  const error = await promise.then(
    () => undefined,
    (rejection: unknown) => rejection,
  );
  expect(error).toBeInstanceOf(MealsApiError);
  return error as MealsApiError;
}

beforeAll(async () => {
  // Rankings score with two pseudo-votes per star and z = 0 here (the posterior mean): the settings reach the app.
  // Feeds may reach loopback (a PUT refuses such a URL otherwise) and retry at once.
  server = await startServer({
    JWT_SECRET: secret,
    TZ_NAME: 'UTC',
    RANKING_PRIOR: '2,2,2,2,2',
    RANKING_Z: '0',
    OUTBOUND_ALLOW_PRIVATE_NETWORKS: '1',
    FEED_RETRY_BASE_MS: '0',
  });
  admin = clientFor('menu-admin', 'meals:write');
  alice = clientFor('alice');
  bob = clientFor('bob');
  await admin.upsertMeals(
    MealMother.upsertBody(
      MealMother.servedToday(now(), { id: 1, name: 'Lentil soup' }),
      MealMother.servedTomorrow(now(), { id: 2, name: 'Schnitzel' }),
      MealMother.servedDaysAgo(now(), 8, { id: 3, name: 'Chili sin carne' }),
      MealMother.servedToday(now(), { id: 4, name: 'Salad bar', rateable: false }),
      MealMother.servedAt(new Date(mealSixServedAt), { id: 6, name: 'Risotto' }),
    ),
  );
});

afterAll(async () => {
  await server?.stop();
});

describe('the client against the real server', () => {
  it('asks what its token may do here: the user and the scopes, at every canteen and per canteen', async () => {
    await expect(admin.getMyAccess()).resolves.toEqual({
      user: 'menu-admin',
      scopes: ['meals:write'],
      global: ['meals:write', 'meals:manage', 'meals:kitchen', 'meals:read-reports'],
      canteens: {},
    });
    await expect(clientFor('kitchen-tablet', 'meals:kitchen openid').getMyAccess()).resolves.toEqual({
      user: 'kitchen-tablet',
      scopes: ['meals:kitchen'],
      global: ['meals:kitchen'],
      canteens: {},
    });
    await expect(clientFor('cook', 'meals:kitchen@default').getMyAccess()).resolves.toEqual({
      user: 'cook',
      scopes: [],
      global: [],
      canteens: { default: ['meals:kitchen'] },
    });
    await expect(alice.getMyAccess()).resolves.toEqual({ user: 'alice', scopes: [], global: [], canteens: {} });
  });

  it('adds the same prefix as the server', () => {
    expect(apiPrefix).toBe(serverApiPrefix);
  });

  it('upserts meals with the meals:write scope', async () => {
    await expect(
      admin.upsertMeals(MealMother.upsertBody(MealMother.servedToday(now(), { id: 5, name: 'Fish and chips' }))),
    ).resolves.toEqual({ upserted: 1 });
  });

  it('marks and unmarks a meal', async () => {
    await expect(alice.markMeal({ meal_id: 1, marked: true })).resolves.toEqual({ marked: true });
    await expect(alice.markMeal({ meal_id: 1, marked: false })).resolves.toEqual({ marked: false });
  });

  it('rates, re-rates and deletes, answering the statistics', async () => {
    await expect(alice.rateMeal({ meal_id: 5, rating: 5 })).resolves.toEqual({
      rating_count: 1,
      rating_average: 5,
      rating_median: 5,
      rating_personal: 5,
    });
    await expect(bob.rateMeal({ meal_id: 5, rating: 2 })).resolves.toEqual({
      rating_count: 2,
      rating_average: 3.5,
      rating_median: 3.5,
      rating_personal: 2,
    });
    await expect(bob.rateMeal({ meal_id: 5, rating: 4 })).resolves.toMatchObject({
      rating_count: 2,
      rating_average: 4.5,
    });
    await expect(alice.rateMeal({ meal_id: 5, rating: null })).resolves.toEqual({
      rating_count: 1,
      rating_average: 4,
      rating_median: 4,
      rating_personal: null,
    });
  });

  it('asks getToken for a token before each request', async () => {
    let calls = 0;
    const client = createMealsClient({
      baseUrl: `${server.baseUrl}/`,
      getToken: async () => {
        calls += 1;
        return signHmacToken(secret, { sub: 'carol' });
      },
    });
    await client.markMeal({ meal_id: 1, marked: true });
    await client.rateMeal({ meal_id: 1, rating: 3 });
    expect(calls).toBe(2);
  });

  it.each([
    ['meal_not_found', 404, () => alice.markMeal({ meal_id: 999, marked: true })],
    ['meal_not_yet_served', 422, () => alice.rateMeal({ meal_id: 2, rating: 4 })],
    ['rating_period_over', 422, () => alice.rateMeal({ meal_id: 3, rating: 4 })],
    ['meal_not_rateable', 422, () => alice.rateMeal({ meal_id: 4, rating: null })],
    ['invalid_request', 400, () => alice.rateMeal({ meal_id: 1, rating: 6 })],
    [
      'forbidden',
      403,
      () => alice.upsertMeals(MealMother.upsertBody(MealMother.servedAt(now(), { id: 9, name: 'x' }))),
    ],
    [
      'invalid_token',
      401,
      () => createMealsClient({ baseUrl: server.baseUrl, token: 'not.a.jwt' }).markMeal({ meal_id: 1, marked: true }),
    ],
  ] as const)('throws MealsApiError with code %s and status %i from the envelope', async (code, status, call) => {
    const error = await failure(call());
    expect(error).toMatchObject({ code, status, source: 'envelope', name: 'MealsApiError' });
    expect(error.message.length).toBeGreaterThan(0);
  });
});

describe('the read endpoints against the real server', () => {
  let dave: MealsClient;
  beforeAll(async () => {
    dave = clientFor('dave');
    await dave.markMeal({ meal_id: 1, marked: true });
    await dave.markMeal({ meal_id: 4, marked: true });
    await dave.rateMeal({ meal_id: 1, rating: 4 });
  });

  it("gets one meal with its statistics and the caller's own state", async () => {
    const meal = await dave.getMeal(1);
    expect(meal).toMatchObject({
      meal_id: 1,
      name: 'Lentil soup',
      marked: true,
      rating_personal: 4,
      rating_open: true,
    });
    expect(meal.rating_distribution['4']).toBeGreaterThanOrEqual(1);
  });

  it('gets many meals by id, naming the unknown ones', async () => {
    const { meals, unknown_ids } = await dave.getMeals({ ids: [4, 1, 999] });
    expect(meals.map((meal) => meal.meal_id).sort()).toEqual([1, 4]);
    expect(unknown_ids).toEqual([999]);
  });

  it('gets the meals of one day', async () => {
    const { meals } = await dave.getMeals({ date: mealSixServedAt.slice(0, 10) });
    expect(meals.map((meal) => meal.meal_id)).toEqual([6]);
  });

  it("gets one canteen's day and a range of days, naming each meal's canteen", async () => {
    const day = mealSixServedAt.slice(0, 10);
    const { meals } = await dave.getMeals({ date: day, canteen: 'default' });
    expect(meals.map((meal) => [meal.meal_id, meal.canteen_id])).toEqual([[6, 'default']]);
    const range = await dave.getMeals({ canteen: 'default', from: '2030-01-14', to: '2030-01-16' });
    expect(range.meals.map((meal) => meal.meal_id)).toEqual([6]);
  });

  it("reads a canteen's public menu without a token, and the caller's own part of it with one", async () => {
    const day = mealSixServedAt.slice(0, 10);
    const anonymous = createMealsClient({ baseUrl: server.baseUrl });
    const { meals } = await anonymous.getMeals({ canteen: 'default', date: day });
    expect(meals.map((meal) => meal.meal_id)).toEqual([6]);
    expect(meals[0]).not.toHaveProperty('marked');
    expect(meals[0]).not.toHaveProperty('rating_personal');

    const erin = clientFor('erin');
    await erin.markMeal({ meal_id: 6, marked: true });
    await expect(erin.getPersonalStates({ canteen: 'default', date: day })).resolves.toEqual({
      meals: [{ meal_id: 6, marked: true, rating_personal: null }],
    });
    await expect(erin.getPersonalStates({ canteen: 'default', from: '2030-01-16', to: '2030-01-17' })).resolves.toEqual(
      { meals: [] },
    );
    expect((await failure(anonymous.getPersonalStates({ canteen: 'default', date: day }))).code).toBe(
      'unauthenticated',
    );
  });

  it('finds dishes with a label filter, and hears an unknown code as 400', async () => {
    await admin.upsertMeals(
      MealMother.upsertBody(
        MealMother.servedDaysAgo(now(), 1, { id: 80, name: 'Filterbrot', labels: ['wheat'] }),
        MealMother.servedDaysAgo(now(), 1, { id: 81, name: 'Filtercurry', labels: ['vegan'] }),
      ),
    );
    const anonymous = createMealsClient({ baseUrl: server.baseUrl });
    const names = async (request: { without?: string[]; only?: string[] }) =>
      (await anonymous.searchDishes('default', { q: 'filter', ...request })).dishes.map((hit) => hit.name);
    expect(await names({})).toEqual(['Filterbrot', 'Filtercurry']);
    expect(await names({ without: ['gluten'] })).toEqual(['Filtercurry']);
    expect(await names({ only: ['vegetarian'] })).toEqual(['Filtercurry']);
    expect(await names({ without: [], only: [] })).toEqual(['Filterbrot', 'Filtercurry']);
    expect(await failure(anonymous.searchDishes('default', { q: 'filter', only: ['veggie'] }))).toMatchObject({
      code: 'invalid_request',
      status: 400,
    });
  });

  it('reads a dish with its servings, finds it by name, merges another into it and withdraws a serving', async () => {
    await admin.upsertMeals(
      MealMother.upsertBody(
        MealMother.servedDaysAgo(now(), 2, { id: 70, name: 'Käsespätzle' }),
        MealMother.servedDaysAgo(now(), 1, { id: 71, name: 'kasespatzle' }),
        MealMother.servedTomorrow(now(), { id: 72, name: 'Käsespätzle' }),
      ),
    );
    const { dish_id: dishId } = await dave.getMeal(70);
    const dish = await dave.getDish(dishId, { limit: 1 });
    expect(dish).toMatchObject({
      dish_id: dishId,
      name: 'Käsespätzle',
      times_served: 1,
      personal: { marked: false, rating_count: 0 },
    });
    expect(dish.servings.map((meal) => meal.meal_id)).toEqual([72]);
    expect(
      (await dave.getDish(dishId, { limit: 1, cursor: dish.next_cursor! })).servings.map((meal) => meal.meal_id),
    ).toEqual([70]);
    const found = await createMealsClient({ baseUrl: server.baseUrl }).searchDishes('default', { q: 'SPATZLE' });
    expect(found.dishes.map((hit) => hit.name)).toEqual(['Käsespätzle', 'kasespatzle']);
    const other = found.dishes.find((hit) => hit.dish_id !== dishId)!.dish_id;
    const merged = await admin.mergeDishes(dishId, { from: [other] });
    expect(merged).toMatchObject({ dish_id: dishId, names: ['Käsespätzle', 'kasespatzle'], times_served: 2 });
    expect(await admin.withdrawMeal(72)).toMatchObject({ meal_id: 72 });
    expect(await failure(dave.getMeal(72))).toMatchObject({ code: 'meal_not_found', status: 404 });
    expect(await failure(admin.mergeDishes(dishId, { from: [999_999] }))).toMatchObject({ code: 'dish_not_found' });
  });

  it('closes a canteen on a day by hand, withdrawing its meals still to be served, and opens it again', async () => {
    await admin.upsertMeals(
      MealMother.upsertBody(
        MealMother.servedAt(new Date(now().getTime() + 3 * 86_400_000), { id: 60, name: 'Ravioli' }),
      ),
    );
    const { served_at: servedAt } = await admin.getMeal(60);
    const day = servedAt.slice(0, 10);
    await expect(admin.setDayClosed('default', day, true)).resolves.toEqual({
      canteen_id: 'default',
      date: day,
      closed: true,
      withdrawn_meal_ids: [60],
    });
    expect((await admin.getMeals({ canteen: 'default', date: day })).closed_days).toEqual([day]);
    expect(await failure(admin.getMeal(60))).toMatchObject({ code: 'meal_not_found' });
    await expect(admin.setDayClosed('default', day, false)).resolves.toEqual({
      canteen_id: 'default',
      date: day,
      closed: false,
      withdrawn_meal_ids: [],
    });
    expect((await admin.getMeals({ canteen: 'default', date: day })).closed_days).toEqual([]);
    expect(await failure(dave.setDayClosed('default', day, true))).toMatchObject({ code: 'forbidden', status: 403 });
  });

  it("lists a canteen's feeds and fetches one now, answering its summary (here failed: nothing listens on the port)", async () => {
    await admin.saveCanteen('feedy', {
      name: 'Feedy',
      timezone: 'UTC',
      feeds: [{ name: 'full', url: 'http://127.0.0.1:9/feed.xml', schedule: '0 6 * * *' }],
    });
    const summary = await admin.fetchFeed('feedy', 'full');
    expect(summary).toMatchObject({
      name: 'full',
      outcome: 'failed',
      http_status: null,
      last_error: 'http://127.0.0.1:9/feed.xml: connection refused',
    });
    expect((await admin.listFeeds('feedy')).feeds).toEqual([summary]);
    expect(await failure(admin.fetchFeed('feedy', 'today'))).toMatchObject({ code: 'feed_not_found', status: 404 });
  });

  it('saves, lists and reads canteens; the reads need no token', async () => {
    const saved = await admin.saveCanteen('bistro-7', { name: 'Bistro 7', timezone: 'America/New_York' });
    expect(saved).toEqual({
      canteen_id: 'bistro-7',
      openmensa_id: expect.any(Number),
      name: 'Bistro 7',
      timezone: 'America/New_York',
      city: null,
      address: null,
      coordinates: null,
      feeds: [],
      note_labels: {},
      placeholder_names: [],
    });
    const anonymous = createMealsClient({ baseUrl: server.baseUrl });
    expect((await anonymous.listCanteens()).canteens.map((canteen) => canteen.canteen_id)).toEqual([
      'bistro-7',
      'default',
      'feedy',
    ]);
    // Public reads leave the feeds out (a feed URL may carry a key); the admin's answer has them.
    const { feeds: _feeds, note_labels: _spellings, placeholder_names: _names, ...publicView } = saved;
    expect(await anonymous.getCanteen('bistro-7')).toEqual(publicView);
    expect(await failure(anonymous.getCanteen('nowhere'))).toMatchObject({ code: 'canteen_not_found', status: 404 });
    expect(await failure(alice.saveCanteen('bistro-8', { name: 'Bistro 8', timezone: 'UTC' }))).toMatchObject({
      code: 'forbidden',
    });
  });

  it('gets the coming servings of the dishes the caller marked a serving of, 7 days by default, up to 14', async () => {
    await admin.saveCanteen('upcoming', { name: 'Upcoming', timezone: 'UTC' });
    const goulash = (id: number, days: number) =>
      MealMother.servedAt(new Date(now().getTime() + days * 24 * 60 * 60 * 1000), {
        id,
        name: 'Goulash',
        canteenId: 'upcoming',
      });
    const [past, soon, later] = [goulash(90, -3), goulash(91, 2), goulash(92, 10)];
    await admin.upsertMeals(MealMother.upsertBody(past!, soon!, later!));
    const erin = clientFor('erin');
    await erin.markMeal({ meal_id: 90, marked: true });
    const dateOf = (meal: typeof past) => meal!.servedAt.toISOString().slice(0, 10);

    const week = await erin.getUpcoming();
    expect(week.truncated).toBe(false);
    expect(week.servings.map((serving) => [serving.meal_id, serving.date, serving.canteen_id])).toEqual([
      [91, dateOf(soon), 'upcoming'],
    ]);
    expect(week.servings[0]).toMatchObject({ marked: false, dish: { name: 'Goulash', times_served: 1 } });
    expect((await erin.getUpcoming({ days: 14 })).servings.map((serving) => serving.meal_id)).toEqual([91, 92]);
    expect((await clientFor('frank').getUpcoming({ days: 14 })).servings).toEqual([]);
    expect(await failure(erin.getUpcoming({ days: 15 }))).toMatchObject({ code: 'invalid_request', status: 400 });
    expect(await failure(createMealsClient({ baseUrl: server.baseUrl }).getUpcoming())).toMatchObject({
      code: 'unauthenticated',
      status: 401,
    });
  });

  it('lists the marked meals a page at a time', async () => {
    const first = await dave.listMarkedMeals({ limit: 1 });
    expect(first.meals).toHaveLength(1);
    expect(first.next_cursor).not.toBeNull();
    const second = await dave.listMarkedMeals({ limit: 1, cursor: first.next_cursor! });
    expect([...first.meals, ...second.meals].map((meal) => meal.meal_id).sort()).toEqual([1, 4]);
    expect((await dave.listMarkedMeals()).meals).toHaveLength(2);
  });

  it('lists the rated meals', async () => {
    const page = await dave.listRatedMeals();
    expect(page).toMatchObject({ next_cursor: null, meals: [{ meal_id: 1, rating_personal: 4 }] });
  });

  it('exports and then erases the caller’s own data', async () => {
    const exported = await dave.exportMyData();
    expect(exported.user_id).toBe('dave');
    expect(exported.markings.map((marking) => marking.meal_id).sort()).toEqual([1, 4]);
    expect(exported.ratings).toMatchObject([{ meal_id: 1, rating: 4 }]);
    await expect(dave.eraseMyData()).resolves.toEqual({
      markings_erased: 2,
      ratings_erased: 1,
      preferences_erased: 0,
      aversions_erased: 0,
    });
    await expect(dave.exportMyData()).resolves.toMatchObject({ markings: [], ratings: [] });
    await expect(dave.eraseMyData()).resolves.toEqual({
      markings_erased: 0,
      ratings_erased: 0,
      preferences_erased: 0,
      aversions_erased: 0,
    });
  });

  it('gets the ratings report of some days as CSV text, with meals:write or meals:read-reports', async () => {
    const header =
      'date,served_at,meal_id,dish_id,dish,name,category,rating_count,rating_average,rating_median,stars_1,stars_2,stars_3,stars_4,stars_5,sold_out_at';
    const { dish_id: risotto } = await dave.getMeal(6);
    const day = mealSixServedAt.slice(0, 10);
    const csv = await admin.getRatingsReport({ canteen: 'default', from: day, to: day });
    // fetch decodes the UTF-8 and drops the byte order mark that the server sends for spreadsheet apps.
    expect(csv).toBe(`${header}\r\n${day},${mealSixServedAt},6,${risotto},"Risotto","Risotto",,0,,,0,0,0,0,0,\r\n`);
    const reader = clientFor('controller', 'meals:read-reports');
    await expect(reader.getRatingsReport({ canteen: 'default', from: '2030-01-16', to: '2030-01-17' })).resolves.toBe(
      `${header}\r\n`,
    );
    // Refusals come as the envelope, on this route too.
    expect(await failure(dave.getRatingsReport({ canteen: 'default', from: day, to: day }))).toMatchObject({
      code: 'forbidden',
      status: 403,
      source: 'envelope',
    });
    expect(await failure(reader.getRatingsReport({ canteen: 'nowhere', from: day, to: day }))).toMatchObject({
      code: 'canteen_not_found',
      status: 404,
    });
    expect(await failure(reader.getRatingsReport({ canteen: 'default', from: day, to: '2029-01-01' }))).toMatchObject({
      code: 'invalid_request',
      status: 400,
      source: 'envelope',
    });
  });

  it.each([
    ['meal_not_found', 404, () => dave.getMeal(999)],
    ['invalid_cursor', 400, () => dave.listRatedMeals({ cursor: 'not-a-cursor-we-handed-out' })],
    ['invalid_request', 400, () => dave.listMarkedMeals({ limit: 101 })],
  ] as const)('throws %s (%i) from a read', async (code, status, call) => {
    expect(await failure(call())).toMatchObject({ code, status, source: 'envelope' });
  });
});

describe('answers that are not the envelope', () => {
  const htmlBadGateway: typeof fetch = async () =>
    new Response('<html><body><h1>502 Bad Gateway</h1></body></html>', {
      status: 502,
      headers: { 'content-type': 'text/html' },
    });

  it("turns a proxy's HTML 502 into internal_error with the real status", async () => {
    const client = createMealsClient({ baseUrl: 'http://meals.invalid', token: 't', fetch: htmlBadGateway });
    const error = await failure(client.rateMeal({ meal_id: 1, rating: 5 }));
    expect(error).toMatchObject({ status: 502, code: 'internal_error', source: 'unexpected_response' });
    expect(error.message).toContain('502 (text/html)');
  });

  it('turns a 200 without the success envelope into internal_error', async () => {
    const client = createMealsClient({
      baseUrl: 'http://meals.invalid',
      token: 't',
      fetch: async () => new Response('{"marked":true}', { status: 200 }),
    });
    expect(await failure(client.markMeal({ meal_id: 1, marked: true }))).toMatchObject({
      status: 200,
      code: 'internal_error',
      source: 'unexpected_response',
    });
  });

  it('turns a report answered as anything but CSV or the envelope into internal_error', async () => {
    const answering = (response: Response) =>
      createMealsClient({ baseUrl: 'http://meals.invalid', token: 't', fetch: async () => response });
    const request = { canteen: 'default', from: '2026-03-01', to: '2026-03-31' };
    expect(await failure(answering(await htmlBadGateway('')).getRatingsReport(request))).toMatchObject({
      status: 502,
      code: 'internal_error',
      source: 'unexpected_response',
    });
    const json = Response.json({ status: 'success', data: {} });
    expect(await failure(answering(json).getRatingsReport(request))).toMatchObject({
      status: 200,
      source: 'unexpected_response',
    });
    const csv = new Response('\uFEFFdate\r\n', { headers: { 'content-type': 'text/csv; charset=utf-8' } });
    await expect(answering(csv).getRatingsReport(request)).resolves.toBe('date\r\n');
  });

  it('turns a refused connection into internal_error with status 0', async () => {
    const refused = new TypeError('fetch failed');
    const client = createMealsClient({
      baseUrl: 'http://meals.invalid',
      token: 't',
      fetch: async () => {
        throw refused;
      },
    });
    const error = await failure(client.markMeal({ meal_id: 1, marked: true }));
    expect(error).toMatchObject({ status: 0, code: 'internal_error', source: 'network' });
    expect(error.cause).toBe(refused);
  });

  it('sends the bearer token and JSON to the prefixed route', async () => {
    const seen: { url: string; init: RequestInit | undefined }[] = [];
    const client = createMealsClient({
      baseUrl: 'http://meals.invalid/',
      token: 'the-token',
      fetch: async (url, init) => {
        seen.push({ url: String(url), init });
        return Response.json({ status: 'success', data: { marked: true } });
      },
    });
    await expect(client.markMeal({ meal_id: 7, marked: true })).resolves.toEqual({ marked: true });
    expect(seen[0]?.url).toBe('http://meals.invalid/api/v1/mark-meal');
    expect(seen[0]?.init).toMatchObject({
      method: 'POST',
      headers: { authorization: 'Bearer the-token', 'content-type': 'application/json' },
      body: '{"meal_id":7,"marked":true}',
    });
  });
});

describe('rankings against the real server', () => {
  it("ranks a canteen's meals and dishes without a token, with the server's RANKING_PRIOR and RANKING_Z", async () => {
    await admin.saveCanteen('ranked', { name: 'Ranked', timezone: 'UTC' });
    const served = (id: number, name: string) => MealMother.servedToday(now(), { id, name, canteenId: 'ranked' });
    const meals = [served(80, 'Pho'), served(81, 'Bibimbap'), served(82, 'Onigiri')];
    await admin.upsertMeals(MealMother.upsertBody(...meals));
    await alice.rateMeal({ meal_id: 80, rating: 5 });
    await alice.rateMeal({ meal_id: 81, rating: 4 });
    await bob.rateMeal({ meal_id: 81, rating: 5 });
    await clientFor('carol').rateMeal({ meal_id: 81, rating: 5 });
    await bob.markMeal({ meal_id: 82, marked: true });
    const date = meals[0]!.servedAt.toISOString().slice(0, 10);
    const anonymous = createMealsClient({ baseUrl: server.baseUrl });

    const available = { availability: 'available', availability_changed_at: null };
    // Two pseudo-votes per star, z = 0: Pho (one 5) scores 35/11, Bibimbap (4, 5, 5) 44/13; Onigiri has no score.
    const ranking = await anonymous.getRankings({ canteen: 'ranked', date });
    expect(ranking).toEqual({
      scope: 'meals',
      by: 'rating',
      items: [
        {
          rank: 1,
          meal_id: 81,
          name: 'Bibimbap',
          score: 44 / 13,
          rating_count: 3,
          rating_average: 14 / 3,
          labels: [],
          ...available,
        },
        {
          rank: 2,
          meal_id: 80,
          name: 'Pho',
          score: 35 / 11,
          rating_count: 1,
          rating_average: 5,
          labels: [],
          ...available,
        },
        {
          rank: 3,
          meal_id: 82,
          name: 'Onigiri',
          score: null,
          rating_count: 0,
          rating_average: null,
          labels: [],
          ...available,
        },
      ],
    });
    // By marks, the tie of Pho and Bibimbap goes by menu order.
    const byMarks = await anonymous.getRankings({ canteen: 'ranked', from: date, to: date, by: 'marks' });
    expect(byMarks.items.map((item) => [item.name, item.marks])).toEqual([
      ['Onigiri', 1],
      ['Pho', 0],
      ['Bibimbap', 0],
    ]);
    const dishes = await anonymous.getRankings({ canteen: 'ranked', scope: 'dishes' });
    expect(dishes.scope).toBe('dishes');
    if (dishes.scope === 'dishes')
      expect(dishes.items.map((item) => [item.rank, item.name, item.dish_id > 0])).toEqual([
        [1, 'Bibimbap', true],
        [2, 'Pho', true],
        [3, 'Onigiri', true],
      ]);

    expect(await failure(anonymous.getRankings({ canteen: 'nowhere', scope: 'dishes' }))).toMatchObject({
      code: 'canteen_not_found',
      status: 404,
    });
    expect(
      await failure(anonymous.getRankings({ canteen: 'ranked', from: '2030-01-01', to: '2030-02-01' })),
    ).toMatchObject({
      code: 'invalid_request',
      status: 400,
    });
  });
});

describe('live statistics against the real server', () => {
  // The day the open meals were served on (an hour before the start: the day before it, just after midnight), in
  // the canteen's zone, UTC here.
  let servedDay: string;
  beforeAll(async () => {
    servedDay = (await admin.getMeal(1)).served_at.slice(0, 10);
  });

  it('streams a snapshot, then a stats event per change, and resumes after the last event id', async () => {
    const abort = new AbortController();
    const events = createMealsClient({ baseUrl: server.baseUrl }).liveStatistics({
      canteen: 'default',
      date: servedDay,
      signal: abort.signal,
    });
    const stream = events[Symbol.asyncIterator]();
    try {
      const first = await stream.next();
      expect(first.done).toBe(false);
      const snapshot: LiveEvent = first.value!;
      if (snapshot.type !== 'snapshot') throw new Error(`expected a snapshot, got ${snapshot.type}`);
      expect(snapshot.id).toMatch(/\.0$/);
      expect(snapshot.meals.map((meal) => meal.meal_id)).toContain(1);
      expect(snapshot.meals[0]).toHaveProperty('dish.dish_id');

      const rated = await createMealsClient({
        baseUrl: server.baseUrl,
        token: signHmacToken(secret, { sub: 'erin' }),
      }).rateMeal({
        meal_id: 1,
        rating: 5,
      });
      const next = await stream.next();
      expect(next.value).toMatchObject({ type: 'stats', meal: { meal_id: 1, rating_count: rated.rating_count } });
      const stats: LiveEvent = next.value!;

      // A second stream resuming after the snapshot gets the missed stats event again, with its id.
      const resumed = createMealsClient({ baseUrl: server.baseUrl }).liveStatistics({
        canteen: 'default',
        date: servedDay,
        lastEventId: snapshot.id,
      });
      for await (const event of resumed) {
        expect(event).toEqual(stats);
        break;
      }
    } finally {
      abort.abort();
    }
    // Aborted: the iteration ends instead of waiting for the next event.
    await expect(stream.next()).resolves.toMatchObject({ done: true });
  });

  it("streams the kitchen's change of availability as an availability event, set with setMealAvailability", async () => {
    // The kitchen changes only today's meals: one served now (the open meals are yesterday's just after midnight).
    const servedNow = now();
    await admin.upsertMeals(MealMother.upsertBody(MealMother.servedAt(servedNow, { id: 7, name: 'Soup of the day' })));
    const abort = new AbortController();
    const stream = createMealsClient({ baseUrl: server.baseUrl })
      .liveStatistics({ canteen: 'default', date: servedNow.toISOString().slice(0, 10), signal: abort.signal })
      [Symbol.asyncIterator]();
    const kitchen = clientFor('kitchen', 'meals:kitchen');
    try {
      const snapshot: LiveEvent = (await stream.next()).value!;
      if (snapshot.type !== 'snapshot') throw new Error(`expected a snapshot, got ${snapshot.type}`);
      expect(snapshot.meals.find((meal) => meal.meal_id === 7)).toMatchObject({
        availability: 'available',
        availability_changed_at: null,
      });

      const set = await kitchen.setMealAvailability(7, 'sold_out');

      expect(set).toMatchObject({ meal_id: 7, availability: 'sold_out' });
      expect((await stream.next()).value).toMatchObject({ type: 'availability', meal: set });
      expect(await kitchen.setMealAvailability(7, 'sold_out')).toEqual(set);
      expect(await failure(kitchen.setMealAvailability(2, 'few_left'))).toMatchObject({
        code: 'meal_not_today',
        status: 409,
      });
      expect(await failure(alice.setMealAvailability(7, 'available'))).toMatchObject({
        code: 'forbidden',
        status: 403,
      });
    } finally {
      abort.abort();
    }
  });

  it('rejects with the refusal before any event', async () => {
    const events = createMealsClient({ baseUrl: server.baseUrl }).liveStatistics({
      canteen: 'no-such-canteen',
      date: servedDay,
    });
    const refusal = await failure(events[Symbol.asyncIterator]().next());
    expect(refusal).toMatchObject({ code: 'canteen_not_found', status: 404 });
  });
});

describe('archived canteens against the real server', () => {
  it('archives a canteen (again: the same archived_at), lists it among every canteen, and a save restores it', async () => {
    await admin.saveCanteen('closing', { name: 'Closing', timezone: 'UTC' });
    const archived = await admin.archiveCanteen('closing');
    expect(archived.canteen_id).toBe('closing');
    expect(Number.isNaN(Date.parse(archived.archived_at))).toBe(false);
    expect(await admin.archiveCanteen('closing')).toEqual(archived);

    const anonymous = createMealsClient({ baseUrl: server.baseUrl });
    expect((await anonymous.listCanteens()).canteens.map((canteen) => canteen.canteen_id)).not.toContain('closing');
    expect(await failure(anonymous.getCanteen('closing'))).toMatchObject({ code: 'canteen_not_found', status: 404 });
    const listed = (await admin.listAdminCanteens()).canteens;
    expect(listed.find((canteen) => canteen.canteen_id === 'closing')).toEqual({
      canteen_id: 'closing',
      name: 'Closing',
      timezone: 'UTC',
      city: null,
      address: null,
      coordinates: null,
      openmensa_id: expect.any(Number),
      feeds: [],
      note_labels: {},
      placeholder_names: [],
      archived_at: archived.archived_at,
    });
    expect(listed.find((canteen) => canteen.canteen_id === 'default')?.archived_at).toBeNull();

    await admin.saveCanteen('closing', { name: 'Closing', timezone: 'UTC' });
    expect((await anonymous.getCanteen('closing')).name).toBe('Closing');
    expect(await failure(admin.archiveCanteen('nowhere'))).toMatchObject({ code: 'canteen_not_found', status: 404 });
    expect(await failure(alice.archiveCanteen('closing'))).toMatchObject({ code: 'forbidden', status: 403 });
    expect(await failure(alice.listAdminCanteens())).toMatchObject({ code: 'forbidden', status: 403 });
  });
});
