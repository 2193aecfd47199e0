import { MealMother } from '@canteen-meals/repository-contract';
import { describe, expect, it } from 'vitest';
import { adminScope } from '../src/index.js';
import { now, useSharedTestApp } from './app-fixture.js';

const fixture = useSharedTestApp();
const day = 24 * 60 * 60 * 1000;

const send = (
  method: 'GET' | 'POST' | 'PUT' | 'DELETE',
  url: string,
  options: { token?: string | null; body?: unknown } = {},
) =>
  fixture.app.inject({
    method,
    url,
    headers: {
      ...(options.token === null ? {} : { authorization: `Bearer ${options.token ?? fixture.token()}` }),
      ...(options.body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(options.body === undefined ? {} : { payload: JSON.stringify(options.body) }),
  });
const admin = () => fixture.token({ scope: adminScope });
const errorOf = (response: { statusCode: number; json(): any }) => [response.statusCode, response.json().error?.code];
const upsert = (...meals: ReturnType<typeof MealMother.servedAt>[]) =>
  send('PUT', '/api/v1/admin/meals', { token: admin(), body: MealMother.upsertBody(...meals) });
const rate = (mealId: number, rating: number | null, sub = 'alice') =>
  send('POST', '/api/v1/rate-meal', { token: fixture.token({ sub }), body: { meal_id: mealId, rating } });
const dishIdOf = async (mealId: number) => (await send('GET', `/api/v1/meals/${mealId}`)).json().data.dish_id as number;

describe('dishes on meal answers', () => {
  it('gives the servings of one name one dish, whose figures count every serving', async () => {
    await upsert(
      MealMother.servedDaysAgo(now, 7, { id: 10, name: 'Chili con Carne' }),
      MealMother.servedHoursAgo(now, 1, { id: 11, name: 'chili  con CARNE' }),
      MealMother.servedTomorrow(now, { id: 12, name: 'Chili con Carne' }),
    );
    await rate(10, 5, 'bob');
    await rate(11, 3);
    const meal = (await send('GET', '/api/v1/meals/11')).json().data;
    expect(meal.dish_id).toBe(await dishIdOf(10));
    expect(meal.dish).toEqual({
      dish_id: meal.dish_id,
      name: 'Chili con Carne',
      rating_count: 2,
      rating_average: 4,
      rating_median: 4,
      times_served: 2,
      last_served_at: new Date(now.getTime() - 60 * 60 * 1000).toISOString(),
      next_served_at: new Date(now.getTime() + day).toISOString(),
    });
    expect(meal.rating_count).toBe(1);
  });
});

describe('GET /api/v1/dishes/{dish_id}', () => {
  it("answers the dish, its names and servings newest first; with a token, the caller's own figures; without, none", async () => {
    await upsert(
      MealMother.servedDaysAgo(now, 14, { id: 20, name: 'Lasagne' }),
      MealMother.servedDaysAgo(now, 7, { id: 21, name: 'Lasagne' }),
      MealMother.servedHoursAgo(now, 1, { id: 22, name: 'LASAGNE' }),
    );
    await rate(22, 4);
    await send('POST', '/api/v1/mark-meal', { body: { meal_id: 21, marked: true } });
    const id = await dishIdOf(20);

    const mine = (await send('GET', `/api/v1/dishes/${id}?limit=2`)).json().data;
    expect(mine).toMatchObject({
      dish_id: id,
      canteen_id: 'default',
      name: 'Lasagne',
      names: ['Lasagne'],
      times_served: 3,
    });
    expect(mine.rating_distribution).toEqual({ '1': 0, '2': 0, '3': 0, '4': 1, '5': 0 });
    expect(mine.personal).toEqual({
      marked: true,
      rating_count: 1,
      rating_average: 4,
      rating_distribution: { '1': 0, '2': 0, '3': 0, '4': 1, '5': 0 },
    });
    expect(mine.servings.map((meal: { meal_id: number }) => meal.meal_id)).toEqual([22, 21]);
    expect(mine.servings[0].rating_personal).toBe(4);
    const rest = (await send('GET', `/api/v1/dishes/${id}?limit=2&cursor=${mine.next_cursor}`)).json().data;
    expect(rest.servings.map((meal: { meal_id: number }) => meal.meal_id)).toEqual([20]);
    expect(rest.next_cursor).toBeNull();

    const anonymous = await send('GET', `/api/v1/dishes/${id}`, { token: null });
    expect(anonymous.statusCode).toBe(200);
    expect(anonymous.json().data.personal).toBeNull();
    expect(anonymous.json().data.servings[0].marked).toBe(false);
    // Another reader's cursor, or one of another dish, is refused.
    expect(errorOf(await send('GET', `/api/v1/dishes/${id}?cursor=${mine.next_cursor}`, { token: null }))).toEqual([
      400,
      'invalid_cursor',
    ]);
  });

  it('refuses an unknown dish (404), a bad token (401) and a malformed id (400)', async () => {
    expect(errorOf(await send('GET', '/api/v1/dishes/999999'))).toEqual([404, 'dish_not_found']);
    expect(errorOf(await send('GET', '/api/v1/dishes/1', { token: 'not-a-token' }))).toEqual([401, 'invalid_token']);
    expect(errorOf(await send('GET', '/api/v1/dishes/abc'))).toEqual([400, 'invalid_request']);
  });
});

describe('GET /api/v1/canteens/{canteen_id}/dishes?q=', () => {
  it("finds a canteen's dishes by part of a name, without case or accents, a page at a time, publicly", async () => {
    await upsert(
      MealMother.servedHoursAgo(now, 1, { id: 30, name: 'Käsespätzle' }),
      MealMother.servedHoursAgo(now, 1, { id: 31, name: 'Spätzle mit Soße' }),
      MealMother.servedHoursAgo(now, 1, { id: 32, name: 'Kaiserschmarrn' }),
    );
    const names = (response: { json(): any }) => response.json().data.dishes.map((dish: { name: string }) => dish.name);
    expect(names(await send('GET', '/api/v1/canteens/default/dishes?q=SPATZLE', { token: null }))).toEqual([
      'Käsespätzle',
      'Spätzle mit Soße',
    ]);
    expect(names(await send('GET', '/api/v1/canteens/default/dishes?q=k%C3%A4se', { token: null }))).toEqual([
      'Käsespätzle',
    ]);
    const first = (await send('GET', '/api/v1/canteens/default/dishes?q=a&limit=1', { token: null })).json().data;
    expect(first.dishes).toHaveLength(1);
    const next = await send('GET', `/api/v1/canteens/default/dishes?q=a&limit=1&cursor=${first.next_cursor}`, {
      token: null,
    });
    expect(next.json().data.dishes[0].name).not.toBe(first.dishes[0].name);
    // A cursor pages its own search only.
    expect(
      errorOf(await send('GET', `/api/v1/canteens/default/dishes?q=b&cursor=${first.next_cursor}`, { token: null })),
    ).toEqual([400, 'invalid_cursor']);
  });

  it('refuses an unknown canteen (404) and a missing or too long text (400)', async () => {
    expect(errorOf(await send('GET', '/api/v1/canteens/nowhere/dishes?q=a'))).toEqual([404, 'canteen_not_found']);
    expect(errorOf(await send('GET', `/api/v1/canteens/default/dishes?q=${'a'.repeat(101)}`))).toEqual([
      400,
      'invalid_request',
    ]);
  });
});

// A search without text lists, and one across canteens needs no canteen.
describe('GET /api/v1/dishes?q=&canteen= and a search without q', () => {
  const idsOf = (response: { json(): any }) =>
    response.json().data.dishes.map((dish: { canteen_id: string; name: string }) => `${dish.canteen_id}/${dish.name}`);

  it("lists a canteen's dishes without q, and every canteen's (or one's) across canteens, by dish id, a page at a time", async () => {
    await send('PUT', '/api/v1/admin/canteens/bistro', {
      token: admin(),
      body: { name: 'Bistro', timezone: 'Europe/Berlin' },
    });
    await upsert(MealMother.servedHoursAgo(now, 1, { id: 60, name: 'Pho' }), {
      ...MealMother.servedHoursAgo(now, 1, { id: 61, name: 'Phad Thai' }),
      canteenId: 'bistro',
    });
    const ofDefault = idsOf(await send('GET', '/api/v1/canteens/default/dishes', { token: null }));
    expect(ofDefault).toContain('default/Pho');
    expect(ofDefault).not.toContain('bistro/Phad Thai');
    const everywhere = idsOf(await send('GET', '/api/v1/dishes?limit=100', { token: null }));
    expect(everywhere).toEqual(expect.arrayContaining(['default/Pho', 'bistro/Phad Thai']));
    expect(everywhere).toEqual([...ofDefault, 'bistro/Phad Thai']);
    expect(idsOf(await send('GET', '/api/v1/dishes?q=ph', { token: null }))).toEqual([
      'default/Pho',
      'bistro/Phad Thai',
    ]);
    expect(idsOf(await send('GET', '/api/v1/dishes?q=ph&canteen=bistro', { token: null }))).toEqual([
      'bistro/Phad Thai',
    ]);
    const first = (await send('GET', '/api/v1/dishes?q=ph&limit=1', { token: null })).json().data;
    expect(first.dishes).toHaveLength(1);
    const next = await send('GET', `/api/v1/dishes?q=ph&limit=1&cursor=${first.next_cursor}`, { token: null });
    expect(idsOf(next)).toEqual(['bistro/Phad Thai']);
    // A cursor of the search across canteens does not page the same text in one canteen.
    expect(
      errorOf(await send('GET', `/api/v1/canteens/default/dishes?q=ph&cursor=${first.next_cursor}`, { token: null })),
    ).toEqual([400, 'invalid_cursor']);
    expect(errorOf(await send('GET', '/api/v1/dishes?canteen=nowhere', { token: null }))).toEqual([
      404,
      'canteen_not_found',
    ]);
  });
});

// Dish search takes the label filter of every menu read.
describe('GET /api/v1/canteens/{canteen_id}/dishes and /api/v1/dishes with without= and only=', () => {
  const namesOf = (response: { json(): any }) => response.json().data.dishes.map((dish: { name: string }) => dish.name);

  it('keeps the dishes of which a serving passes the filter (a parent covers its sub-kinds), full pages, cursors bound to the filter', async () => {
    await upsert(
      // Labels as a writer gives them: the server adds their parents (wheat implies gluten, vegan vegetarian).
      MealMother.servedHoursAgo(now, 1, { id: 70, name: 'Labelbrot', labels: ['wheat'] }),
      MealMother.servedHoursAgo(now, 1, { id: 71, name: 'Labelcurry', labels: ['vegan'] }),
      MealMother.servedHoursAgo(now, 1, { id: 72, name: 'Labelei', labels: ['eggs', 'mustard', 'vegetarian'] }),
      MealMother.servedHoursAgo(now, 1, { id: 73, name: 'Labelsalat', labels: ['vegan', 'sesame'] }),
    );
    const search = (query: string) => send('GET', `/api/v1/canteens/default/dishes?q=label${query}`, { token: null });
    expect(namesOf(await search(''))).toEqual(['Labelbrot', 'Labelcurry', 'Labelei', 'Labelsalat']);
    expect(namesOf(await search('&without=gluten'))).toEqual(['Labelcurry', 'Labelei', 'Labelsalat']);
    expect(namesOf(await search('&without=mustard,sesame'))).toEqual(['Labelbrot', 'Labelcurry']);
    expect(namesOf(await search('&only=vegetarian'))).toEqual(['Labelcurry', 'Labelei', 'Labelsalat']);
    expect(namesOf(await search('&only=vegan&without=sesame'))).toEqual(['Labelcurry']);
    expect(namesOf(await send('GET', '/api/v1/dishes?q=label&only=vegan', { token: null }))).toEqual([
      'Labelcurry',
      'Labelsalat',
    ]);

    // A page of one holds a dish that passes; its cursor pages this filtered search and no other.
    const first = (await search('&only=vegetarian&limit=1')).json().data;
    expect(first.dishes.map((dish: { name: string }) => dish.name)).toEqual(['Labelcurry']);
    const next = await search(`&only=vegetarian&limit=1&cursor=${first.next_cursor}`);
    expect(namesOf(next)).toEqual(['Labelei']);
    expect(errorOf(await search(`&limit=1&cursor=${first.next_cursor}`))).toEqual([400, 'invalid_cursor']);
    expect(errorOf(await search(`&only=vegan&limit=1&cursor=${first.next_cursor}`))).toEqual([400, 'invalid_cursor']);
    // A search without a filter pages as before: its cursors do not name one.
    const unfiltered = (await search('&limit=1')).json().data;
    expect(namesOf(await search(`&limit=1&cursor=${unfiltered.next_cursor}`))).toEqual(['Labelcurry']);
  });

  it('refuses unknown codes with 400 naming each', async () => {
    for (const url of [
      '/api/v1/canteens/default/dishes?q=a&without=gluten,glutten',
      '/api/v1/dishes?only=vegan,peanut',
    ]) {
      const response = await send('GET', url, { token: null });
      expect(errorOf(response)).toEqual([400, 'invalid_request']);
      expect(response.json().error.message).toContain(url.includes('glutten') ? '"glutten"' : '"peanut"');
    }
  });
});

describe('POST /api/v1/admin/dishes/{dish_id}/merge', () => {
  it('merges renamed dishes: statistics add up, names are kept, later servings of a merged name land in the target', async () => {
    await upsert(
      MealMother.servedDaysAgo(now, 7, { id: 40, name: 'Chili con Carne' }),
      MealMother.servedHoursAgo(now, 1, { id: 41, name: 'Chili con Carne (scharf)' }),
    );
    await rate(41, 2);
    const [target, source] = [await dishIdOf(40), await dishIdOf(41)];
    const merged = await send('POST', `/api/v1/admin/dishes/${target}/merge`, {
      token: admin(),
      body: { from: [source] },
    });
    expect(merged.statusCode).toBe(200);
    expect(merged.json().data).toMatchObject({
      dish_id: target,
      names: ['Chili con Carne', 'Chili con Carne (scharf)'],
      rating_count: 1,
      times_served: 2,
    });
    expect(errorOf(await send('GET', `/api/v1/dishes/${source}`))).toEqual([404, 'dish_not_found']);
    await upsert(MealMother.servedTomorrow(now, { id: 42, name: 'chili con carne (SCHARF)' }));
    expect(await dishIdOf(42)).toBe(target);
  });

  it('refuses dishes of another canteen (409), unknown dishes (404), a merge into itself (400), without the scope (403)', async () => {
    await send('PUT', '/api/v1/admin/canteens/bistro', {
      token: admin(),
      body: { name: 'Bistro', timezone: 'Europe/Berlin' },
    });
    await upsert(MealMother.servedHoursAgo(now, 1, { id: 50, name: 'Soup' }), {
      ...MealMother.servedHoursAgo(now, 1, { id: 51, name: 'Soup' }),
      canteenId: 'bistro',
    });
    const [here, there] = [await dishIdOf(50), await dishIdOf(51)];
    const merge = (target: number, from: unknown, token = admin()) =>
      send('POST', `/api/v1/admin/dishes/${target}/merge`, { token, body: { from } });
    expect(errorOf(await merge(here, [there]))).toEqual([409, 'dishes_in_other_canteens']);
    expect(errorOf(await merge(here, [999_999]))).toEqual([404, 'dish_not_found']);
    expect(errorOf(await merge(here, [here]))).toEqual([400, 'invalid_request']);
    expect(errorOf(await merge(here, []))).toEqual([400, 'invalid_request']);
    expect(errorOf(await merge(here, ['1']))).toEqual([400, 'invalid_request']);
    expect(errorOf(await merge(here, [there], fixture.token()))).toEqual([403, 'forbidden']);
    expect(await dishIdOf(51)).toBe(there);
  });
});

describe('DELETE /api/v1/admin/meals/{meal_id}', () => {
  it('withdraws a meal: it leaves the menu and reads, cannot be marked or rated, and its ratings stay in its dish', async () => {
    await upsert(
      MealMother.servedHoursAgo(now, 2, { id: 60, name: 'Fish' }),
      MealMother.servedTomorrow(now, { id: 61, name: 'Fish' }),
    );
    await rate(60, 5);
    const dishId = await dishIdOf(60);
    const withdrawn = await send('DELETE', '/api/v1/admin/meals/60', { token: admin() });
    expect(withdrawn.json()).toEqual({ status: 'success', data: { meal_id: 60, withdrawn_at: now.toISOString() } });
    expect((await send('DELETE', '/api/v1/admin/meals/60', { token: admin() })).json().data.withdrawn_at).toBe(
      now.toISOString(),
    );

    expect(errorOf(await send('GET', '/api/v1/meals/60'))).toEqual([404, 'meal_not_found']);
    expect(errorOf(await rate(60, 4))).toEqual([404, 'meal_not_found']);
    expect(errorOf(await send('POST', '/api/v1/mark-meal', { body: { meal_id: 60, marked: true } }))).toEqual([
      404,
      'meal_not_found',
    ]);
    const menu = (await send('GET', '/api/v1/meals?date=2026-03-10'))
      .json()
      .data.meals.map((meal: { meal_id: number }) => meal.meal_id);
    expect(menu).not.toContain(60);
    const dish = (await send('GET', `/api/v1/dishes/${dishId}`)).json().data;
    expect(dish).toMatchObject({
      rating_count: 1,
      times_served: 0,
      servings: [expect.objectContaining({ meal_id: 61 })],
    });
    const data = (await send('GET', '/api/v1/me/data')).json().data;
    expect(data.ratings.map((rating: { meal_id: number }) => rating.meal_id)).toEqual([60]);
  });

  it('answers 404 for an unknown meal and 403 without the scope', async () => {
    expect(errorOf(await send('DELETE', '/api/v1/admin/meals/999', { token: admin() }))).toEqual([
      404,
      'meal_not_found',
    ]);
    expect(errorOf(await send('DELETE', '/api/v1/admin/meals/1'))).toEqual([403, 'forbidden']);
  });
});
