import { connect } from 'node:net';
import { Writable } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { createHmacTokenVerifier, signHmacToken, type HttpAppOptions } from '../src/index.js';
import { buildAppWith, markMealRequest } from './app-with.js';

const secret = 'abuse-limits-secret-of-at-least-32-bytes!';
const verifyToken = createHmacTokenVerifier({ secret });
const bearer = (sub: string) => `Bearer ${signHmacToken(secret, { sub })}`;

let app: FastifyInstance | undefined;
afterEach(async () => {
  await app?.close();
  app = undefined;
});

async function appWith(options: Partial<Omit<HttpAppOptions, 'useCases'>> = {}) {
  const built = await buildAppWith({ verifyToken, ...options });
  app = built.app;
  return built;
}

/** Sends the same request `count` times, one after the other, and answers the status codes. */
async function statuses(count: number, request: () => InjectOptions): Promise<number[]> {
  const codes: number[] = [];
  for (let i = 0; i < count; i++) codes.push((await app!.inject(request())).statusCode);
  return codes;
}

function expectRateLimited(response: LightMyRequestResponse) {
  expect(response.statusCode).toBe(429);
  expect(response.json()).toEqual({ status: 'error', error: { code: 'rate_limited', message: expect.any(String) } });
  const retryAfter = Number(response.headers['retry-after']);
  expect(retryAfter).toBeGreaterThan(0);
  expect(retryAfter).toBeLessThanOrEqual(60);
}

describe('rate limits', () => {
  it('limits each verified user on their own, whatever address they come from', async () => {
    await appWith({ rateLimits: { userPerMinute: 3, ipPerMinute: 100 } });
    const alice = bearer('alice');
    expect(await statuses(3, () => markMealRequest(alice))).toEqual([200, 200, 200]);
    expectRateLimited(await app!.inject(markMealRequest(alice, { remoteAddress: '10.9.9.9' })));
    // Bob, behind the same address, has a quota of his own.
    expect(await statuses(3, () => markMealRequest(bearer('bob')))).toEqual([200, 200, 200]);
  });

  it('counts requests without a valid token per address: no token, a refused token, an unknown route', async () => {
    await appWith({ rateLimits: { userPerMinute: 100, ipPerMinute: 3 } });
    const from = (remoteAddress: string, request: InjectOptions) => ({ ...request, remoteAddress });
    expect((await app!.inject(from('10.0.0.1', markMealRequest(null)))).statusCode).toBe(401);
    expect((await app!.inject(from('10.0.0.1', markMealRequest('Bearer forged')))).statusCode).toBe(401);
    expect((await app!.inject(from('10.0.0.1', { method: 'GET', url: '/nowhere' }))).statusCode).toBe(404);
    expectRateLimited(await app!.inject(from('10.0.0.1', markMealRequest(null))));
    // Another address has its own quota, and a verified user is not counted against the address.
    expect((await app!.inject(from('10.0.0.2', markMealRequest(null)))).statusCode).toBe(401);
    expect((await app!.inject(from('10.0.0.1', markMealRequest(bearer('alice'))))).statusCode).toBe(200);
  });

  it("keys on the verified sub: forged tokens naming a user do not spend that user's quota", async () => {
    await appWith({ rateLimits: { userPerMinute: 2, ipPerMinute: 100 } });
    const forgedAlice = `Bearer ${signHmacToken('another-secret-of-at-least-32-bytes!!!!', { sub: 'alice' })}`;
    expect(await statuses(5, () => markMealRequest(forgedAlice))).toEqual([401, 401, 401, 401, 401]);
    expect(await statuses(3, () => markMealRequest(bearer('alice')))).toEqual([200, 200, 429]);
  });

  it('turns a limit off with 0, leaving the other one on', async () => {
    await appWith({ rateLimits: { userPerMinute: 0, ipPerMinute: 2 } });
    expect(new Set(await statuses(30, () => markMealRequest(bearer('alice'))))).toEqual(new Set([200]));
    expect(await statuses(3, () => markMealRequest(null))).toEqual([401, 401, 429]);
  });

  it('leaves the operational routes (probes) alone: health checks share an address with anonymous traffic', async () => {
    await appWith({ rateLimits: { userPerMinute: 1, ipPerMinute: 1 } });
    expect(await statuses(2, () => markMealRequest(null))).toEqual([401, 429]);
    expect(new Set(await statuses(5, () => ({ method: 'GET', url: '/healthz' })))).toEqual(new Set([200]));
  });

  it('limits nothing when no limits are given', async () => {
    await appWith();
    expect(new Set(await statuses(30, () => markMealRequest(null)))).toEqual(new Set([401]));
  });
});

