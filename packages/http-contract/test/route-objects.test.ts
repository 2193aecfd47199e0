import { describe, expect, it } from 'vitest';
import { endpoints, requestOf, routePaths, routes } from '../src/index.js';

describe('route objects', () => {
  it('name each route by its operation, and take method and path from its endpoint', () => {
    for (const [name, endpoint] of Object.entries(endpoints)) {
      const route = routes[name as keyof typeof routes];
      expect(route, name).toBeDefined();
      expect([route.operationId, route.method, route.path]).toEqual([name, endpoint.method, endpoint.path]);
    }
  });

  it('are keyed by their operationId', () => {
    for (const [name, route] of Object.entries(routes)) expect(route.operationId).toBe(name);
  });

  it('are one per method and path', () => {
    const keys = Object.values(routes).map((route) => `${route.method} ${route.path}`);
    expect(new Set(keys).size).toBe(keys.length);
    expect(keys).toContain(`POST ${routePaths.rateMeal}`);
  });

  it('have a success answer each, and a path parameter schema exactly when the path has parameters', () => {
    for (const route of Object.values(routes)) {
      expect(
        Object.keys(route.responses).some((status) => Number(status) < 300),
        route.operationId,
      ).toBe(true);
      expect('params' in route, route.operationId).toBe(route.path.includes(':'));
    }
  });
});

describe('requestOf', () => {
  it('fills the path parameters, percent-encoded', () => {
    expect(requestOf(endpoints.fetchFeed, { params: { canteen_id: 'mensa nord', feed_name: 'a/b' } })).toEqual({
      method: 'POST',
      path: '/admin/canteens/mensa%20nord/feeds/a%2Fb/fetch',
      body: undefined,
    });
    expect(requestOf(endpoints.getMeal, { params: { meal_id: 42 } }).path).toBe('/meals/42');
  });

  it('adds the query in its order, and no question mark for an empty one', () => {
    const query = { canteen: 'default', date: '2026-03-10', without: 'A,G' };
    expect(requestOf(endpoints.getMeals, { query }).path).toBe('/meals?canteen=default&date=2026-03-10&without=A%2CG');
    expect(requestOf(endpoints.listMarkedMeals, { query: {} }).path).toBe('/marked-meals');
    expect(requestOf(endpoints.listCanteens, {}).path).toBe('/canteens');
  });

  it('passes the body as it is, for the caller to send as JSON', () => {
    const body = { meal_id: 1, rating: 5 };
    expect(requestOf(endpoints.rateMeal, { body })).toEqual({ method: 'POST', path: '/rate-meal', body });
  });
});
