import { errorCodes, httpStatusOf, type ErrorCode } from '@canteen-meals/adapters-http';
import fc from 'fast-check';
import { describe, expect, it, onTestFinished } from 'vitest';
import { expectedAnswer, type FuzzRequest } from './support/contract-oracle.js';
import { reportFigures } from './support/figures.js';
import { buildInProcessApp } from './support/in-process-app.js';
import { fuzzRequest, fuzzSecret, invalidTokens, validTokens } from './support/request-arbitraries.js';
import { modelState, ServiceModel, storedState } from './support/service-model.js';

const now = Date.parse('2026-03-10T12:00:00Z');
const hour = 3_600_000;
const details = { category: null, notes: [], prices: {} };
const menu = [
  { id: 1, name: 'Open meal', servedAt: now - hour, rateable: true, ...details },
  { id: 2, name: 'Salad bar', servedAt: now - hour, rateable: false, ...details },
  { id: 3, name: 'Tomorrow', servedAt: now + 24 * hour, rateable: true, ...details },
  {
    id: 4,
    name: 'Last month',
    servedAt: now - 30 * 24 * hour,
    rateable: true,
    category: 'Hauptgericht',
    notes: ['vegan'],
    prices: { student: '2.60' },
  },
  { id: 5, name: 'Exactly a week ago', servedAt: now - 7 * 24 * hour, rateable: true, ...details },
];
const runs = 100;
const requestsPerRun = { minLength: 30, maxLength: 60 };

function initialModel(): ServiceModel {
  const model = new ServiceModel(now);
  for (const { id, ...meal } of menu) model.meals.set(id, meal);
  return model;
}

const tokens = validTokens();
const badTokens = invalidTokens();

describe('fuzzing the real app with generated requests', () => {
  it(
    'never answers 5xx, always answers the documented envelope, and changes state only through valid requests',
    { timeout: 120_000 },
    async () => {
      const figures = { runs: 0, requests: 0, successes: 0, errors: 0, distinctCodes: 0, readOrEraseServed: 0 };
      const seen = new Map<string, number>();
      const { app, db, reset } = await buildInProcessApp({
        secret: fuzzSecret,
        now,
        menu: menu.map((meal) => ({ ...meal, servedAt: new Date(meal.servedAt) })),
      });
      onTestFinished(() => app.close());

      await fc.assert(
        fc.asyncProperty(
          fc.array(fuzzRequest(now, [...tokens.keys()], badTokens), requestsPerRun),
          async (requests) => {
            await reset();
            const model = initialModel();
            figures.runs += 1;
            for (const request of requests) {
              const expected = expectedAnswer(request, model, tokens);
              const response = await app.inject({
                method: request.method as 'GET',
                url: request.url,
                headers: request.headers,
                ...(request.body === undefined ? {} : { payload: request.body }),
              });
              figures.requests += 1;
              const where = describeRequest(request);
              expect(response.statusCode, where).toBeLessThan(500);
              expect(response.headers['content-type'], where).toMatch(/^application\/json; charset=utf-8$/);
              const body = response.json();
              if (response.statusCode === 200) {
                figures.successes += 1;
                seen.set('200', (seen.get('200') ?? 0) + 1);
                expect(expected.kind, `${where}\nanswered 200 ${response.body}`).not.toBe('error');
                if (expected.kind === 'success')
                  expect(body, where).toEqual({ status: 'success', data: expected.data });
                else expect(body, where).toMatchObject({ status: 'success', data: expect.any(Object) });
                if (expected.kind !== 'error') expected.apply?.();
                if (expected.kind === 'loose') figures.readOrEraseServed += 1;
              } else {
                figures.errors += 1;
                expect(body, where).toEqual({
                  status: 'error',
                  error: { code: expect.any(String), message: expect.any(String) },
                });
                const code = body.error.code as ErrorCode;
                seen.set(code, (seen.get(code) ?? 0) + 1);
                expect(errorCodes, where).toContain(code);
                expect(response.statusCode, where).toBe(httpStatusOf[code]);
                if (expected.kind !== 'loose') {
                  const allowed = expected.kind === 'error' ? expected.codes : ['(200)'];
                  expect(allowed, `${where}\nanswered ${response.statusCode} ${response.body}`).toContain(code);
                }
                if (response.statusCode === 401) expect(response.headers['www-authenticate'], where).toMatch(/^Bearer/);
              }
            }
            // The database holds exactly what the model built from the 200 answers, and nothing else.
            expect(storedState(db)).toEqual(modelState(model));
          },
        ),
        { numRuns: runs },
      );

      figures.distinctCodes = seen.size;
      reportFigures('fuzzing', { ...figures, answers: JSON.stringify(Object.fromEntries([...seen].sort())) });
      // The generators reach every kind of answer the table lists for these routes, or the fuzzing is blind somewhere.
      for (const code of [
        '200',
        'invalid_request',
        'invalid_json',
        'unauthenticated',
        'invalid_token',
        'forbidden',
        'meal_not_found',
        'not_found',
        'payload_too_large',
        'unsupported_media_type',
        'meal_not_rateable',
        'meal_not_yet_served',
        'rating_period_over',
      ]) {
        expect(seen.get(code) ?? 0, `answers with ${code}`).toBeGreaterThan(0);
      }
    },
  );
});

function describeRequest(request: FuzzRequest): string {
  return `${request.method} ${request.url} ${JSON.stringify(request.headers)} ${JSON.stringify(request.body)}`;
}
