import { describe, expect, it } from 'vitest';
import { adminScope } from '../src/index.js';
import { now, useSharedTestApp } from './app-fixture.js';
import { MealMother } from '@canteen-meals/repository-contract';

const fixture = useSharedTestApp();
const tomorrow = '2026-03-11';
const today = '2026-03-10';

function put(path: string, body: unknown, scope: string | null = adminScope) {
  return fixture.app.inject({
    method: 'PUT',
    url: `/api/v1/admin/canteens/${path}`,
    headers: {
      authorization: `Bearer ${fixture.token(scope === null ? {} : { scope })}`,
      'content-type': 'application/json',
    },
    payload: JSON.stringify(body),
  });
}
const menuOf = async (date: string) =>
  (await fixture.app.inject({ method: 'GET', url: `/api/v1/meals?canteen=default&date=${date}` })).json().data;

describe('PUT /api/v1/admin/canteens/{canteen_id}/days/{date}', () => {
  it('closes a day: its meals still to be served are withdrawn, and the menu answers say the day is closed', async () => {
    await fixture.adapters.meals.upsertMany([MealMother.servedTomorrow(now, { id: 30, name: 'Also tomorrow' })]);
    const closed = await put(`default/days/${tomorrow}`, { closed: true });
    expect(closed.statusCode).toBe(200);
    expect(closed.json()).toEqual({
      status: 'success',
      data: { canteen_id: 'default', date: tomorrow, closed: true, withdrawn_meal_ids: [3, 30] },
    });
    expect(await menuOf(tomorrow)).toEqual({ meals: [], unknown_ids: [], closed_days: [tomorrow] });
    expect((await menuOf(today)).closed_days).toEqual([]);
  });

  it('keeps the meals already served when a day is closed afterwards, and opens a day again without bringing meals back', async () => {
    expect((await put(`default/days/${today}`, { closed: true })).json().data.withdrawn_meal_ids).toEqual([]);
    expect((await menuOf(today)).meals.map((meal: { meal_id: number }) => meal.meal_id)).toEqual([1, 2]);
    await put(`default/days/${tomorrow}`, { closed: true });
    const opened = await put(`default/days/${tomorrow}`, { closed: false });
    expect(opened.json().data).toEqual({
      canteen_id: 'default',
      date: tomorrow,
      closed: false,
      withdrawn_meal_ids: [],
    });
    expect(await menuOf(tomorrow)).toEqual({ meals: [], unknown_ids: [], closed_days: [] });
  });

  it('answers 404 for an unknown canteen, 400 for a day that does not exist or a body without closed, 403 without the scope', async () => {
    expect([(await put(`nowhere/days/${today}`, { closed: true })).statusCode]).toEqual([404]);
    expect((await put('default/days/2026-02-30', { closed: true })).json().error.code).toBe('invalid_request');
    expect((await put(`default/days/${today}`, {})).json().error.code).toBe('invalid_request');
    expect((await put(`default/days/${today}`, { closed: 'yes' })).json().error.code).toBe('invalid_request');
    expect((await put(`default/days/${today}`, { closed: true }, null)).statusCode).toBe(403);
    expect((await menuOf(today)).closed_days).toEqual([]);
  });
});

describe("PUT /api/v1/admin/meals with closed_days (the JSON import's <closed/>)", () => {
  const upsert = (body: unknown) =>
    fixture.app.inject({
      method: 'PUT',
      url: '/api/v1/admin/meals',
      headers: { authorization: `Bearer ${fixture.token({ scope: adminScope })}`, 'content-type': 'application/json' },
      payload: JSON.stringify(body),
    });
  const soup = { meal_id: 50, name: 'Soup', served_at: '2026-03-12T11:00:00Z', rateable: true };

  it('records the days as closed, withdrawing their meals still to be served, then writes the meals', async () => {
    const response = await upsert({
      meals: [soup],
      closed_days: [{ date: tomorrow }, { canteen_id: 'default', date: '2026-03-13' }],
    });
    expect(response.json()).toEqual({ status: 'success', data: { upserted: 1 } });
    expect(await menuOf(tomorrow)).toEqual({ meals: [], unknown_ids: [], closed_days: [tomorrow] });
    expect((await menuOf('2026-03-13')).closed_days).toEqual(['2026-03-13']);
    expect((await menuOf('2026-03-12')).meals.map((meal: { meal_id: number }) => meal.meal_id)).toEqual([50]);
  });

  it('refuses a closed day of an unknown canteen before any meal is written', async () => {
    const response = await upsert({ meals: [soup], closed_days: [{ canteen_id: 'nowhere', date: tomorrow }] });
    expect([response.statusCode, response.json().error.code]).toEqual([404, 'canteen_not_found']);
    expect((await menuOf('2026-03-12')).meals).toEqual([]);
    expect((await upsert({ meals: [soup], closed_days: [{ date: tomorrow, closed: true }] })).json().error.code).toBe(
      'invalid_request',
    );
  });
});
