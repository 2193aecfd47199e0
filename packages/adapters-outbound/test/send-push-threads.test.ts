import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { startTestPushService, type TestPushService, type TestPushSubscription } from '@canteen-meals/test-push';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createPushSender, generateVapidKeys, type PushSenderOptions } from '../src/index.js';
import { vapidLifetimeS, vapidRenewBeforeS } from '../src/send-push-prepare.js';

// The sender as the server runs it (issue 41, item 5): requests prepared in worker threads (the compiled thread of
// dist/, built by `tsc -b`), one VAPID JWT per push service reused until shortly before its exp, connections kept.

const vapid = { ...generateVapidKeys(), subject: 'mailto:push@meals.example' };
const message = { payload: '{"title":"Today at Triplex"}', ttlSeconds: 3_600, topic: 'digest-1-2026-09-01' };
const stored = (subscription: TestPushSubscription) => ({
  endpoint: subscription.endpoint,
  p256dh: subscription.keys.p256dh,
  auth: subscription.keys.auth,
});

/** A clock the test moves; near the real time, as web-push checks a JWT's exp against it (at most 24 h ahead). */
const clock = { at: Date.now(), now: () => new Date(clock.at) };
let service: TestPushService;
const senders: { close(): Promise<void> }[] = [];
const sender = (options: Partial<PushSenderOptions>) => {
  const made = createPushSender({ vapid, allowPrivateNetworks: true, timeoutMs: 5_000, now: clock.now, ...options });
  senders.push(made);
  return made;
};

beforeAll(async () => {
  service = await startTestPushService({ subject: vapid.subject, vapidPublicKey: vapid.publicKey, now: clock.now });
});
afterAll(() => service.close());
beforeEach(() => {
  clock.at = Date.now();
  service.clearRecords();
});
afterEach(async () => {
  await Promise.all(senders.splice(0).map((each) => each.close()));
});

describe('createPushSender with preparing threads', () => {
  it('delivers messages prepared in two threads, each decrypted by its own subscription at the push service', async () => {
    const subscriptions = Array.from({ length: 40 }, () => service.newSubscription());
    const threaded = sender({ preparingThreads: 2 });

    const sent = await Promise.all(
      subscriptions.map((subscription, index) =>
        threaded.send(stored(subscription), { ...message, payload: JSON.stringify({ n: index }) }),
      ),
    );

    expect(sent).toEqual(subscriptions.map(() => ({ status: 201 })));
    expect(service.rejected).toEqual([]);
    const byEndpoint = new Map(service.received.map((push) => [push.endpoint, push.payload]));
    expect(subscriptions.map((subscription) => byEndpoint.get(subscription.endpoint))).toEqual(
      subscriptions.map((_, index) => ({ n: index })),
    );
  });

  it('answers a key no browser has from the thread as an outcome: nothing is sent, the next message goes', async () => {
    const subscription = service.newSubscription();
    const notAPoint = Buffer.concat([Buffer.from([4]), Buffer.alloc(64, 1)]).toString('base64url');
    const threaded = sender({ preparingThreads: 1 });

    const refused = await threaded.send({ ...stored(subscription), p256dh: notAPoint }, message);

    expect(refused.status).toBeNull();
    expect(refused.error).toMatch(/^the message could not be prepared: /);
    expect(service.requests).toEqual([]);
    expect(await threaded.send(stored(subscription), message)).toEqual({ status: 201 });
  });

  it('answers what was under way when it is closed as not sent (retried), never hangs', async () => {
    const subscription = service.newSubscription();
    const threaded = sender({ preparingThreads: 1 });

    const under = threaded.send(stored(subscription), message);
    await threaded.close();

    expect(await under).toEqual({ status: null, error: expect.stringMatching(/^the message could not be sent: /) });
  });
});

