import { createPrivateKey, sign } from 'node:crypto';
import webPush from 'web-push';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startTestPushService, type TestPushService, type TestPushSubscription } from '../src/index.js';

const vapid = { ...webPush.generateVAPIDKeys(), subject: 'mailto:push@meals.example' };
const payload = { title: 'Sold out', body: 'The lentil curry is gone', url: '/', tag: 'sold-out-7' };

let service: TestPushService;
beforeAll(async () => {
  service = await startTestPushService({ subject: vapid.subject, vapidPublicKey: vapid.publicKey });
});
afterAll(() => service.close());
beforeEach(() => service.clearRecords());

/** A request as web-push makes it (aes128gcm, VAPID), to change a part of before it is sent. */
function requestFor(subscription: TestPushSubscription, text = JSON.stringify(payload), keys = vapid) {
  const details = webPush.generateRequestDetails(subscription, text, {
    vapidDetails: keys,
    TTL: 60,
    urgency: 'high',
    topic: 'sold-out-7',
    contentEncoding: 'aes128gcm',
  });
  return {
    headers: Object.fromEntries(Object.entries(details.headers).map(([name, value]) => [name, String(value)])),
    body: details.body,
  };
}

async function post(endpoint: string, request: { headers: Record<string, string>; body: Buffer | null }) {
  const response = await fetch(endpoint, {
    method: 'POST',
    headers: request.headers,
    body: request.body,
    signal: AbortSignal.timeout(5_000),
  });
  await response.arrayBuffer();
  return response;
}

/** A VAPID Authorization with the claims given, signed ES256 by `keys` (web-push refuses to sign most bad ones). */
function vapidAuthorization(
  claims: Record<string, unknown>,
  keys = vapid,
  header: Record<string, unknown> = { typ: 'JWT', alg: 'ES256' },
) {
  const publicKey = Buffer.from(keys.publicKey, 'base64url');
  const privateKey = createPrivateKey({
    key: {
      kty: 'EC',
      crv: 'P-256',
      d: keys.privateKey,
      x: publicKey.subarray(1, 33).toString('base64url'),
      y: publicKey.subarray(33).toString('base64url'),
    },
    format: 'jwk',
  });
  const json = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
  const input = `${json(header)}.${json(claims)}`;
  const signature = sign('sha256', Buffer.from(input), { key: privateKey, dsaEncoding: 'ieee-p1363' }).toString(
    'base64url',
  );
  return `vapid t=${input}.${signature}, k=${keys.publicKey}`;
}

const inAnHour = () => Math.floor(Date.now() / 1000) + 3_600;

describe('startTestPushService: subscriptions as a browser makes them', () => {
  it('hands out an endpoint on its origin, a P-256 public key and a 16-byte secret, base64url', () => {
    const subscription = service.newSubscription();

    expect(service.origin).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(subscription.endpoint).toMatch(new RegExp(`^${service.origin}/push/[A-Za-z0-9_-]+$`));
    const p256dh = Buffer.from(subscription.keys.p256dh, 'base64url');
    expect(p256dh).toHaveLength(65);
    expect(p256dh[0]).toBe(0x04);
    expect(Buffer.from(subscription.keys.auth, 'base64url')).toHaveLength(16);
    expect(subscription.expirationTime).toBeNull();
    expect(service.newSubscription().endpoint).not.toBe(subscription.endpoint);
  });
});

describe('startTestPushService: a valid message', () => {
  it('is decrypted, recorded with its headers and VAPID claims, and answered 201 with a Location', async () => {
    const subscription = service.newSubscription();

    const response = await post(subscription.endpoint, requestFor(subscription));

    expect(response.status).toBe(201);
    expect(response.headers.get('location')).toMatch(new RegExp(`^${service.origin}/message/`));
    expect(service.rejected).toEqual([]);
    expect(service.received).toEqual([
      {
        endpoint: subscription.endpoint,
        subscriptionId: subscription.endpoint.split('/').at(-1),
        payload,
        text: JSON.stringify(payload),
        ttl: 60,
        urgency: 'high',
        topic: 'sold-out-7',
        vapidSub: vapid.subject,
        vapidAud: service.origin,
        vapidExp: expect.any(Number),
        vapidPublicKey: vapid.publicKey,
        receivedAt: expect.any(Date),
      },
    ]);
  });

  it('records a text that is no JSON with payload undefined', async () => {
    const subscription = service.newSubscription();

    expect((await post(subscription.endpoint, requestFor(subscription, 'plain words'))).status).toBe(201);
    expect(service.received.map(({ payload, text }) => ({ payload, text }))).toEqual([
      { payload: undefined, text: 'plain words' },
    ]);
  });
});

