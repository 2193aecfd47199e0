import { webhooksPlugin } from '@canteen-meals/adapters-http-webhooks';
import { createInMemoryAdapters, FixedClock, InMemoryDatabase } from '@canteen-meals/adapters-memory';
import { apiPrefix, canteenPath, fillPath, routePaths } from '@canteen-meals/http-contract';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildHttpApp, createHmacTokenVerifier, signHmacToken, httpUseCasesOf } from '../../src/index.js';
import { timeZone, useCasesOver } from '../app-fixture.js';

// The API document's examples are real answers: this replays the story they tell (an admin upserts meal 42, three
// users rate it, alice marks it and an earlier meal, rates it, reads, pages, exports and erases) against the real app,
// sending the documented request bodies, and requires every documented success example to equal the real answer.

const secret = 'examples-test-secret-of-at-least-32-bytes!';
const cursorSecret = 'examples-cursor-secret-of-at-least-32-bytes';
const now = new Date('2026-03-10T12:00:00.000Z');

/** A media type of the document: @fastify/swagger writes a single example as `example`, several as `examples`. */
interface MediaType {
  readonly example?: unknown;
  readonly examples?: Record<string, { readonly value: unknown }>;
}

interface OpenApiOperation {
  readonly operationId: string;
  readonly requestBody?: { content: { 'application/json': MediaType } };
  readonly responses: Record<string, { content?: { 'application/json': MediaType } }>;
}

const exampleOf = (media: MediaType | undefined): unknown =>
  media === undefined ? undefined : 'example' in media ? media.example : Object.values(media.examples ?? {})[0]?.value;

let app: FastifyInstance;
let operations: Map<string, OpenApiOperation>;

beforeAll(async () => {
  const adapters = createInMemoryAdapters(new InMemoryDatabase({ defaultTimeZone: timeZone }));
  const useCases = useCasesOver(adapters, new FixedClock(now));
  app = await buildHttpApp({
    useCases: httpUseCasesOf(useCases),
    verifyToken: createHmacTokenVerifier({ secret }),
    cursorSecret,
    plugins: [webhooksPlugin({ useCases, cursorSecret })],
  });
  const document = (await app.inject({ method: 'GET', url: '/openapi.json' })).json() as {
    paths: Record<string, Record<string, OpenApiOperation>>;
  };
  operations = new Map(
    Object.values(document.paths).flatMap((methods) =>
      Object.values(methods).map((operation) => [operation.operationId, operation]),
    ),
  );
});
afterAll(() => app.close());

const tokenOf = (sub: string, scope?: string) =>
  signHmacToken(secret, { sub, ...(scope === undefined ? {} : { scope }) });
const requestExample = (operationId: string) =>
  exampleOf(operations.get(operationId)?.requestBody?.content['application/json']);
const answerExample = (operationId: string) =>
  exampleOf(operations.get(operationId)?.responses['200']?.content?.['application/json']);

