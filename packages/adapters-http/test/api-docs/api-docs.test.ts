import { Validator } from '@seriousme/openapi-schema-validator';
import { beforeRoutingErrors, errorCodes, errorResponses, httpStatusOf } from '@canteen-meals/adapters-http';
import { Type } from '@sinclair/typebox';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  documentedErrorCodes,
  documentProblems,
  undeclaredSchemas,
  type OpenApiDocument,
  type RegisteredRoute,
} from './schema-coverage.js';
import { buildTestApp } from '../app-fixture.js';

// Every route any plugin registers, with the schema it was given, collected by an onRoute hook on each new app.
const registered = vi.hoisted(() => new Map<object, RegisteredRoute[]>());
vi.mock('fastify', async (importOriginal) => {
  const fastify = await importOriginal<typeof import('fastify')>();
  const withRouteCollector = (options?: object) => {
    const instance = fastify.default(options);
    const routes: RegisteredRoute[] = [];
    registered.set(instance, routes);
    instance.addHook('onRoute', (route) => void routes.push(route as RegisteredRoute));
    return instance;
  };
  return { ...fastify, default: withRouteCollector };
});

const routesOf = (server: object): RegisteredRoute[] => registered.get(server) ?? [];

const misplacedNotFound = { 410: errorResponses(['meal_not_found'])[404]! };

type App = Awaited<ReturnType<typeof buildTestApp>>['app'];
const apps: App[] = [];
afterEach(async () => {
  await Promise.all(apps.splice(0).map((app) => app.close()));
});

async function app(options: Parameters<typeof buildTestApp>[0] = {}): Promise<App> {
  const built = (await buildTestApp(options)).app;
  apps.push(built);
  return built;
}

async function openApiDocument(server: App): Promise<OpenApiDocument & Record<string, any>> {
  const response = await server.inject({ method: 'GET', url: '/openapi.json' });
  expect(response.statusCode).toBe(200);
  return response.json();
}