describe('createPushSender with threads: the whole send in the thread', () => {
  it("answers the push service's status, and a 429's Retry-After date counted from the caller's clock", async () => {
    const subscription = service.newSubscription();
    clock.at = Date.now() + 3_600_000;
    const later = new Date(clock.at + 120_000).toUTCString();
    service.respondWith(subscription.endpoint, [500, 429], { 'retry-after': later });
    const threaded = sender({ preparingThreads: 1, keptConnections: 4 });

    expect(await threaded.send(stored(subscription), message)).toEqual({ status: 500, error: 'HTTP 500' });
    const limited = await threaded.send(stored(subscription), message);
    expect(limited).toMatchObject({ status: 429, error: 'HTTP 429' });
    expect(limited.retryAfterMs).toBeGreaterThan(118_000);
    expect(limited.retryAfterMs).toBeLessThanOrEqual(120_000);
    expect(await threaded.send(stored(subscription), message)).toEqual({ status: 201 });
  });
});

describe('createPushSender: one VAPID JWT per push service, renewed before its exp', () => {
  it('signs once per push service and reuses it until an hour before its exp, counted from its clock', async () => {
    const subscription = service.newSubscription();
    const threaded = sender({ preparingThreads: 1 });
    const start = Math.floor(clock.at / 1000);

    await threaded.send(stored(subscription), message);
    clock.at += (vapidLifetimeS - vapidRenewBeforeS - 1) * 1000;
    await threaded.send(stored(subscription), message);
    clock.at += 1000;
    await threaded.send(stored(subscription), message);

    expect(service.rejected).toEqual([]);
    expect(service.received.map((push) => push.vapidExp)).toEqual([
      start + vapidLifetimeS,
      start + vapidLifetimeS,
      start + vapidLifetimeS + (vapidLifetimeS - vapidRenewBeforeS),
    ]);
  });

  it('signs for each push service its own audience', async () => {
    const other = await startTestPushService({ subject: vapid.subject, vapidPublicKey: vapid.publicKey });
    try {
      const inline = sender({});

      await inline.send(stored(service.newSubscription()), message);
      await inline.send(stored(other.newSubscription()), message);
      await inline.send(stored(service.newSubscription()), message);

      expect([...service.received, ...other.received].map((push) => push.vapidAud)).toEqual([
        service.origin,
        service.origin,
        other.origin,
      ]);
      expect(other.rejected).toEqual([]);
    } finally {
      await other.close();
    }
  });
});

describe('createPushSender: connections kept to a push service', () => {
  let counting: Server;
  let connections = 0;
  let origin = '';
  beforeAll(async () => {
    counting = createServer((request, response) => {
      request.resume();
      request.once('end', () => response.writeHead(201).end());
    });
    counting.on('connection', () => {
      connections += 1;
    });
    await new Promise<void>((resolve) => counting.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(counting.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    counting.closeAllConnections();
    await new Promise<void>((resolve) => counting.close(() => resolve()));
  });
  beforeEach(() => {
    connections = 0;
  });

  const target = () => ({ ...stored(service.newSubscription()), endpoint: `${origin}/push/x` });

  it('sends one message after another over one kept connection', async () => {
    const kept = sender({ keptConnections: 4 });
    for (let index = 0; index < 5; index += 1) expect(await kept.send(target(), message)).toEqual({ status: 201 });

    expect(connections).toBe(1);
  });

  it('keeps connections in the sending thread too', async () => {
    const threaded = sender({ preparingThreads: 1, keptConnections: 4 });
    for (let index = 0; index < 5; index += 1) expect(await threaded.send(target(), message)).toEqual({ status: 201 });

    expect(connections).toBe(1);
  });

  it('makes a connection per message without', async () => {
    const single = sender({});
    for (let index = 0; index < 3; index += 1) expect(await single.send(target(), message)).toEqual({ status: 201 });

    expect(connections).toBe(3);
  });

  it('still checks the addresses of each connection it makes: a name resolving to a private address is refused', async () => {
    const port = new URL(origin).port;
    const lookup = async (hostname: string) =>
      hostname === 'push.example' ? [{ address: '127.0.0.1', family: 4 }] : [];
    const kept = sender({ keptConnections: 4, allowPrivateNetworks: false, lookup });

    const refused = await kept.send({ ...target(), endpoint: `https://push.example:${port}/push/x` }, message);

    expect(refused).toEqual({
      status: null,
      error: 'the host is not on the public internet (OUTBOUND_ALLOW_PRIVATE_NETWORKS=1 allows it)',
    });
    expect(connections).toBe(0);
  });
});
