import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { pushSubscriptionProblem } from '@canteen-meals/domain';
import type { PushSender } from '@canteen-meals/domain/ports';
import { startTestPushService, type TestPushService, type TestPushSubscription } from '@canteen-meals/test-push';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createPushSender, generateVapidKeys, pushEndpointProblem, type PushSenderOptions } from '../src/index.js';
import { retryAfterMs } from '../src/send-push.js';

const vapid = { ...generateVapidKeys(), subject: 'mailto:push@meals.example' };
const allowed: PushSenderOptions = { vapid, allowPrivateNetworks: true, timeoutMs: 2_000 };
const publicOnly: PushSenderOptions = { vapid, allowPrivateNetworks: false, timeoutMs: 2_000 };

const payload = {
  title: 'Today at Triplex',
  body: 'Schnitzel with fries',
  url: '/?date=2026-09-01&lang=en',
  tag: 'digest-1-2026-09-01',
};
const message = { payload: JSON.stringify(payload), ttlSeconds: 3_600, topic: 'digest-1-2026-09-01' };

/** The subscription as the domain stores it: what the sender is handed. */
const stored = (subscription: TestPushSubscription) => ({
  endpoint: subscription.endpoint,
  p256dh: subscription.keys.p256dh,
  auth: subscription.keys.auth,
});

let service: TestPushService;
beforeAll(async () => {
  service = await startTestPushService({ subject: vapid.subject, vapidPublicKey: vapid.publicKey });
});
afterAll(() => service.close());
beforeEach(() => service.clearRecords());

describe('createPushSender: one encrypted, VAPID-signed POST to the push service', () => {
  it('is the domain port', () => {
    const port: PushSender = createPushSender(allowed);
    expect(typeof port.send).toBe('function');
  });

  it('delivers a message the browser decrypts to the payload sent (aes128gcm with its keys)', async () => {
    const subscription = service.newSubscription();

    expect(await createPushSender(allowed).send(stored(subscription), message)).toEqual({ status: 201 });

    expect(service.rejected).toEqual([]);
    expect(service.received).toHaveLength(1);
    const [push] = service.received;
    expect(push!.endpoint).toBe(subscription.endpoint);
    expect(push!.text).toBe(message.payload);
    expect(push!.payload).toEqual(payload);
  });

  it('signs with the VAPID key: aud is the push service origin, exp within 24 hours, sub the contact', async () => {
    const subscription = service.newSubscription();
    const before = Math.floor(Date.now() / 1000);

    await createPushSender(allowed).send(stored(subscription), message);

    const [push] = service.received;
    expect(push!.vapidAud).toBe(service.origin);
    expect(push!.vapidSub).toBe('mailto:push@meals.example');
    expect(push!.vapidPublicKey).toBe(vapid.publicKey);
    expect(push!.vapidExp).toBeGreaterThan(before);
    expect(push!.vapidExp).toBeLessThanOrEqual(before + 24 * 60 * 60 + 5);
  });

  it('sends TTL and Topic as given, and Urgency normal', async () => {
    const subscription = service.newSubscription();

    await createPushSender(allowed).send(stored(subscription), { ...message, ttlSeconds: 42, topic: 'sold-out-77' });

    expect(service.received.map(({ ttl, topic, urgency }) => ({ ttl, topic, urgency }))).toEqual([
      { ttl: 42, topic: 'sold-out-77', urgency: 'normal' },
    ]);
  });

  it('encrypts each message for its own subscription', async () => {
    const [first, second] = [service.newSubscription(), service.newSubscription()];
    const sender = createPushSender(allowed);

    await sender.send(stored(first), { ...message, payload: '{"n":1}' });
    await sender.send(stored(second), { ...message, payload: '{"n":2}' });

    expect(service.received.map(({ endpoint, payload }) => ({ endpoint, payload }))).toEqual([
      { endpoint: first.endpoint, payload: { n: 1 } },
      { endpoint: second.endpoint, payload: { n: 2 } },
    ]);
  });
});