describe('GET /openapi.json', () => {
  it('serves an OpenAPI 3.1 document that validates, without a token', async () => {
    const document = await openApiDocument(await app());
    const validator = new Validator();
    const result = await validator.validate(document);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(validator.version).toBe('3.1');
  });

  it('lists every route of the API and none of its own', async () => {
    const document = await openApiDocument(await app());
    expect(Object.keys(document.paths)).toEqual(
      expect.arrayContaining(['/api/v1/mark-meal', '/api/v1/rate-meal', '/api/v1/admin/meals']),
    );
    expect(Object.keys(document.paths).filter((path) => path.startsWith('/docs') || path === '/openapi.json')).toEqual(
      [],
    );
  });

  it('has a schema for the body, the params, success and errors of every route', async () => {
    const server = await app();
    expect(routesOf(server).map((route) => route.url)).toContain('/api/v1/rate-meal');
    // Error responses per status come from the one table: errorResponses([...codes]) in src/schemas/error-responses.ts.
    expect(undeclaredSchemas(routesOf(server)), 'routes without a schema').toEqual([]);
    expect(documentProblems(await openApiDocument(server))).toEqual([]);
  });

  it('finds a route registered without a schema', async () => {
    const server = await app();
    server.post('/api/v1/undocumented', async () => ({ status: 'success', data: {} }));
    server.get('/api/v1/things/:id', { schema: { response: { 200: Type.Object({}) } } }, async () => ({}));
    server.get('/healthz-without-schema', async () => ({}));
    expect(undeclaredSchemas(routesOf(server))).toEqual([
      'POST /api/v1/undocumented: no success response schema',
      'POST /api/v1/undocumented: no body schema',
      'POST /api/v1/undocumented: no 401 error response schema',
      'POST /api/v1/undocumented: no 500 error response schema',
      'GET /api/v1/things/:id: no params schema for :id',
      'GET /api/v1/things/:id: no 401 error response schema',
      'GET /api/v1/things/:id: no 500 error response schema',
      'GET /healthz-without-schema: no success response schema',
    ]);
  });

  it('finds an error code documented under a status the table does not give it', async () => {
    const server = await app();
    server.get(
      '/api/v1/odd',
      { schema: { response: { 200: Type.Object({}), ...misplacedNotFound } } },
      async () => ({}),
    );
    expect(documentProblems(await openApiDocument(server))).toEqual([
      'GET /api/v1/odd: meal_not_found documented under 410',
    ]);
  });

  it('documents each error code under the status of the one table', async () => {
    const document = await openApiDocument(await app());
    const documented = documentedErrorCodes(document);
    // These answer before any route is found, so no operation can list them; the description's table does.
    const beforeRouting: readonly string[] = beforeRoutingErrors;
    for (const code of errorCodes.filter((code) => !beforeRouting.includes(code))) {
      expect([code, [...(documented.get(code) ?? [])]]).toEqual([code, [httpStatusOf[code]]]);
    }
    for (const code of errorCodes)
      expect(document.info.description).toContain(`| ${httpStatusOf[code]} | \`${code}\` |`);
  });

  it('lists exactly the codes each route can answer, with an example of each', async () => {
    const document = await openApiDocument(await app());
    const rateMeal = document.paths['/api/v1/rate-meal']!.post!.responses!;
    expect(Object.keys(rateMeal).sort()).toEqual([
      '200',
      '400',
      '401',
      '404',
      '413',
      '415',
      '422',
      '429',
      '500',
      '503',
    ]);
    const unprocessable = rateMeal['422']!.content!['application/json'] as any;
    expect(unprocessable.schema.properties.error.properties.code.enum).toEqual([
      'meal_not_rateable',
      'meal_not_yet_served',
      'rating_period_over',
    ]);
    expect(unprocessable.examples.rating_period_over.value.error.code).toBe('rating_period_over');
    expect(Object.keys(document.paths['/api/v1/admin/meals']!.put!.responses!)).toContain('403');
    const dayFull = document.paths['/api/v1/admin/meals']!.put!.responses!['422']!.content!['application/json'] as any;
    expect(dayFull.schema.properties.error.properties.code.enum).toEqual(['menu_day_full']);
    expect(dayFull.examples.menu_day_full.value.error.code).toBe('menu_day_full');
    expect(Object.keys(document.paths['/api/v1/mark-meal']!.post!.responses!)).not.toContain('422');
    // A route that takes no body refuses one with 413 before reading it.
    expect(Object.keys(document.paths['/api/v1/meals/{meal_id}']!.get!.responses!).sort()).toEqual([
      '200',
      '400',
      '401',
      '404',
      '413',
      '429',
      '500',
      '503',
    ]);
    expect(Object.keys(document.paths['/api/v1/me/upcoming']!.get!.responses!).sort()).toEqual([
      '200',
      '400',
      '401',
      '413',
      '429',
      '500',
      '503',
    ]);
  });

  it('names each operation as the client method that calls it, and declares only the tags in use', async () => {
    const document = await openApiDocument(await app());
    expect(document.paths['/api/v1/mark-meal']!.post!.operationId).toBe('markMeal');
    expect(document.paths['/api/v1/rate-meal']!.post!.operationId).toBe('rateMeal');
    expect(document.paths['/api/v1/admin/meals']!.put!.operationId).toBe('upsertMeals');
    expect(document.paths['/api/v1/meals/{meal_id}']!.get!.operationId).toBe('getMeal');
    expect(document.paths['/api/v1/meals']!.get!.operationId).toBe('getMeals');
    expect(document.paths['/api/v1/marked-meals']!.get!.operationId).toBe('listMarkedMeals');
    expect(document.paths['/api/v1/rated-meals']!.get!.operationId).toBe('listRatedMeals');
    expect(document.paths['/api/v1/me/data']!.get!.operationId).toBe('exportMyData');
    expect(document.paths['/api/v1/me/data']!.delete!.operationId).toBe('eraseMyData');
    expect(document.paths['/api/v1/me/upcoming']!.get!.operationId).toBe('getUpcoming');
    expect(document.paths['/api/v1/labels']!.get!.operationId).toBe('listLabels');
    const used = Object.values(document.paths).flatMap((operations) =>
      Object.values(operations).flatMap((o) => o.tags ?? []),
    );
    expect(document.tags.map((tag: { name: string }) => tag.name).sort()).toEqual([...new Set(used)].sort());
  });

  it("documents the operators' routes, registered after it, without a security requirement", async () => {
    const metrics = { contentType: 'text/plain; version=0.0.4', render: async () => 'up 1\n' };
    const server = await app({ operations: { metrics } });
    const document = await openApiDocument(server);
    for (const path of ['/healthz', '/readyz', '/metrics']) {
      expect(document.paths[path]?.get).toMatchObject({ tags: ['operations'] });
      expect(document.paths[path]?.get?.security).toBeUndefined();
    }
    expect(
      Object.keys(document.paths['/readyz']!.get!.responses!['503']!.content!['application/json']!.examples!),
    ).toEqual(['not_ready', 'service_unavailable']);
    expect(undeclaredSchemas(routesOf(server))).toEqual([]);
    expect(documentProblems(document)).toEqual([]);
  });

  it('declares the bearer scheme and requires it on /api/v1 only', async () => {
    const document = await openApiDocument(await app());
    expect(document.components.securitySchemes.bearerAuth).toMatchObject({
      type: 'http',
      scheme: 'bearer',
      bearerFormat: 'JWT',
    });
    expect(document.paths['/api/v1/mark-meal']!.post!.security).toEqual([{ bearerAuth: [] }]);
  });

  it('carries examples of request bodies and responses', async () => {
    const document = await openApiDocument(await app());
    const rateMeal = document.paths['/api/v1/rate-meal']!.post! as any;
    expect(rateMeal.requestBody.content['application/json'].example).toEqual({ meal_id: 42, rating: 5 });
    expect(rateMeal.responses['200'].content['application/json'].example.data).toHaveProperty('rating_average');
  });
});