describe('startTestPushService: VAPID (RFC 8292) refused with 401', () => {
  const refusedWith = async (authorization: string | undefined) => {
    const subscription = service.newSubscription();
    const request = requestFor(subscription);
    const headers = { ...request.headers };
    delete headers.Authorization;
    const response = await post(subscription.endpoint, {
      headers: authorization === undefined ? headers : { ...headers, Authorization: authorization },
      body: request.body,
    });
    expect(service.received).toEqual([]);
    return { status: response.status, reason: service.rejected.at(-1)?.reason };
  };
  const claims = () => ({ aud: service.origin, exp: inAnHour(), sub: vapid.subject });

  it('accepts the claims it asks for, signed by hand', async () => {
    const subscription = service.newSubscription();
    const request = requestFor(subscription);

    const response = await post(subscription.endpoint, {
      ...request,
      headers: { ...request.headers, Authorization: vapidAuthorization(claims()) },
    });

    expect(response.status).toBe(201);
  });

  it.each([
    ['no Authorization', () => undefined, 'VAPID: no Authorization of the vapid scheme'],
    ['the WebPush scheme of aesgcm', () => 'WebPush abc.def.ghi', 'VAPID: no Authorization of the vapid scheme'],
    ['no k', () => vapidAuthorization(claims()).replace(/, k=.*$/, ''), 'VAPID: the Authorization lacks t= or k='],
    [
      'another audience',
      () => vapidAuthorization({ ...claims(), aud: 'https://fcm.googleapis.com' }),
      'VAPID: aud is "https://fcm.googleapis.com", not the origin',
    ],
    [
      'an expired token',
      () => vapidAuthorization({ ...claims(), exp: Math.floor(Date.now() / 1000) - 60 }),
      'VAPID: the JWT expired',
    ],
    [
      'exp 25 hours ahead',
      () => vapidAuthorization({ ...claims(), exp: Math.floor(Date.now() / 1000) + 25 * 3_600 }),
      'VAPID: exp is more than 24 hours ahead',
    ],
    ['no exp', () => vapidAuthorization({ aud: service.origin, sub: vapid.subject }), 'VAPID: exp is missing'],
    [
      'another subject',
      () => vapidAuthorization({ ...claims(), sub: 'mailto:someone@else.example' }),
      'VAPID: sub is "mailto:someone@else.example", not mailto:push@meals.example',
    ],
    [
      'another algorithm',
      () => vapidAuthorization(claims(), vapid, { typ: 'JWT', alg: 'HS256' }),
      'VAPID: the JWT is not ES256',
    ],
  ])('refuses %s', async (_name, authorization, reason) => {
    const refused = await refusedWith(authorization());
    expect(refused.status).toBe(401);
    expect(refused.reason?.startsWith(reason)).toBe(true);
  });

  it('refuses a signature by another key than k', async () => {
    const stranger = { ...webPush.generateVAPIDKeys(), subject: vapid.subject };
    const forged = vapidAuthorization(claims(), stranger).replace(/k=.*$/, `k=${vapid.publicKey}`);

    expect(await refusedWith(forged)).toEqual({ status: 401, reason: 'VAPID: the JWT signature is not valid for k' });
  });

  it('checks the claims of a token it verified before on every message: the same token refused once it expired', async () => {
    let now = Date.now();
    const clocked = await startTestPushService({ subject: vapid.subject, now: () => new Date(now) });
    try {
      const subscription = clocked.newSubscription();
      const request = requestFor(subscription);
      const authorization = vapidAuthorization({
        aud: clocked.origin,
        exp: Math.floor(now / 1000) + 60,
        sub: vapid.subject,
      });
      const withToken = { ...request, headers: { ...request.headers, Authorization: authorization } };

      expect((await post(subscription.endpoint, withToken)).status).toBe(201);
      now += 61_000;
      expect((await post(subscription.endpoint, withToken)).status).toBe(401);
      expect(clocked.rejected.map((each) => each.reason)).toEqual(['VAPID: the JWT expired']);
    } finally {
      await clocked.close();
    }
  });

  it('refuses a valid token by another application server than the one expected', async () => {
    const stranger = { ...webPush.generateVAPIDKeys(), subject: vapid.subject };

    expect(await refusedWith(vapidAuthorization(claims(), stranger))).toEqual({
      status: 401,
      reason: 'VAPID: k is not the expected key',
    });
  });
});