describe('trust proxy: who may name the client address', () => {
  const viaProxy = (forwardedFor: string, proxy = '10.0.0.1') =>
    markMealRequest(null, { remoteAddress: proxy, headers: { 'x-forwarded-for': forwardedFor } });

  it('ignores X-Forwarded-For by default: a spoofed one does not buy a new quota', async () => {
    await appWith({ rateLimits: { userPerMinute: 100, ipPerMinute: 2 } });
    const codes = [];
    for (const spoofed of ['1.1.1.1', '2.2.2.2', '3.3.3.3', '4.4.4.4'])
      codes.push((await app!.inject(viaProxy(spoofed))).statusCode);
    expect(codes).toEqual([401, 401, 429, 429]);
  });

  it('takes the client from X-Forwarded-For when the proxy is trusted, and only then', async () => {
    await appWith({ rateLimits: { userPerMinute: 100, ipPerMinute: 2 }, trustProxy: ['10.0.0.0/24'] });
    expect(await statuses(3, () => viaProxy('1.1.1.1'))).toEqual([401, 401, 429]);
    expect(await statuses(2, () => viaProxy('2.2.2.2'))).toEqual([401, 401]);
    // The same header from an untrusted peer counts against that peer.
    expect(await statuses(3, () => viaProxy('3.3.3.3', '192.0.2.7'))).toEqual([401, 401, 429]);
    expect((await app!.inject(viaProxy('4.4.4.4', '192.0.2.7'))).statusCode).toBe(429);
  });

  it('trusts exactly the given number of hops', async () => {
    await appWith({ rateLimits: { userPerMinute: 100, ipPerMinute: 1 }, trustProxy: 1 });
    // One trusted hop: the client is the last address the proxy appended, not what the client wrote before it.
    expect((await app!.inject(viaProxy('6.6.6.6, 1.1.1.1'))).statusCode).toBe(401);
    expect((await app!.inject(viaProxy('7.7.7.7, 1.1.1.1'))).statusCode).toBe(429);
    expect((await app!.inject(viaProxy('7.7.7.7, 2.2.2.2'))).statusCode).toBe(401);
  });
});

describe('security headers', () => {
  it("sends helmet's headers on successes and errors alike, without a CSP for JSON", async () => {
    await appWith();
    for (const response of [
      await app!.inject(markMealRequest(bearer('alice'))),
      await app!.inject(markMealRequest(null)),
      await app!.inject({ method: 'GET', url: '/nowhere' }),
    ]) {
      expect(response.headers).toMatchObject({
        'x-content-type-options': 'nosniff',
        'x-frame-options': 'SAMEORIGIN',
        'strict-transport-security': expect.stringMatching(/^max-age=\d+/),
        'referrer-policy': 'no-referrer',
        'cross-origin-resource-policy': 'same-origin',
      });
      expect(response.headers['content-security-policy']).toBeUndefined();
      expect(response.headers['x-powered-by']).toBeUndefined();
    }
  });
});

describe('body limits per route', () => {
  const padded = (json: string, size: number) => json.padEnd(size, ' ');

  it('takes a rating body up to 1 KiB and refuses one byte more', async () => {
    await appWith();
    const rate = (payload: string) =>
      app!.inject({
        method: 'POST',
        url: '/api/v1/mark-meal',
        headers: { authorization: bearer('alice'), 'content-type': 'application/json' },
        payload,
      });
    expect((await rate(padded('{"meal_id":1,"marked":true}', 1024))).statusCode).toBe(200);
    const tooLarge = await rate(padded('{"meal_id":1,"marked":true}', 1025));
    expect(tooLarge.statusCode).toBe(413);
    expect(tooLarge.json().error.code).toBe('payload_too_large');
  });

  it('gives the admin upsert a larger limit of its own (1 MiB)', async () => {
    await appWith();
    const admin = `Bearer ${signHmacToken(secret, { sub: 'admin', scope: 'meals:write' })}`;
    const upsert = (payload: string) =>
      app!.inject({
        method: 'PUT',
        url: '/api/v1/admin/meals',
        headers: { authorization: admin, 'content-type': 'application/json' },
        payload,
      });
    const meals = Array.from({ length: 1000 }, (_, i) => ({
      meal_id: i + 1,
      name: `Meal ${i + 1} `.padEnd(200, 'é'),
      // Over two days: one day of a canteen holds at most 500 meals.
      served_at: i % 2 === 0 ? '2026-03-02T11:30:00+01:00' : '2026-03-03T11:30:00+01:00',
      rateable: true,
    }));
    const largest = JSON.stringify({ meals });
    expect(Buffer.byteLength(largest)).toBeGreaterThan(300 * 1024);
    const accepted = await upsert(largest);
    expect(accepted.statusCode).toBe(200);
    expect(accepted.json().data.upserted).toBe(1000);
    expect((await upsert(padded('{"meals":[]}', 1024 * 1024 + 1))).statusCode).toBe(413);
  });
});

