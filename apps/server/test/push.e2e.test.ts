import { createECDH } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { adminScope, signHmacToken } from '@canteen-meals/adapters-http';
import { FixedClock } from '@canteen-meals/adapters-memory';
import { startTestPushService, type TestPushService, type TestPushSubscription } from '@canteen-meals/test-push';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildServer } from '../src/composition-root.js';
import { loadConfig } from '../src/config.js';

// Web Push end to end: the real server with VAPID keys, a subscription as a browser hands it over, and a
// push service of the test's own on 127.0.0.1 that checks each message's VAPID JWT and decrypts its body with the
// subscription's private key and secret (http_ece): no mock of the encryption. Time through the clock port.
const secret = 'push-e2e-secret-of-at-least-32-bytes!!';
const subject = 'mailto:ops@meals.example.edu';
const clock = new FixedClock('2026-03-10T08:00:00Z');
let pushService: TestPushService;
let server: Awaited<ReturnType<typeof buildServer>>;
let origin: string;

function vapidKeys() {
  const ecdh = createECDH('prime256v1');
  ecdh.generateKeys();
  return {
    publicKey: ecdh.getPublicKey().toString('base64url'),
    privateKey: Buffer.concat([Buffer.alloc(32), ecdh.getPrivateKey()])
      .subarray(-32)
      .toString('base64url'),
  };
}

const token = (sub: string, scope?: string) =>
  signHmacToken(secret, { sub, ...(scope === undefined ? {} : { scope }) });
