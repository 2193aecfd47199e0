import { Writable } from 'node:stream';
import { createInMemoryAdapters } from '@canteen-meals/adapters-memory';
import { systemClock } from '@canteen-meals/domain';
import type { FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import {
  buildHttpApp,
  buildMetricsApp,
  createHmacTokenVerifier,
  httpStatusOf,
  type OperationsOptions,
  type RequestObservation,
  httpUseCasesOf,
} from '../src/index.js';
import { secret, useCasesOver } from './app-fixture.js';

let app: FastifyInstance | undefined;
afterEach(() => app?.close());

async function build(operations?: OperationsOptions, logger?: object) {
  const adapters = createInMemoryAdapters();
  app = await buildHttpApp({
    useCases: httpUseCasesOf(useCasesOver(adapters, systemClock)),
    verifyToken: createHmacTokenVerifier({ secret }),
    ...(operations === undefined ? {} : { operations }),
    ...(logger === undefined ? {} : { logger }),
  });
  return app;
}

describe('GET /healthz and /readyz', () => {
  it('answer ok in the envelope, without a token, outside /api/v1', async () => {
    const app = await build({ readiness: async () => {} });
    for (const url of ['/healthz', '/readyz']) {
      const response = await app.inject({ method: 'GET', url });
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({ status: 'success', data: { status: 'ok' } });
    }
    expect((await app.inject({ method: 'GET', url: '/api/v1/healthz' })).statusCode).toBe(404);
  });

  it('answers not_ready (503) when the readiness check fails, keeping the cause out of the body', async () => {
    let databaseUp = true;
    const app = await build({
      readiness: async () => {
        if (!databaseUp) throw new Error('SQLITE_CANTOPEN /var/lib/meals/secret.db');
      },
    });
    expect((await app.inject({ method: 'GET', url: '/readyz' })).statusCode).toBe(200);
    databaseUp = false;
    const response = await app.inject({ method: 'GET', url: '/readyz' });
    expect(response.statusCode).toBe(503);
    expect(httpStatusOf.not_ready).toBe(503);
    expect(response.json()).toEqual({ status: 'error', error: { code: 'not_ready', message: expect.any(String) } });
    expect(response.body).not.toContain('secret.db');
    // Liveness does not depend on the database: restarting the process would not help.
    expect((await app.inject({ method: 'GET', url: '/healthz' })).statusCode).toBe(200);
  });
});

describe('GET /metrics', () => {
  const metrics = { contentType: 'text/plain; version=0.0.4; charset=utf-8', render: async () => 'up 1\n' };

  it('serves the rendered exposition with its content type', async () => {
    const app = await build({ metrics });
    const response = await app.inject({ method: 'GET', url: '/metrics' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe(metrics.contentType);
    expect(response.body).toBe('up 1\n');
  });

  it('is not_found when no metrics endpoint is given', async () => {
    const app = await build({});
    const response = await app.inject({ method: 'GET', url: '/metrics' });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toMatchObject({ status: 'error', error: { code: 'not_found' } });
  });

  it('can live in an app of its own, which serves nothing else', async () => {
    app = await buildMetricsApp({ metrics });
    expect((await app.inject({ method: 'GET', url: '/metrics' })).body).toBe('up 1\n');
    const other = await app.inject({ method: 'POST', url: '/api/v1/rate-meal' });
    expect(other.statusCode).toBe(404);
    expect(other.json()).toMatchObject({ status: 'error', error: { code: 'not_found' } });
  });

  it('observes each request by route pattern, never by raw URL', async () => {
    const seen: RequestObservation[] = [];
    const app = await build({ observeRequest: (observation) => seen.push(observation) });
    await app.inject({ method: 'GET', url: '/healthz' });
    await app.inject({ method: 'POST', url: '/api/v1/rate-meal', payload: {} });
    await app.inject({ method: 'GET', url: '/no/such/page/12345' });
    expect(seen.map(({ method, route, statusCode }) => [method, route, statusCode])).toEqual([
      ['GET', '/healthz', 200],
      ['POST', '/api/v1/rate-meal', 401],
      ['GET', 'unmatched', 404],
    ]);
    for (const { durationSeconds } of seen) expect(durationSeconds).toBeGreaterThanOrEqual(0);
  });
});

describe('request ids', () => {
  it('keeps a valid incoming X-Request-Id and echoes it, on success and on failure', async () => {
    const app = await build();
    const requests = [
      { method: 'GET', url: '/healthz', status: 200 },
      { method: 'GET', url: '/nowhere', status: 404 },
      { method: 'POST', url: '/api/v1/mark-meal', status: 401 },
    ] as const;
    for (const { method, url, status } of requests) {
      const response = await app.inject({ method, url, headers: { 'x-request-id': 'trace-42:abc/DEF' } });
      expect(response.statusCode).toBe(status);
      expect(response.headers['x-request-id']).toBe('trace-42:abc/DEF');
    }
    const longest = 'x'.repeat(128);
    expect(
      (await app.inject({ method: 'GET', url: '/healthz', headers: { 'x-request-id': longest } })).headers[
        'x-request-id'
      ],
    ).toBe(longest);
  });

  it.each([
    ['too long', 'x'.repeat(129)],
    ['with a space', 'two words'],
    ['with non-ASCII', 'caf\u00e9'],
    ['with a tab', 'a\tb'],
  ])('replaces an incoming id %s with a generated one', async (_, incoming) => {
    const app = await build();
    const response = await app.inject({ method: 'GET', url: '/healthz', headers: { 'x-request-id': incoming } });
    const id = response.headers['x-request-id'];
    expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
  });

  it('generates a different id for each request without one', async () => {
    const app = await build();
    const ids = new Set<unknown>();
    for (let i = 0; i < 3; i += 1)
      ids.add((await app.inject({ method: 'GET', url: '/healthz' })).headers['x-request-id']);
    expect(ids.size).toBe(3);
  });
});

describe('request logs', () => {
  function captureLines() {
    const lines: Record<string, unknown>[] = [];
    const stream = new Writable({
      write(chunk, _encoding, done) {
        for (const line of String(chunk).split('\n'))
          if (line !== '') lines.push(JSON.parse(line) as Record<string, unknown>);
        done();
      },
    });
    return { lines, stream };
  }

  it('puts the request id on every line of a request and logs completion at debug', async () => {
    const { lines, stream } = captureLines();
    const app = await build(
      { readiness: async () => Promise.reject(new Error('database gone')) },
      { level: 'debug', stream },
    );
    await app.inject({ method: 'GET', url: '/healthz', headers: { 'x-request-id': 'incoming-1' } });
    await app.inject({ method: 'GET', url: '/readyz', headers: { 'x-request-id': 'incoming-2' } });
    await app.inject({ method: 'POST', url: '/api/v1/rate-meal', payload: {} });

    const requestLines = lines.filter((line) => line.msg !== 'Server listening at');
    expect(requestLines.length).toBeGreaterThanOrEqual(4);
    for (const line of requestLines) expect(line.reqId).toEqual(expect.any(String));
    const completed = requestLines.filter((line) => line.msg === 'request completed');
    expect(completed.map((line) => line.level)).toEqual([20, 20, 20]);
    expect(completed.map((line) => line.reqId).slice(0, 2)).toEqual(['incoming-1', 'incoming-2']);
    const failure = requestLines.find((line) => line.msg === 'readiness check failed');
    expect(failure).toMatchObject({ level: 50, reqId: 'incoming-2', err: { message: 'database gone' } });
  });

  it('writes nothing for a successful request at info', async () => {
    const { lines, stream } = captureLines();
    const app = await build({}, { level: 'info', stream });
    await app.inject({ method: 'GET', url: '/healthz' });
    await app.inject({ method: 'GET', url: '/nowhere' });
    expect(lines).toEqual([]);
  });
});