describe('createPushSender: what the push service answers is the outcome', () => {
  it('answers 410 for a subscription that is gone (once scripted), and 201 again after', async () => {
    const subscription = service.newSubscription();
    service.respondWith(subscription.endpoint, 410);
    const sender = createPushSender(allowed);

    expect(await sender.send(stored(subscription), message)).toEqual({ status: 410, error: 'HTTP 410' });
    expect(await sender.send(stored(subscription), message)).toEqual({ status: 201 });
  });

  it('answers 404 and 410 as they come: an unknown subscription, an unsubscribed one', async () => {
    const subscription = service.newSubscription();
    service.unsubscribe(subscription.endpoint);
    const sender = createPushSender(allowed);

    expect((await sender.send(stored(subscription), message)).status).toBe(410);
    expect(
      (await sender.send({ ...stored(subscription), endpoint: `${service.origin}/push/nobody` }, message)).status,
    ).toBe(404);
  });

  it('answers a 500, then the 201 of the next attempt', async () => {
    const subscription = service.newSubscription();
    service.respondWith(subscription.endpoint, [500, 201]);
    const sender = createPushSender(allowed);

    expect(await sender.send(stored(subscription), message)).toEqual({ status: 500, error: 'HTTP 500' });
    expect(await sender.send(stored(subscription), message)).toEqual({ status: 201 });
    expect(service.requests.map(({ status }) => status)).toEqual([500, 201]);
  });

  it("reads a 429's Retry-After in seconds", async () => {
    const subscription = service.newSubscription();
    service.respondWith(subscription.endpoint, 429, { 'retry-after': '7' });

    expect(await createPushSender(allowed).send(stored(subscription), message)).toEqual({
      status: 429,
      retryAfterMs: 7_000,
      error: 'HTTP 429',
    });
  });

  it("reads a 503's Retry-After as an HTTP date, counted from the sender's clock", async () => {
    const subscription = service.newSubscription();
    service.respondWith(subscription.endpoint, 503, { 'retry-after': 'Tue, 01 Sep 2026 08:02:30 GMT' });
    const now = () => new Date('2026-09-01T08:00:00Z');

    expect(await createPushSender({ ...allowed, now }).send(stored(subscription), message)).toEqual({
      status: 503,
      retryAfterMs: 150_000,
      error: 'HTTP 503',
    });
  });

  it('follows no redirect: a 3xx is its status', async () => {
    const subscription = service.newSubscription();
    service.respondWith(subscription.endpoint, 307, { location: service.newSubscription().endpoint });

    expect(await createPushSender(allowed).send(stored(subscription), message)).toEqual({
      status: 307,
      error: 'HTTP 307 (redirects are not followed)',
    });
    expect(service.received).toEqual([]);
  });

  it('answers the 400 of a push service that cannot decrypt (keys not the subscription’s)', async () => {
    const subscription = service.newSubscription();
    const other = service.newSubscription();

    const sent = await createPushSender(allowed).send({ ...stored(subscription), p256dh: other.keys.p256dh }, message);

    expect(sent).toEqual({ status: 400, error: 'HTTP 400' });
    expect(service.rejected).toEqual([
      expect.objectContaining({ status: 400, reason: expect.stringMatching(/could not be decrypted/) }),
    ]);
  });

  it('answers the 401 of a push service that expects another VAPID key', async () => {
    const subscription = service.newSubscription();
    const stranger = { ...generateVapidKeys(), subject: vapid.subject };

    expect((await createPushSender({ ...allowed, vapid: stranger }).send(stored(subscription), message)).status).toBe(
      401,
    );
    expect(service.rejected[0]?.reason).toBe('VAPID: k is not the expected key');
  });
});

