import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { buildMetricsApp, createHmacTokenVerifier, type HttpAppOptions } from '../src/index.js';
import { buildAppWith, markMealRequest } from './app-with.js';

const verifyToken = createHmacTokenVerifier({ secret: 'operations-access-secret-of-32-bytes!!!!' });
const metrics = { contentType: 'text/plain; version=0.0.4; charset=utf-8', render: async () => 'up 1\n' };
const metricsToken = 'scrape-token-0123456789';

let app: FastifyInstance | undefined;
afterEach(async () => {
  await app?.close();
  app = undefined;
});

async function appWith(options: Partial<Omit<HttpAppOptions, 'useCases'>> = {}) {
  app = (await buildAppWith({ verifyToken, ...options })).app;
  return app;
}

const scrape = (authorization?: string): InjectOptions => ({
  method: 'GET',
  url: '/metrics',
  headers: authorization === undefined ? {} : { authorization },
});

function expectUnauthenticated(response: LightMyRequestResponse) {
  expect(response.statusCode).toBe(401);
  expect(response.json()).toEqual({ status: 'error', error: { code: 'unauthenticated', message: expect.any(String) } });
  expect(response.headers['www-authenticate']).toBe('Bearer');
  expect(response.body).not.toContain('up 1');
}

describe('GET /metrics behind METRICS_TOKEN', () => {
  it('answers only a scrape with the bearer token', async () => {
    await appWith({ operations: { metrics, metricsToken } });
    expectUnauthenticated(await app!.inject(scrape()));
    expectUnauthenticated(await app!.inject(scrape(`Bearer ${metricsToken}x`)));
    expectUnauthenticated(await app!.inject(scrape(`Bearer ${metricsToken.slice(0, -1)}`)));
    expectUnauthenticated(await app!.inject(scrape(metricsToken)));
    const response = await app!.inject(scrape(`Bearer ${metricsToken}`));
    expect(response.statusCode).toBe(200);
    expect(response.body).toBe('up 1\n');
  });

  it('guards the metrics port the same way when a token is set', async () => {
    app = await buildMetricsApp({ metrics, metricsToken });
    expectUnauthenticated(await app.inject(scrape()));
    expect((await app.inject(scrape(`Bearer ${metricsToken}`))).body).toBe('up 1\n');
  });

  it('is never rate-limited away: with the address limit used up, a scrape still answers', async () => {
    await appWith({ operations: { metrics, metricsToken }, rateLimits: { userPerMinute: 1, ipPerMinute: 1 } });
    expect((await app!.inject(markMealRequest(null))).statusCode).toBe(401);
    expect((await app!.inject(markMealRequest(null))).statusCode).toBe(429);
    for (let i = 0; i < 5; i++) expect((await app!.inject(scrape(`Bearer ${metricsToken}`))).statusCode).toBe(200);
  });
});

describe('the API docs', () => {
  it('are rate-limited per address like other reads: /openapi.json and /docs', async () => {
    for (const url of ['/openapi.json', '/docs']) {
      await appWith({ rateLimits: { userPerMinute: 100, ipPerMinute: 2 } });
      expect((await app!.inject({ method: 'GET', url })).statusCode).toBeLessThan(400);
      expect((await app!.inject({ method: 'GET', url })).statusCode).toBeLessThan(400);
      const limited = await app!.inject({ method: 'GET', url });
      expect(limited.statusCode).toBe(429);
      expect(limited.json()).toEqual({ status: 'error', error: { code: 'rate_limited', message: expect.any(String) } });
      expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
      // Another address has its own quota.
      expect((await app!.inject({ method: 'GET', url, remoteAddress: '10.1.2.3' })).statusCode).toBeLessThan(400);
      await app!.close();
      app = undefined;
    }
  });

  it('send a Content-Security-Policy with the page and its static assets', async () => {
    await appWith();
    const page = await app!.inject({ method: 'GET', url: '/docs' });
    expect(page.statusCode).toBe(200);
    const assets = [
      '/docs/static/swagger-initializer.js',
      '/docs/static/swagger-ui-bundle.js',
      '/docs/static/swagger-ui.css',
    ];
    for (const response of [page, ...(await Promise.all(assets.map((url) => app!.inject({ method: 'GET', url }))))]) {
      expect(response.statusCode).toBe(200);
      const policy = String(response.headers['content-security-policy']);
      expect(policy).toContain("default-src 'self'");
      expect(policy).toContain("object-src 'none'");
      expect(policy).toMatch(/script-src 'self'/);
      expect(policy).toContain("frame-ancestors 'self'");
      expect(policy).not.toContain('upgrade-insecure-requests');
    }
  });
});
