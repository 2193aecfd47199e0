import { FixedClock } from '@canteen-meals/adapters-memory';
import { signHmacToken } from '@canteen-meals/adapters-http';
import type { FastifyInstance } from 'fastify';
import { MealMother } from '@canteen-meals/repository-contract';
import { afterEach, describe, expect, it } from 'vitest';
import { buildServer } from '../src/composition-root.js';
import { loadConfig } from '../src/config.js';

const now = new Date('2026-03-10T12:00:00Z');
const secret = 'logging-test-secret-of-at-least-32-bytes';
let app: FastifyInstance | undefined;
afterEach(() => app?.close());

async function start(logLevel: string) {
  const written: string[] = [];
  const server = await buildServer(loadConfig({ DATABASE_URL: 'memory:', LOG_LEVEL: logLevel, JWT_SECRET: secret }), {
    clock: new FixedClock(now),
    logDestination: { write: (line) => void written.push(line) },
  });
  app = server.app;
  // What a careless handler might do one day: log the whole header set.
  app.get('/test/log-headers', async (request) => {
    request.log.info({ headers: request.headers }, 'headers');
    return {};
  });
  await server.persistence.meals.upsertMany([
    MealMother.servedAt(new Date(now.getTime() - 60_000), { id: 1, name: 'Soup' }),
  ]);
  const lines = () =>
    written
      .join('')
      .split('\n')
      .filter((line) => line !== '')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
  return { ...server, written, lines };
}

describe('server logs', () => {
  it('are JSON lines carrying the request id, with the incoming X-Request-Id used', async () => {
    const { app, lines } = await start('debug');
    const token = signHmacToken(secret, { sub: 'alice' });
    await app.inject({
      method: 'POST',
      url: '/api/v1/rate-meal',
      headers: { authorization: `Bearer ${token}`, 'x-request-id': 'from-the-gateway-7' },
      payload: { meal_id: 1, rating: 5 },
    });
    await app.inject({ method: 'GET', url: '/readyz' });
    const requestLines = lines();
    expect(requestLines).toHaveLength(2);
    expect(requestLines[0]).toMatchObject({
      level: 20,
      reqId: 'from-the-gateway-7',
      msg: 'request completed',
      res: { statusCode: 200 },
    });
    expect(requestLines[1]).toMatchObject({ level: 20, reqId: expect.any(String), msg: 'request completed' });
    expect(requestLines[1]!.reqId).not.toBe('from-the-gateway-7');
  });

  it('never contain a token, even when the headers are logged or the request fails', async () => {
    const { app, written, lines } = await start('trace');
    const token = signHmacToken(secret, { sub: 'alice' });
    const headers = { authorization: `Bearer ${token}` };
    await app.inject({ method: 'GET', url: '/test/log-headers', headers });
    await app.inject({ method: 'POST', url: '/api/v1/rate-meal', headers, payload: { meal_id: 1, rating: 9 } });
    await app.inject({
      method: 'POST',
      url: '/api/v1/rate-meal',
      headers: { authorization: `Bearer ${token}x` },
      payload: {},
    });

    const logged = lines().find((line) => line.msg === 'headers') as { headers: Record<string, unknown> } | undefined;
    expect(logged?.headers.authorization).toBe('[redacted]');
    expect(logged?.headers['user-agent']).toBeDefined();
    expect(written.join('')).not.toContain(token.split('.')[2]!);
  });
});