describe('startTestPushService: headers and body refused with 400', () => {
  const sentWith = async (change: (request: ReturnType<typeof requestFor>) => ReturnType<typeof requestFor>) => {
    const subscription = service.newSubscription();
    const response = await post(subscription.endpoint, change(requestFor(subscription)));
    return { status: response.status, reason: service.rejected.at(-1)?.reason };
  };
  const withHeader = (name: string, value: string | null) => (request: ReturnType<typeof requestFor>) => {
    const headers = { ...request.headers };
    if (value === null) delete headers[name];
    else headers[name] = value;
    return { ...request, headers };
  };

  it.each([
    ['no TTL', withHeader('TTL', null), 'TTL must be a number of seconds, not null'],
    ['a negative TTL', withHeader('TTL', '-1'), 'TTL must be a number of seconds, not "-1"'],
    ['an unknown Urgency', withHeader('Urgency', 'urgent'), 'Urgency "urgent" is none of very-low, low, normal, high'],
    [
      'a Topic of 33 characters',
      withHeader('Topic', 'a'.repeat(33)),
      'Topic must be at most 32 characters of base64url',
    ],
    ['a Topic with a dot', withHeader('Topic', 'sold.out'), 'Topic must be at most 32 characters of base64url'],
    [
      'Content-Encoding aesgcm',
      withHeader('Content-Encoding', 'aesgcm'),
      'Content-Encoding must be aes128gcm, not "aesgcm"',
    ],
  ])('refuses %s', async (_name, change, reason) => {
    expect(await sentWith(change)).toEqual({ status: 400, reason });
  });

  it('refuses a body changed on the way (the AEAD tag fails)', async () => {
    const refused = await sentWith((request) => {
      const body = Buffer.from(request.body!);
      body[body.length - 1]! ^= 0x01;
      return { ...request, body };
    });
    expect(refused.status).toBe(400);
    expect(refused.reason).toMatch(/^the body could not be decrypted/);
  });

  it('refuses a body encrypted for another subscription', async () => {
    const subscription = service.newSubscription();
    const other = service.newSubscription();

    const response = await post(subscription.endpoint, requestFor(other));

    expect(response.status).toBe(400);
    expect(service.rejected.at(-1)).toMatchObject({ endpoint: subscription.endpoint, status: 400 });
  });
});

describe('startTestPushService: what else a push service answers', () => {
  it('answers 404 for an endpoint it never handed out, 405 for another method', async () => {
    const subscription = service.newSubscription();

    expect((await post(`${service.origin}/push/unknown`, requestFor(subscription))).status).toBe(404);
    expect((await fetch(subscription.endpoint)).status).toBe(405);
  });

  it('answers 413 for a body above its limit', async () => {
    const small = await startTestPushService({ maxBodyBytes: 200 });
    try {
      const subscription = small.newSubscription();
      expect((await post(subscription.endpoint, requestFor(subscription, 'x'.repeat(300)))).status).toBe(413);
      expect(small.rejected.map(({ status }) => status)).toEqual([413]);
    } finally {
      await small.close();
    }
  });

  it('checks no subject and key when not told them, beyond a mailto: or https: subject', async () => {
    const open = await startTestPushService();
    try {
      const subscription = open.newSubscription();
      const stranger = { ...webPush.generateVAPIDKeys(), subject: 'https://meals.example/contact' };
      expect((await post(subscription.endpoint, requestFor(subscription, '{}', stranger))).status).toBe(201);
    } finally {
      await open.close();
    }
  });

  it('answers 410 for ever once the browser unsubscribed', async () => {
    const subscription = service.newSubscription();
    service.unsubscribe(subscription.endpoint);

    expect((await post(subscription.endpoint, requestFor(subscription))).status).toBe(410);
    expect((await post(subscription.endpoint, requestFor(subscription))).status).toBe(410);
  });

  it('answers a script in order, by endpoint or id, with its headers, then 201 again', async () => {
    const subscription = service.newSubscription();
    service.respondWith(subscription.endpoint, [500, 429], { 'retry-after': '7' });
    service.respondWith(subscription.endpoint.split('/').at(-1)!, 201);

    const statuses = [];
    for (let attempt = 0; attempt < 4; attempt += 1) {
      const response = await post(subscription.endpoint, requestFor(subscription));
      statuses.push([response.status, response.headers.get('retry-after')]);
    }

    expect(statuses).toEqual([
      [500, '7'],
      [429, '7'],
      [201, null],
      [201, null],
    ]);
    expect(service.requests.map(({ status }) => status)).toEqual([500, 429, 201, 201]);
    expect(service.received).toHaveLength(2);
  });

  it('refuses a script for an endpoint it does not know', () => {
    expect(() => service.respondWith(`${service.origin}/push/unknown`, 410)).toThrow(/no subscription/);
  });

  it('waits before answering when told, and never answers when told so, until it closes', async () => {
    const slow = await startTestPushService();
    const subscription = slow.newSubscription();
    slow.delay(subscription.endpoint, 150);
    const started = performance.now();
    expect((await post(subscription.endpoint, requestFor(subscription))).status).toBe(201);
    expect(performance.now() - started).toBeGreaterThanOrEqual(140);

    slow.delay(subscription.endpoint, 'forever');
    const hanging = post(subscription.endpoint, requestFor(subscription)).then(
      () => 'answered',
      () => 'ended',
    );
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(slow.requests.map(({ status }) => status)).toEqual([201, null]);
    await slow.close();
    expect(await hanging).toBe('ended');
  });
});
