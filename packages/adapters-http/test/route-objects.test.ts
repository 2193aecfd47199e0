import { apiPrefix, routes } from '@canteen-meals/http-contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp } from './app-fixture.js';

type Operation = { operationId?: string; summary?: string; tags?: string[]; security?: unknown[] };
type App = Awaited<ReturnType<typeof buildTestApp>>['app'];

let app: App;
let paths: Record<string, Record<string, Operation>>;
beforeAll(async () => {
  app = (await buildTestApp()).app;
  paths = (await app.inject({ method: 'GET', url: '/openapi.json' })).json().paths;
});
afterAll(() => app.close());

// The live stream is a plugin of its own package (adapters-http-live), which its own tests serve.
const servedHere = Object.values(routes).filter((route) => route.operationId !== 'streamLiveStatistics');

/** `/canteens/:canteen_id` as the document writes it: `/api/v1/canteens/{canteen_id}`. */
const documentPath = (path: string) => apiPrefix + path.replace(/:(\w+)/g, '{$1}');

describe('the route objects of the wire contract', () => {
  it('are what the server serves: each at its method and path, with its operationId, summary, tags and security', () => {
    const served = servedHere.map((route) => {
      const operation = paths[documentPath(route.path)]?.[route.method.toLowerCase()];
      return {
        at: `${route.method} ${route.path}`,
        operationId: operation?.operationId,
        summary: operation?.summary,
        // The document tags an operation without tags of its own by its path.
        tags: 'tags' in route ? operation?.tags : undefined,
        public: operation?.security?.length === 0,
        optionalToken: operation?.security?.length === 2,
      };
    });
    const contracted = servedHere.map((route) => ({
      at: `${route.method} ${route.path}`,
      operationId: route.operationId,
      summary: route.summary,
      tags: 'tags' in route ? route.tags : undefined,
      public: 'public' in route && route.public === true,
      optionalToken: 'optionalToken' in route && route.optionalToken === true,
    }));
    expect(served).toEqual(contracted);
  });

  it('answer what their responses say: a request the route object describes is served', async () => {
    const answer = await app.inject({ method: routes.listCanteens.method, url: apiPrefix + routes.listCanteens.path });
    expect(answer.statusCode).toBe(200);
    expect(Object.keys(routes.listCanteens.responses)).toContain(String(answer.statusCode));
  });
});
