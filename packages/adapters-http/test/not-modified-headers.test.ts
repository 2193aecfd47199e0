import { createHmacTokenVerifier } from '../src/index.js';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { secret } from './app-fixture.js';
import { buildAppWith } from './app-with.js';

/**
 * Issue 39 made the public menu's 304 cheaper; these are the headers it answered with before (recorded from the
 * server as it was), so that no header the 200 sends and RFC 9110 (15.4.5) asks a 304 to repeat goes missing.
 */
const recorded304 = {
  'x-request-id': '<per request>',
  'cross-origin-opener-policy': 'same-origin',
  'cross-origin-resource-policy': 'same-origin',
  'origin-agent-cluster': '?1',
  'referrer-policy': 'no-referrer',
  'strict-transport-security': 'max-age=31536000; includeSubDomains',
  'x-content-type-options': 'nosniff',
  'x-dns-prefetch-control': 'off',
  'x-download-options': 'noopen',
  'x-frame-options': 'SAMEORIGIN',
  'x-permitted-cross-domain-policies': 'none',
  'x-xss-protection': '0',
  'x-ratelimit-limit': '1000',
  'x-ratelimit-remaining': '<per request>',
  'x-ratelimit-reset': '60',
  // CORS's Origin kept beside the route's own: a shared cache keeps one answer per origin and per token.
  // Accept-Encoding since answers are compressed: the 304 repeats the Vary of its 200, compressed or not.
  vary: 'Origin, authorization, accept-encoding',
  'access-control-allow-origin': 'https://app.example.com',
  'access-control-expose-headers':
    'retry-after, x-ratelimit-limit, x-ratelimit-remaining, x-ratelimit-reset, x-request-id',
  'cache-control': 'public, max-age=60, stale-while-revalidate=30',
  etag: "<the 200's>",
  date: '<per response>',
  connection: 'keep-alive',
  'keep-alive': 'timeout=72',
};

describe("the public menu's 304 (issue 39: the 304 path made cheaper, its headers unchanged)", () => {
  let app: FastifyInstance;
  let base: string;
  const path = '/api/v1/meals?canteen=default&date=2026-03-10';
  const origin = 'https://app.example.com';

  beforeAll(async () => {
    // As production serves it: answers kept in the process, CORS for an app, rate limits on.
    ({ app } = await buildAppWith({
      verifyToken: createHmacTokenVerifier({ secret }),
      menuCaching: { entries: 100, ratingsMaxAgeMs: 5_000, ttlMs: 60_000, maxAgeS: 60, staleWhileRevalidateS: 30 },
      corsOrigins: [origin],
      rateLimits: { userPerMinute: 1_000, ipPerMinute: 1_000 },
    }));
    base = await app.listen({ host: '127.0.0.1', port: 0 });
  });
  afterAll(() => app.close());

  /** The answer's headers in the order they were written, names in lower case, with per-request values named. */
  async function headersOf(headers: Record<string, string>) {
    const response = await fetch(base + path, { headers });
    const raw = [...response.headers].map(([name, value]) => [name, value] as const);
    return { status: response.status, etag: response.headers.get('etag'), body: await response.text(), raw };
  }

  function named(raw: readonly (readonly [string, string])[], etag: string | null) {
    const perRequest: Record<string, string> = {
      'x-request-id': '<per request>',
      'x-ratelimit-remaining': '<per request>',
      date: '<per response>',
    };
    return Object.fromEntries(
      raw.map(([name, value]) => [
        name,
        perRequest[name] ?? (name === 'etag' && value === etag ? "<the 200's>" : value),
      ]),
    );
  }

  it("repeats every header of the 200 but its body's, whether the kept answer or a fresh read answers", async () => {
    const first = await headersOf({ origin });
    expect(first.status).toBe(200);
    for (const attempt of [1, 2]) {
      // Node's fetch adds Cache-Control: no-cache to a request with If-None-Match: it still gets its 304.
      const again = await headersOf({ origin, 'if-none-match': first.etag! });
      expect(again.status, `attempt ${attempt}`).toBe(304);
      expect(again.body).toBe('');
      const answered = named(again.raw, first.etag);
      // fetch() lists headers sorted by name: the set and the values are what is compared.
      expect(answered).toEqual(recorded304);
      // The 200 went out compressed (fetch asks for it): Content-Encoding describes a body, which a 304 has not.
      const bodyHeaders = ['content-type', 'content-length', 'content-encoding'];
      expect(Object.keys(answered).sort()).toEqual(
        Object.keys(named(first.raw, first.etag))
          .filter((name) => !bodyHeaders.includes(name))
          .sort(),
      );
    }
  });
});