describe('createPushSender: no answer is status null, never an exception', () => {
  it('gives up on a push service that hangs, within the timeout', async () => {
    const subscription = service.newSubscription();
    service.delay(subscription.endpoint, 'forever');
    const started = performance.now();

    const sent = await createPushSender({ ...allowed, timeoutMs: 300 }).send(stored(subscription), message);

    expect(sent).toEqual({ status: null, error: 'no answer within 300 ms' });
    expect(performance.now() - started).toBeLessThan(1_500);
    service.delay(subscription.endpoint, 0);
  });

  it('waits for a slow push service within the timeout', async () => {
    const subscription = service.newSubscription();
    service.delay(subscription.endpoint, 200);

    expect(await createPushSender(allowed).send(stored(subscription), message)).toEqual({ status: 201 });
    service.delay(subscription.endpoint, 0);
  });

  it('answers a refused connection', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const { port } = closed.address() as AddressInfo;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const subscription = service.newSubscription();

    const sent = await createPushSender(allowed).send(
      { ...stored(subscription), endpoint: `http://127.0.0.1:${port}/push/x` },
      message,
    );

    expect(sent).toEqual({ status: null, error: 'connection refused' });
  });

  it('answers a subscription key no browser has (not a point of P-256): nothing is sent', async () => {
    const subscription = service.newSubscription();
    const notAPoint = Buffer.concat([Buffer.from([4]), Buffer.alloc(64, 1)]).toString('base64url');

    const sent = await createPushSender(allowed).send({ ...stored(subscription), p256dh: notAPoint }, message);

    expect(sent.status).toBeNull();
    expect(sent.error).toMatch(/^the message could not be prepared: /);
    expect(service.requests).toEqual([]);
  });

  it('refuses a VAPID identity web-push would refuse, when it is created', () => {
    expect(() => createPushSender({ vapid: { ...vapid, subject: 'push@meals.example' } })).toThrow(/subject/i);
    expect(() => createPushSender({ vapid: { ...vapid, privateKey: 'c2hvcnQ' } })).toThrow(/32 bytes/);
  });
});

describe('createPushSender: the outbound address rule', () => {
  it('refuses an endpoint at a loopback address unless private networks are allowed, without connecting', async () => {
    const subscription = service.newSubscription();

    const refused = await createPushSender(publicOnly).send(stored(subscription), message);

    expect(refused).toEqual({
      status: null,
      error:
        'the endpoint must reach a public address, not a loopback one (OUTBOUND_ALLOW_PRIVATE_NETWORKS=1 allows it)',
    });
    expect(service.requests).toEqual([]);
    expect(await createPushSender(allowed).send(stored(subscription), message)).toEqual({ status: 201 });
  });

  it('refuses a host name that resolves to a private address, on the connection itself', async () => {
    const subscription = service.newSubscription();
    const port = new URL(service.origin).port;
    const lookup = async (hostname: string) =>
      hostname === 'push.example' ? [{ address: '127.0.0.1', family: 4 }] : [];
    const endpoint = subscription.endpoint.replace(service.origin, `https://push.example:${port}`);

    const refused = await createPushSender({ ...publicOnly, lookup }).send(
      { ...stored(subscription), endpoint },
      message,
    );

    expect(refused).toEqual({
      status: null,
      error: 'the host is not on the public internet (OUTBOUND_ALLOW_PRIVATE_NETWORKS=1 allows it)',
    });
    expect(service.requests).toEqual([]);
  });

  it('refuses a plain http: endpoint unless private networks are allowed', async () => {
    const sent = await createPushSender(publicOnly).send(
      { endpoint: 'http://push.example/push/1', p256dh: '', auth: '' },
      message,
    );

    expect(sent).toEqual({
      status: null,
      error: 'the endpoint must be an https: URL (http: only where OUTBOUND_ALLOW_PRIVATE_NETWORKS=1 allows it)',
    });
  });
});