describe('timeouts', () => {
  const shortTimeouts = { requestMs: 1_000, headersMs: 400, keepAliveMs: 1_000, connectionIdleMs: 5_000 };
  /** Generous: the server's deadlines are far shorter, but a busy machine must not fail the test. */
  const closeBoundMs = 8_000;

  /** Opens a raw socket, writes `first`, then one `drip` every 100 ms: resolves when the server closes it. */
  async function dripUntilClosed(
    port: number,
    first: string,
    drip: () => string,
  ): Promise<{ closedBy: 'server' | 'bound'; received: string }> {
    const socket = connect(port, '127.0.0.1');
    let received = '';
    socket.setEncoding('utf8').on('data', (chunk: string) => (received += chunk));
    socket.on('error', () => {});
    const closed = new Promise<'server'>((resolve) => socket.once('close', () => resolve('server')));
    socket.write(first);
    const dripper = setInterval(() => socket.writable && socket.write(drip()), 100);
    const closedBy = await Promise.race([closed, sleep(closeBoundMs).then(() => 'bound' as const)]);
    clearInterval(dripper);
    socket.destroy();
    return { closedBy, received };
  }

  async function listening(): Promise<number> {
    await appWith({ timeouts: shortTimeouts });
    await app!.listen({ port: 0, host: '127.0.0.1' });
    return (app!.server.address() as { port: number }).port;
  }

  it('drops a slowloris client that never finishes its headers', async () => {
    const port = await listening();
    let n = 0;
    const { closedBy } = await dripUntilClosed(
      port,
      'POST /api/v1/mark-meal HTTP/1.1\r\nHost: localhost\r\n',
      () => `X-Slow-${n++}: 1\r\n`,
    );
    expect(closedBy).toBe('server');
  });

  it('drops a client that trickles its body', async () => {
    const port = await listening();
    const head =
      'POST /api/v1/mark-meal HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n' +
      `Authorization: ${bearer('alice')}\r\nContent-Length: 1000\r\n\r\n`;
    const { closedBy } = await dripUntilClosed(port, head, () => ' ');
    expect(closedBy).toBe('server');
  });

  it('still serves a normal request with these timeouts', async () => {
    const port = await listening();
    const response = await fetch(`http://127.0.0.1:${port}/api/v1/mark-meal`, {
      method: 'POST',
      headers: { authorization: bearer('alice'), 'content-type': 'application/json' },
      body: JSON.stringify({ meal_id: 1, marked: true }),
    });
    expect(response.status).toBe(200);
  });
});

describe('logs', () => {
  it('never contain the bearer token, even in the error log of an authenticated request', async () => {
    let output = '';
    const stream = new Writable({
      write(chunk, _encoding, done) {
        output += String(chunk);
        done();
      },
    });
    const token = signHmacToken(secret, { sub: 'alice' });
    const failing = { execute: async () => Promise.reject(new Error('the database went away')) };
    const { app: built } = await buildAppWith({
      verifyToken,
      logger: { level: 'info', stream },
      useCases: { markMeal: failing as never, rateMeal: failing as never, upsertMeals: failing as never },
    });
    app = built;
    const response = await app.inject(
      markMealRequest(`Bearer ${token}`, { headers: { cookie: `session=${token}`, 'user-agent': 'log-test' } }),
    );
    expect(response.statusCode).toBe(500);
    expect(response.body).not.toContain('database');
    // The error was logged with the request (so the redaction had something to hide), and the token is not in it.
    expect(output).toContain('the database went away');
    expect(output).toContain('log-test');
    expect(output).toContain('[redacted]');
    expect(output).not.toContain(token);
    expect(output).not.toContain(token.split('.')[2]);
  });
});
