import type { LightMyRequestResponse } from 'fastify';
import { describe, expect, it } from 'vitest';
import { adminScope, reportsScope } from '../src/index.js';
import { useSharedTestApp } from './app-fixture.js';
import { concreteUrl, registeredRoutes } from './route-table.js';

const fixture = useSharedTestApp();

/** The query each GET route needs to answer 200 (the rest need none). */
const queries: Readonly<Record<string, string>> = {
  '/api/v1/meals': '?canteen=default&date=2026-03-10',
  '/api/v1/me/meals': '?canteen=default&date=2026-03-10',
  '/api/v1/rankings': '?canteen=default&date=2026-03-10',
  '/api/v1/canteens/:canteen_id/dishes': '?q=open',
  '/api/v1/admin/reports/ratings.csv': '?canteen=default&from=2026-03-01&to=2026-03-10',
};

/** A stream that never ends under inject; its own test checks its `no-cache`. */
const skipped = new Set(['/api/v1/live']);

/** The dish of meal 1 ("Open meal"), as the search finds it. */
async function dishOfOpenMeal(): Promise<number> {
  const search = await fixture.app.inject({ method: 'GET', url: '/api/v1/canteens/default/dishes?q=open' });
  return search.json().data.dishes[0].dish_id;
}

const isPrivate = (response: LightMyRequestResponse) =>
  /\b(private|no-store)\b/.test(String(response.headers['cache-control'] ?? ''));
const isShared = (response: LightMyRequestResponse) =>
  /\bpublic\b/.test(String(response.headers['cache-control'] ?? ''));
const variesByToken = (response: LightMyRequestResponse) =>
  /\bauthorization\b/i.test(String(response.headers.vary ?? ''));

describe('answers that depend on the token', () => {
  it('are private on every GET route, and the anonymous answer of such a route varies by Authorization', async () => {
    const scope = `${adminScope} ${reportsScope}`;
    const alice = `Bearer ${fixture.token({ sub: 'alice', scope })}`;
    const bob = `Bearer ${fixture.token({ sub: 'bob', scope })}`;
    // Alice has figures of her own on meal 1 (and so on its dish); Bob has none.
    for (const [url, payload] of [
      ['/api/v1/mark-meal', { meal_id: 1, marked: true }],
      ['/api/v1/rate-meal', { meal_id: 1, rating: 4 }],
    ] as const) {
      const response = await fixture.app.inject({ method: 'POST', url, headers: { authorization: alice }, payload });
      expect(response.statusCode).toBe(200);
    }
    const webhook = { url: 'https://app.example.com/hooks', events: ['menu.published'] };
    const created = await fixture.app.inject({
      method: 'PUT',
      url: '/api/v1/admin/webhooks/app-backend',
      headers: { authorization: alice },
      payload: webhook,
    });
    expect(created.statusCode).toBeLessThan(300);
    const dish = await dishOfOpenMeal();
    const checked: string[] = [];
    for (const [method, path] of registeredRoutes(fixture.app)) {
      if (method !== 'GET' || skipped.has(path)) continue;
      const url = `${concreteUrl(path.replace(':dish_id', String(dish)))}${queries[path] ?? ''}`;
      const read = (authorization?: string) =>
        fixture.app.inject({ method: 'GET', url, headers: authorization === undefined ? {} : { authorization } });
      const [anonymous, asAlice, asBob] = [await read(), await read(alice), await read(bob)];
      expect([url, asAlice.statusCode < 400]).toEqual([url, true]);
      const answers = [anonymous, asAlice, asBob].map((response) => `${response.statusCode} ${response.body}`);
      if (new Set(answers).size === 1) continue;
      checked.push(path);
      for (const response of [asAlice, asBob])
        expect([url, response.headers['cache-control']]).toEqual([url, expect.stringMatching(/private|no-store/)]);
      expect([url, isPrivate(asAlice)]).toEqual([url, true]);
      // A shared cache may keep the anonymous answer only if it knows that a token changes it.
      if (anonymous.statusCode === 200 && !isPrivate(anonymous))
        expect([url, variesByToken(anonymous)]).toEqual([url, true]);
      if (isShared(anonymous)) expect([url, variesByToken(anonymous)]).toEqual([url, true]);
    }
    // The menu, the dish, and every route that needs a token among them.
    expect(checked).toEqual(
      expect.arrayContaining(['/api/v1/meals', '/api/v1/dishes/:dish_id', '/api/v1/me/data', '/api/v1/admin/webhooks']),
    );
    expect(checked.length).toBeGreaterThan(10);
  });

  it('GET /dishes/{id}: public with Vary: Authorization without a token, private with one', async () => {
    const url = `/api/v1/dishes/${await dishOfOpenMeal()}`;
    const anonymous = await fixture.app.inject({ method: 'GET', url });
    expect(anonymous.statusCode).toBe(200);
    expect(anonymous.headers['cache-control']).toBe('public, max-age=5, stale-while-revalidate=30');
    // Accept-Encoding beside it: every GET's answer may go out compressed (compression.ts).
    expect(anonymous.headers.vary).toBe('authorization, accept-encoding');
    const personal = await fixture.app.inject({
      method: 'GET',
      url,
      headers: { authorization: `Bearer ${fixture.token()}` },
    });
    expect(personal.statusCode).toBe(200);
    expect(personal.headers['cache-control']).toBe('private, no-store');
    expect(personal.headers.vary).toBe('authorization, accept-encoding');
  });
});