describe('pushEndpointProblem: the rule a subscription is saved under', () => {
  const publicRule = (url: string) => pushEndpointProblem(url, { allowPrivateNetworks: false });
  const privateRule = (url: string) => pushEndpointProblem(url, { allowPrivateNetworks: true });

  it('accepts the https: endpoints of push services', () => {
    expect(publicRule('https://fcm.googleapis.com/fcm/send/dX1f:APA91b')).toBeUndefined();
    expect(publicRule('https://updates.push.services.mozilla.com/wpush/v2/gAAAAA')).toBeUndefined();
    expect(publicRule('https://web.push.apple.com/QGuQyavXutnMH')).toBeUndefined();
    expect(pushEndpointProblem('https://8.8.8.8/push/1')).toBeUndefined();
  });

  it.each([
    ['https://127.0.0.1/push/1', 'loopback'],
    ['https://10.1.2.3/push/1', 'private'],
    ['https://192.168.0.10:8443/push/1', 'private'],
    ['https://169.254.169.254/latest', 'linkLocal'],
    ['https://[::1]/push/1', 'loopback'],
    ['https://[::ffff:10.0.0.1]/push/1', 'private'],
    ['https://[fd00::1]/push/1', 'uniqueLocal'],
    ['https://0x7f.1/push/1', 'loopback'],
    ['https://2130706433/push/1', 'loopback'],
    ['https://localhost/push/1', 'loopback'],
    ['https://LOCALHOST./push/1', 'loopback'],
    ['https://push.localhost/push/1', 'loopback'],
  ])('refuses %s (%s) unless private networks are allowed', (url, range) => {
    expect(publicRule(url)).toBe(
      `must reach a public address, not a ${range} one (OUTBOUND_ALLOW_PRIVATE_NETWORKS=1 allows it)`,
    );
    expect(privateRule(url)).toBeUndefined();
  });

  it('asks for https:, allowing http: only with private networks', () => {
    expect(publicRule('http://push.example/push/1')).toBe(
      'must be an https: URL (http: only where OUTBOUND_ALLOW_PRIVATE_NETWORKS=1 allows it)',
    );
    expect(privateRule('http://127.0.0.1:8080/push/1')).toBeUndefined();
    expect(privateRule('ftp://push.example/push/1')).toBe('must be an https: URL, not ftp:');
    expect(privateRule('javascript:alert(1)')).toBe('must be an https: URL, not javascript:');
  });

  it('refuses what is no URL, and credentials', () => {
    expect(privateRule('push.example/push/1')).toBe('must be an absolute https: URL');
    expect(privateRule('')).toBe('must be an absolute https: URL');
    expect(publicRule('https://user:secret@push.example/push/1')).toBe('must not carry a user name or password');
  });

  it("leaves a host name to the address check of each connection (a name's addresses can change)", () => {
    expect(publicRule('https://push.internal.example/push/1')).toBeUndefined();
  });

  it("is the domain's endpoint check for a subscription", () => {
    const keys = { p256dh: service.newSubscription().keys.p256dh, auth: 'AAAAAAAAAAAAAAAAAAAAAA' };

    expect(pushSubscriptionProblem({ endpoint: 'https://10.0.0.1/push/1', ...keys }, publicRule)).toEqual({
      field: 'endpoint',
      message: 'endpoint must reach a public address, not a private one (OUTBOUND_ALLOW_PRIVATE_NETWORKS=1 allows it)',
    });
    expect(
      pushSubscriptionProblem({ endpoint: 'https://fcm.googleapis.com/fcm/send/1', ...keys }, publicRule),
    ).toBeUndefined();
  });
});

describe('retryAfterMs', () => {
  const now = new Date('2026-09-01T08:00:00Z');

  it('reads seconds and HTTP dates; a past date is 0; anything else is no Retry-After', () => {
    expect(retryAfterMs('7', now)).toBe(7_000);
    expect(retryAfterMs(' 0 ', now)).toBe(0);
    expect(retryAfterMs('Tue, 01 Sep 2026 08:01:00 GMT', now)).toBe(60_000);
    expect(retryAfterMs('Mon, 31 Aug 2026 08:00:00 GMT', now)).toBe(0);
    expect(retryAfterMs('soon', now)).toBeUndefined();
    expect(retryAfterMs('-5', now)).toBeUndefined();
    expect(retryAfterMs('', now)).toBeUndefined();
    expect(retryAfterMs(undefined, now)).toBeUndefined();
  });
});