async function call(
  method: 'GET' | 'POST' | 'PUT' | 'DELETE',
  path: string,
  sub: string,
  body?: unknown,
  scope?: string,
) {
  const response = await app.inject({
    method,
    url: `${apiPrefix}${path}`,
    headers: {
      authorization: `Bearer ${tokenOf(sub, scope)}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { payload: JSON.stringify(body) }),
  });
  expect(response.statusCode, response.body).toBe(200);
  return response.json() as unknown;
}

describe('the API documentation examples are real answers', () => {
  it('tells one story whose every request and answer the app really gives', async () => {
    const earlierMeal = { meal_id: 41, name: 'Pancakes', served_at: '2026-03-09T12:30:00+01:00', rateable: true };
    await call('PUT', routePaths.upsertMeals, 'admin', { meals: [earlierMeal] }, 'meals:write');
    expect(await call('PUT', routePaths.upsertMeals, 'admin', requestExample('upsertMeals'), 'meals:write')).toEqual(
      answerExample('upsertMeals'),
    );
    for (const [user, rating] of [
      ['bob', 2],
      ['carol', 4],
      ['dave', 4],
    ] as const) {
      await call('POST', routePaths.rateMeal, user, { meal_id: 42, rating });
    }
    await call('POST', routePaths.markMeal, 'alice', { meal_id: 41, marked: true });
    expect(await call('POST', routePaths.markMeal, 'alice', requestExample('markMeal'))).toEqual(
      answerExample('markMeal'),
    );
    expect(await call('POST', routePaths.rateMeal, 'alice', requestExample('rateMeal'))).toEqual(
      answerExample('rateMeal'),
    );
    // At noon the kitchen says the soup runs low: every meal answer below carries it.
    const availabilityUrl = fillPath(routePaths.mealAvailability, { meal_id: 42 });
    expect(
      await call('PUT', availabilityUrl, 'kitchen', requestExample('setMealAvailability'), 'meals:kitchen'),
    ).toEqual(answerExample('setMealAvailability'));

    expect(await call('GET', '/meals/42', 'alice')).toEqual(answerExample('getMeal'));
    expect(await call('GET', `${routePaths.getMeals}?ids=42,7`, 'alice')).toEqual(answerExample('getMeals'));
    expect(await call('GET', `${routePaths.listMarkedMeals}?limit=1`, 'alice')).toEqual(
      answerExample('listMarkedMeals'),
    );
    expect(await call('GET', `${routePaths.listRatedMeals}?limit=1`, 'alice')).toEqual(answerExample('listRatedMeals'));
    // Her favourites of the coming week: the lentil soup, served at 11:30 today, still counts at noon.
    expect(await call('GET', `${routePaths.getUpcoming}?days=7`, 'alice')).toEqual(answerExample('getUpcoming'));
    expect(await call('GET', routePaths.myData, 'alice')).toEqual(answerExample('exportMyData'));
    // The kitchen of one canteen (a role kitchen@default, or the scope written so).
    expect(await call('GET', routePaths.myAccess, 'kitchen-tablet-3', undefined, 'meals:kitchen@default')).toEqual(
      answerExample('getMyAccess'),
    );
    expect(await call('DELETE', routePaths.myData, 'alice')).toEqual(answerExample('eraseMyData'));
    // The report of both days, after the erasure: CSV, documented as text/csv.
    const report = await app.inject({
      method: 'GET',
      url: `${apiPrefix}${routePaths.getRatingsReport}?canteen=default&from=2026-03-09&to=2026-03-10`,
      headers: { authorization: `Bearer ${tokenOf('controlling', 'meals:read-reports')}` },
    });
    expect(report.statusCode, report.body).toBe(200);
    const csvExample = (
      operations.get('getRatingsReport')?.responses['200'] as { content?: { 'text/csv'?: MediaType } }
    )?.content?.['text/csv'];
    expect(`\uFEFF${String(exampleOf(csvExample))}`).toBe(report.body);

    // The admin creates a canteen (201), then puts it again (200: replaced); anybody reads the canteens.
    const canteenUrl = canteenPath('mensa-academica', routePaths.saveCanteen);
    const created = await app.inject({
      method: 'PUT',
      url: `${apiPrefix}${canteenUrl}`,
      headers: { authorization: `Bearer ${tokenOf('admin', 'meals:write')}`, 'content-type': 'application/json' },
      payload: JSON.stringify(requestExample('saveCanteen')),
    });
    expect(created.statusCode, created.body).toBe(201);
    expect(await call('PUT', canteenUrl, 'admin', requestExample('saveCanteen'), 'meals:write')).toEqual(
      answerExample('saveCanteen'),
    );
    expect(await call('GET', routePaths.listCanteens, 'anybody')).toEqual(answerExample('listCanteens'));
    expect(await call('GET', canteenPath('mensa-academica'), 'anybody')).toEqual(answerExample('getCanteen'));
    // The admin archives it (twice: the first instant stays) and lists every canteen, the archived one too.
    const archiveUrl = canteenPath('mensa-academica', routePaths.archiveCanteen);
    expect(await call('DELETE', archiveUrl, 'admin', undefined, 'meals:write')).toEqual(
      answerExample('archiveCanteen'),
    );
    expect(await call('DELETE', archiveUrl, 'admin', undefined, 'meals:write')).toEqual(
      answerExample('archiveCanteen'),
    );
    expect(await call('GET', routePaths.listAdminCanteens, 'admin', undefined, 'meals:write')).toEqual(
      answerExample('listAdminCanteens'),
    );
    expect(await call('GET', routePaths.listLabels, 'anybody')).toEqual(answerExample('listLabels'));

    // The admin registers a webhook endpoint (201, with a generated secret), puts it again (200), reads and deletes it.
    const webhookUrl = fillPath(routePaths.webhook, { webhook_id: 'app-backend' });
    const registered = await app.inject({
      method: 'PUT',
      url: `${apiPrefix}${webhookUrl}`,
      headers: { authorization: `Bearer ${tokenOf('admin', 'meals:write')}`, 'content-type': 'application/json' },
      payload: JSON.stringify(requestExample('saveWebhook')),
    });
    expect(registered.statusCode, registered.body).toBe(201);
    expect(await call('PUT', webhookUrl, 'admin', requestExample('saveWebhook'), 'meals:write')).toEqual(
      answerExample('saveWebhook'),
    );
    expect(await call('GET', webhookUrl, 'admin', undefined, 'meals:write')).toEqual(answerExample('getWebhook'));
    expect(await call('GET', routePaths.listWebhooks, 'admin', undefined, 'meals:write')).toEqual(
      answerExample('listWebhooks'),
    );
    expect(await call('DELETE', webhookUrl, 'admin', undefined, 'meals:write')).toEqual(answerExample('deleteWebhook'));
  });

  it('documents a success example for every operation of the API that the story covers, and no other', () => {
    const story = [
      'saveWebhook',
      'getWebhook',
      'listWebhooks',
      'deleteWebhook',
      'saveCanteen',
      'listCanteens',
      'getCanteen',
      'listLabels',
      'archiveCanteen',
      'listAdminCanteens',
      'upsertMeals',
      'markMeal',
      'rateMeal',
      'setMealAvailability',
      'getMeal',
      'getMeals',
      'listMarkedMeals',
      'listRatedMeals',
      'getUpcoming',
      'exportMyData',
      'getMyAccess',
      'eraseMyData',
    ];
    const withExamples = [...operations.values()]
      .filter((operation) => answerExample(operation.operationId) !== undefined)
      .map((operation) => operation.operationId);
    expect(withExamples.filter((id) => !story.includes(id))).toEqual([]);
    expect(story.filter((id) => !withExamples.includes(id))).toEqual([]);
  });
});