describe('GET /docs', () => {
  it('serves Swagger UI without a token', async () => {
    const response = await (await app()).inject({ method: 'GET', url: '/docs' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^text\/html/);
    expect(response.body).toContain('swagger-ui');
  });

  it('answers an unknown asset with the not_found envelope', async () => {
    const response = await (await app()).inject({ method: 'GET', url: '/docs/static/no-such-file.js' });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toMatchObject({ status: 'error', error: { code: 'not_found' } });
  });
});

describe('the docs leave the API as it was', () => {
  it('still needs a token under /api/v1, with the envelope and the challenge', async () => {
    const response = await (await app()).inject({
      method: 'POST',
      url: '/api/v1/rate-meal',
      payload: { meal_id: 1, rating: 5 },
    });
    expect(response.statusCode).toBe(401);
    expect(response.headers['www-authenticate']).toBe('Bearer');
    expect(response.json()).toEqual({
      status: 'error',
      error: { code: 'unauthenticated', message: 'An Authorization: Bearer token is required.' },
    });
  });

  it('still validates strictly: "5" is not a rating', async () => {
    const { app: server, token } = await buildTestApp();
    apps.push(server);
    const response = await server.inject({
      method: 'POST',
      url: '/api/v1/rate-meal',
      headers: { authorization: `Bearer ${token()}` },
      payload: { meal_id: 1, rating: '5' },
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ status: 'error', error: { code: 'invalid_request' } });
  });

  it('can be switched off: both routes are then unknown', async () => {
    const server = await app({ docs: false });
    for (const url of ['/openapi.json', '/docs']) {
      const response = await server.inject({ method: 'GET', url });
      expect(response.statusCode).toBe(404);
      expect(response.json()).toMatchObject({ status: 'error', error: { code: 'not_found' } });
    }
  });
});