async function call(method: string, path: string, sub: string, body?: unknown, scope?: string) {
  const response = await fetch(`${origin}/api/v1${path}`, {
    method,
    headers: {
      authorization: `Bearer ${token(sub, scope)}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  return {
    status: response.status,
    body:
      text === ''
        ? null
        : (JSON.parse(text) as { status: string; data?: any; error?: { code: string; message: string } }),
  };
}

const subscribe = (sub: string, subscription: TestPushSubscription) =>
  call('PUT', '/me/push-subscriptions', sub, subscription);

beforeAll(async () => {
  const keys = vapidKeys();
  pushService = await startTestPushService({ subject, vapidPublicKey: keys.publicKey });
  const config = loadConfig({
    JWT_SECRET: secret,
    DATABASE_URL: 'memory:',
    LOG_LEVEL: 'silent',
    WEB_PUSH_PUBLIC_KEY: keys.publicKey,
    WEB_PUSH_PRIVATE_KEY: keys.privateKey,
    WEB_PUSH_SUBJECT: subject,
    // The push service is on this machine; the worker runs when the test (or a sold-out notice) asks.
    OUTBOUND_ALLOW_PRIVATE_NETWORKS: '1',
    PUSH_POLL_MS: '3600000',
    FEED_CHECK_INTERVAL_S: '0',
  });
  server = await buildServer(config, { clock });
  await server.app.listen({ host: '127.0.0.1', port: 0 });
  origin = `http://127.0.0.1:${(server.app.server.address() as AddressInfo).port}`;
  const admin = (path: string, body: unknown) => call('PUT', path, 'admin', body, adminScope);
  expect((await admin('/admin/canteens/nord', { name: 'Mensa Nord', timezone: 'Europe/Berlin' })).status).toBe(201);
  const meal = (id: number, name: string, servedAt: string) => ({
    meal_id: id,
    name,
    served_at: servedAt,
    rateable: true,
    canteen_id: 'nord',
  });
  expect(
    (
      await admin('/admin/meals', {
        meals: [
          meal(1, 'Currywurst', '2026-03-03T12:30:00+01:00'),
          meal(2, 'Currywurst', '2026-03-10T12:30:00+01:00'),
          meal(3, 'Lentil soup', '2026-03-10T12:30:00+01:00'),
        ],
      })
    ).status,
  ).toBeLessThan(300);
}, 60_000);

afterAll(async () => {
  await server?.app.close();
  await pushService?.close();
});

describe('Web Push', () => {
  it('says it is on, with its public key, to anyone', async () => {
    const response = await fetch(`${origin}/api/v1/push`);
    expect(response.headers.get('cache-control')).toBe('public, max-age=300');
    expect(await response.json()).toEqual({
      status: 'success',
      data: { enabled: true, public_key: expect.stringMatching(/^B[A-Za-z0-9_-]{86}$/) },
    });
  });

  it('takes a browser’s subscription: 201 new, 200 known, listed without keys, moved to a second person, removed by its endpoint', async () => {
    const browser = pushService.newSubscription();
    const created = await subscribe('ann', browser);
    expect(created.status).toBe(201);
    expect(created.body?.data).toEqual({
      id: expect.any(String),
      endpoint_origin: pushService.origin,
      created_at: clock.now().toISOString(),
    });
    expect((await subscribe('ann', browser)).status).toBe(200);
    const listed = await call('GET', '/me/push-subscriptions', 'ann');
    expect(listed.body?.data).toEqual({ subscriptions: [created.body?.data] });
    expect(JSON.stringify(listed.body)).not.toContain(browser.keys.p256dh);
    // A shared browser: the endpoint moves to whoever subscribes it last.
    expect((await subscribe('bob', browser)).status).toBe(200);
    expect((await call('GET', '/me/push-subscriptions', 'ann')).body?.data.subscriptions).toEqual([]);
    // Ann cannot remove Bob's; Bob can.
    const endpoint = encodeURIComponent(browser.endpoint);
    expect((await call('DELETE', `/me/push-subscriptions?endpoint=${endpoint}`, 'ann')).status).toBe(204);
    expect((await call('GET', '/me/push-subscriptions', 'bob')).body?.data.subscriptions).toHaveLength(1);
    expect((await call('DELETE', `/me/push-subscriptions?endpoint=${endpoint}`, 'bob')).status).toBe(204);
    expect((await call('GET', '/me/push-subscriptions', 'bob')).body?.data.subscriptions).toEqual([]);
  });

  it('refuses keys of the wrong size, an unknown field and a missing endpoint, naming the field', async () => {
    const browser = pushService.newSubscription();
    const cases: [unknown, string][] = [
      [{ ...browser, keys: { ...browser.keys, p256dh: browser.keys.auth } }, 'keys.p256dh'],
      [{ ...browser, keys: { ...browser.keys, auth: browser.keys.p256dh.slice(0, 30) } }, 'keys.auth'],
      [{ keys: browser.keys, expirationTime: null }, 'endpoint'],
      [{ ...browser, endpoint: 'ftp://push.example/x' }, 'endpoint'],
      [{ ...browser, extra: 1 }, 'extra'],
    ];
    for (const [body, field] of cases) {
      const refused = await call('PUT', '/me/push-subscriptions', 'ann', body);
      expect(refused.status, JSON.stringify(body)).toBe(400);
      expect(refused.body?.error?.code).toBe('invalid_request');
      expect(refused.body?.error?.message).toContain(field);
    }
  });

  it('sends the day’s digest at 10:30 in Berlin, decrypted at the push service, VAPID checked, once', async () => {
    pushService.clearRecords();
    const browser = pushService.newSubscription();
    expect((await subscribe('cem', browser)).status).toBe(201);
    await call('POST', '/mark-meal', 'cem', { meal_id: 1, marked: true });
    await call('PUT', '/me/notifications', 'cem', { language: 'de' });
    clock.set('2026-03-10T09:31:00Z');
    await server.pushWorker!.runNow();
    const received = pushService.received.filter((each) => each.endpoint === browser.endpoint);
    expect(received.map((each) => each.payload)).toEqual([
      {
        title: 'Deine Favoriten heute',
        body: 'Heute in Mensa Nord: Currywurst',
        url: '/?canteen=nord&date=2026-03-10&lang=de',
        tag: 'favourites-2026-03-10',
      },
    ]);
    expect(received[0]).toMatchObject({
      vapidSub: subject,
      vapidAud: pushService.origin,
      urgency: 'normal',
      topic: 'favourites-2026-03-10',
    });
    expect(received[0]!.ttl).toBe((Date.parse('2026-03-10T23:00:00Z') - Date.parse('2026-03-10T09:31:00Z')) / 1000);
    expect(pushService.rejected).toEqual([]);
    // Again: nothing more.
    await server.pushWorker!.runNow();
    expect(pushService.received.filter((each) => each.endpoint === browser.endpoint)).toHaveLength(1);
  });

  it('notifies a sold-out favourite to those who asked, at once', async () => {
    pushService.clearRecords();
    const browser = pushService.newSubscription();
    expect((await subscribe('dora', browser)).status).toBe(201);
    await call('POST', '/mark-meal', 'dora', { meal_id: 3, marked: true });
    expect((await call('PUT', '/me/notifications', 'dora', { sold_out: true })).body?.data).toEqual({
      favourites_today: true,
      sold_out: true,
      language: 'en',
    });
    clock.set('2026-03-10T11:45:00Z');
    expect(
      (await call('PUT', '/kitchen/meals/3/availability', 'admin', { status: 'sold_out' }, adminScope)).status,
    ).toBe(200);
    await expect
      .poll(() => pushService.received.filter((each) => each.endpoint === browser.endpoint).map((each) => each.payload))
      .toEqual([
        {
          title: 'Sold out: Lentil soup',
          body: 'Lentil soup is sold out at Mensa Nord today.',
          url: '/?canteen=nord&date=2026-03-10&lang=en',
          tag: 'sold-out-3',
        },
      ]);
  });

  it('removes a subscription its push service answers 410, and retries a 500 into one delivery', async () => {
    pushService.clearRecords();
    const gone = pushService.newSubscription();
    const flaky = pushService.newSubscription();
    expect((await subscribe('eve', gone)).status).toBe(201);
    expect((await subscribe('eve', flaky)).status).toBe(201);
    pushService.respondWith(gone.endpoint, 410);
    pushService.respondWith(flaky.endpoint, 500);
    const test = await call('POST', '/me/push-subscriptions/test', 'eve');
    expect(
      test.body?.data.results
        .map((result: { outcome: string; status: number }) => [result.outcome, result.status])
        .sort(),
    ).toEqual([
      ['failed', 500],
      ['gone', 410],
    ]);
    expect((await call('GET', '/me/push-subscriptions', 'eve')).body?.data.subscriptions).toHaveLength(1);

    // Through the outbox: a sold-out notice to the flaky one, answered 500 then 201.
    pushService.respondWith(flaky.endpoint, [500]);
    await call('POST', '/mark-meal', 'eve', { meal_id: 2, marked: true });
    await call('PUT', '/me/notifications', 'eve', { sold_out: true });
    expect(
      (await call('PUT', '/kitchen/meals/2/availability', 'admin', { status: 'sold_out' }, adminScope)).status,
    ).toBe(200);
    await expect
      .poll(() => pushService.requests.filter((each) => each.endpoint === flaky.endpoint && each.status === 500).length)
      .toBe(2);
    expect(pushService.received.filter((each) => each.endpoint === flaky.endpoint)).toHaveLength(0);
    // The retry falls due after its backoff on the service's clock.
    clock.set(new Date(clock.now().getTime() + 60_000));
    await server.pushWorker!.runNow();
    const delivered = pushService.received.filter((each) => each.endpoint === flaky.endpoint);
    expect(delivered.map((each) => (each.payload as { tag: string }).tag)).toEqual(['sold-out-2']);
  });

  it('is in the export and gone with the erasure', async () => {
    const browser = pushService.newSubscription();
    expect((await subscribe('fay', browser)).status).toBe(201);
    const exported = await call('GET', '/me/data', 'fay');
    expect(exported.body?.data.push_subscriptions).toEqual([
      expect.objectContaining({ endpoint: browser.endpoint, keys: browser.keys, expiration_time: null }),
    ]);
    expect(exported.body?.data.notifications).toEqual({ favourites_today: true, sold_out: false, language: 'en' });
    const erased = await call('DELETE', '/me/data', 'fay');
    expect(erased.body?.data).toMatchObject({ push_subscriptions_erased: 1 });
    expect((await call('GET', '/me/push-subscriptions', 'fay')).body?.data.subscriptions).toEqual([]);
  });
});

describe('Web Push without keys', () => {
  it('answers 409 push_disabled naming the settings, and says it is off', async () => {
    const off = await buildServer(loadConfig({ JWT_SECRET: secret, DATABASE_URL: 'memory:', LOG_LEVEL: 'silent' }), {
      clock,
    });
    try {
      const status = await off.app.inject({ method: 'GET', url: '/api/v1/push' });
      expect(status.json()).toEqual({ status: 'success', data: { enabled: false } });
      const refused = await off.app.inject({
        method: 'GET',
        url: '/api/v1/me/push-subscriptions',
        headers: { authorization: `Bearer ${token('ann')}` },
      });
      expect(refused.statusCode).toBe(409);
      expect(refused.json().error).toMatchObject({
        code: 'push_disabled',
        message: expect.stringContaining('WEB_PUSH_PUBLIC_KEY'),
      });
    } finally {
      await off.app.close();
    }
  });
});
