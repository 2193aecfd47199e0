import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { createHmacTokenVerifier, signHmacToken, type HttpAppOptions } from '../src/index.js';
import { buildAppWith, markMealRequest } from './app-with.js';

const secret = 'cors-test-secret-of-at-least-32-bytes!!!';
const verifyToken = createHmacTokenVerifier({ secret });
const bearer = (sub: string) => `Bearer ${signHmacToken(secret, { sub })}`;
const listed = 'https://app.example.com';
const unlisted = 'https://evil.example.net';

let app: FastifyInstance | undefined;
afterEach(async () => {
  await app?.close();
  app = undefined;
});

async function appWith(options: Partial<Omit<HttpAppOptions, 'useCases'>> = {}) {
  app = (await buildAppWith({ verifyToken, corsOrigins: [listed, 'http://localhost:5173'], ...options })).app;
  return app;
}

const preflight = (origin: string, url = '/api/v1/rate-meal') =>
  app!.inject({
    method: 'OPTIONS',
    url,
    headers: {
      origin,
      'access-control-request-method': 'POST',
      'access-control-request-headers': 'authorization, content-type',
    },
  });

function corsHeadersOf(response: LightMyRequestResponse): string[] {
  return Object.keys(response.headers).filter((name) => name.startsWith('access-control-'));
}

describe('CORS for the API (CORS_ORIGINS)', () => {
  it('answers a preflight from a listed origin with 204, the methods and the headers, without a token', async () => {
    await appWith();
    const response = await preflight(listed);
    expect(response.statusCode).toBe(204);
    expect(response.body).toBe('');
    expect(response.headers['access-control-allow-origin']).toBe(listed);
    expect(response.headers['access-control-allow-methods']).toBe('GET, POST, PUT, DELETE');
    expect(response.headers['access-control-allow-headers']).toBe('authorization, content-type, if-none-match');
    expect(response.headers['access-control-allow-credentials']).toBeUndefined();
    expect(String(response.headers.vary)).toMatch(/origin/i);
  });

  it('gives another origin nothing CORS-related: its preflight is not_found, as without CORS', async () => {
    await appWith();
    for (const origin of [unlisted, 'https://app.example.com.evil.net', 'null', `${listed}/`]) {
      const response = await preflight(origin);
      expect(response.statusCode).toBe(404);
      expect(response.json()).toMatchObject({ status: 'error', error: { code: 'not_found' } });
      expect(corsHeadersOf(response)).toEqual([]);
    }
    const actual = await app!.inject(markMealRequest(bearer('alice'), { headers: { origin: unlisted } }));
    expect(actual.statusCode).toBe(200);
    expect(corsHeadersOf(actual)).toEqual([]);
  });

  it('marks an actual request from a listed origin with that origin and exposes the headers apps read', async () => {
    await appWith({ rateLimits: { userPerMinute: 1, ipPerMinute: 100 } });
    const ok = await app!.inject(markMealRequest(bearer('alice'), { headers: { origin: listed } }));
    expect(ok.statusCode).toBe(200);
    expect(ok.headers['access-control-allow-origin']).toBe(listed);
    expect(String(ok.headers.vary)).toMatch(/origin/i);
    const exposed = String(ok.headers['access-control-expose-headers']).split(', ');
    expect(exposed).toEqual(
      expect.arrayContaining(['retry-after', 'x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset']),
    );
    // A refusal carries the headers too, or the app's script could not read the 429 and its Retry-After.
    const limited = await app!.inject(markMealRequest(bearer('alice'), { headers: { origin: listed } }));
    expect(limited.statusCode).toBe(429);
    expect(limited.headers['access-control-allow-origin']).toBe(listed);
    const unauthenticated = await app!.inject(markMealRequest(null, { headers: { origin: listed } }));
    expect(unauthenticated.statusCode).toBe(401);
    expect(unauthenticated.headers['access-control-allow-origin']).toBe(listed);
  });

  it('does not rate-limit preflights away', async () => {
    await appWith({ rateLimits: { userPerMinute: 1, ipPerMinute: 1 } });
    expect((await app!.inject(markMealRequest(null))).statusCode).toBe(401);
    expect((await app!.inject(markMealRequest(null))).statusCode).toBe(429);
    for (let i = 0; i < 5; i++) expect((await preflight(listed)).statusCode).toBe(204);
  });

  it('covers the API only: the probes and the docs get no CORS headers', async () => {
    await appWith();
    const probe = await app!.inject({ method: 'GET', url: '/healthz', headers: { origin: listed } });
    expect(corsHeadersOf(probe)).toEqual([]);
    expect((await preflight(listed, '/openapi.json')).statusCode).toBe(404);
  });

  it('is off without origins: no preflight route, no headers', async () => {
    await appWith({ corsOrigins: [] });
    const response = await preflight(listed);
    expect(response.statusCode).toBe(404);
    expect(corsHeadersOf(response)).toEqual([]);
    const actual = await app!.inject(markMealRequest(bearer('alice'), { headers: { origin: listed } }));
    expect(corsHeadersOf(actual)).toEqual([]);
  });
});
