import { describe, expect, it } from 'vitest';
import { adminScope } from '../src/index.js';
import { useSharedTestApp } from './app-fixture.js';

const fixture = useSharedTestApp();

const upsert = (servedAt: string) =>
  fixture.app.inject({
    method: 'PUT',
    url: '/api/v1/admin/meals',
    headers: { authorization: `Bearer ${fixture.token({ scope: adminScope })}`, 'content-type': 'application/json' },
    payload: { meals: [{ meal_id: 77, name: 'Far', served_at: servedAt, rateable: true }] },
  });

const read = (query: string) =>
  fixture.app.inject({
    method: 'GET',
    url: `/api/v1/${query}`,
    headers: { authorization: `Bearer ${fixture.token()}` },
  });

const idsOf = (response: Awaited<ReturnType<typeof read>>) =>
  (response.json() as { data: { meals?: { meal_id: number }[]; items?: { meal_id: number }[] } }).data.meals ??
  (response.json() as { data: { items: { meal_id: number }[] } }).data.items;

describe('the last days of year 9999', () => {
  it('are refused at write where their day could be past 9999-12-31 on some clock, naming served_at', async () => {
    for (const servedAt of [
      '9999-12-31T00:00:00Z',
      '9999-12-31T23:30:00Z',
      '9999-12-31T11:00:00-11:00',
      '0001-01-01T11:00:00Z',
      '0000-01-01T11:00:00Z',
    ]) {
      const response = await upsert(servedAt);
      expect([servedAt, response.statusCode]).toEqual([servedAt, 400]);
      expect(response.json().error).toEqual({
        code: 'invalid_request',
        message: expect.stringContaining('served_at must lie from 0001-01-02'),
      });
    }
    expect(fixture.adapters.db.meals.has(77)).toBe(false);
  });

  it('can be read, empty or with the meals written on them, by day, range and ranking', async () => {
    // Berlin is UTC+1: 9999-12-30 23:59 UTC is already 9999-12-31 there.
    expect((await upsert('9999-12-30T23:59:00Z')).statusCode).toBe(200);
    for (const query of [
      'meals?canteen=default&date=9999-12-31',
      'meals?canteen=default&from=9999-12-18&to=9999-12-31',
      'rankings?canteen=default&from=9999-12-01&to=9999-12-31',
      'me/meals?canteen=default&date=9999-12-31',
    ]) {
      const response = await read(query);
      expect([query, response.statusCode]).toEqual([query, 200]);
      if (!query.startsWith('me/'))
        expect([query, idsOf(response)?.map((meal) => meal.meal_id)]).toEqual([query, [77]]);
    }
    expect((await read('meals?canteen=default&date=9999-12-30')).json().data.meals).toEqual([]);
    // The bounds of a range hold there as anywhere: 15 days are one too many.
    const tooLong = await read('meals?canteen=default&from=9999-12-17&to=9999-12-31');
    expect(tooLong.json().error.message).toBe('a menu read covers at most 14 days');
    // The first day that can be written, on the other end.
    expect((await upsert('0001-01-02T00:00:00Z')).statusCode).toBe(200);
    expect(idsOf(await read('meals?canteen=default&date=0001-01-02'))?.map((meal) => meal.meal_id)).toEqual([77]);
  });
});
