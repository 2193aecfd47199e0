import { signHmacToken } from '@canteen-meals/adapters-http';
import { createMealsClient, verifyWebhook, WebhookVerificationError, type MealsClient } from '@canteen-meals/client';
import { MealMother } from '@canteen-meals/repository-contract';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook as StandardWebhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from './start-server.js';

// The client's verifier against the real server's deliveries: a server process (SQLite) POSTs to a receiver on
// 127.0.0.1 (OUTBOUND_ALLOW_PRIVATE_NETWORKS=1), and the receiver keeps each delivery's headers and raw body.
const jwtSecret = 'verify-webhook-test-secret-of-32-bytes!!';

interface Received {
  readonly headers: IncomingHttpHeaders;
  readonly body: Buffer;
}

let server: RunningServer;
let receiver: Server;
let admin: MealsClient;
const received: Received[] = [];
let secret: string;
let delivery: Received;
let arrived: (first: Received) => void;
const firstArrival = new Promise<Received>((resolve) => (arrived = resolve));

beforeAll(async () => {
  receiver = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      received.push({ headers: request.headers, body: Buffer.concat(chunks) });
      arrived(received[0]!);
      response.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  server = await startServer({
    JWT_SECRET: jwtSecret,
    TZ_NAME: 'UTC',
    OUTBOUND_ALLOW_PRIVATE_NETWORKS: '1',
    WEBHOOK_POLL_MS: '200',
  });
  admin = createMealsClient({
    baseUrl: server.baseUrl,
    token: signHmacToken(jwtSecret, { sub: 'menu-admin', scope: 'meals:write' }),
  });

  const saved = await admin.saveWebhook('receiver', {
    url: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`,
    events: ['menu.published'],
  });
  secret = saved.secret!;
  await admin.upsertMeals(MealMother.upsertBody(MealMother.servedTomorrow(new Date(), { id: 7, name: 'Lentil soup' })));
  // Delivered in the background after the upsert committed: the worker's first pass.
  delivery = await firstArrival;
});

afterAll(async () => {
  await server?.stop();
  await new Promise((resolve) => receiver?.close(resolve));
});

describe('verifyWebhook, on what the server really sends', () => {
  it("answers the typed event with its id, from the raw body and Node's headers", async () => {
    const event = await verifyWebhook(secret, delivery.headers, delivery.body);

    expect(event.id).toBe(delivery.headers['webhook-id']);
    expect(event.type).toBe('menu.published');
    if (event.type !== 'menu.published') throw new Error('unreachable');
    expect(event.data).toMatchObject({
      canteen_id: 'default',
      cause: 'upsert',
      added: [7],
      changed: [],
      withdrawn: [],
    });
    // The delivery log names the same event.
    const log = await admin.listDeliveries('receiver');
    expect(log.deliveries).toMatchObject([
      { event_id: event.id, type: 'menu.published', state: 'delivered', attempts: 1, last_status: 204 },
    ]);
  });

  it('takes a fetch Headers and a string body as well, and agrees with the standardwebhooks library', async () => {
    const headers = new Headers(Object.entries(delivery.headers).map(([name, value]) => [name, String(value)]));
    const event = await verifyWebhook(secret, headers, delivery.body.toString('utf8'));

    expect(new StandardWebhook(secret).verify(delivery.body.toString('utf8'), Object.fromEntries(headers))).toEqual({
      type: event.type,
      timestamp: event.timestamp,
      data: event.data,
    });
  });

  it.each([
    [
      'an altered body',
      () => ({ body: Buffer.from(delivery.body.toString('utf8').replace('"added":[7]', '"added":[8]')) }),
      'invalid_signature',
    ],
    ['another secret', () => ({ secret: 'whsec_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA' }), 'invalid_signature'],
    ['another event id', () => ({ headers: { ...delivery.headers, 'webhook-id': 'evt_other' } }), 'invalid_signature'],
    [
      'a signature of another version',
      () => ({
        headers: {
          ...delivery.headers,
          'webhook-signature': String(delivery.headers['webhook-signature']).replace('v1,', 'v2,'),
        },
      }),
      'invalid_signature',
    ],
    [
      'no signature header',
      () => ({ headers: { ...delivery.headers, 'webhook-signature': undefined } }),
      'missing_headers',
    ],
    [
      'a timestamp that is no number',
      () => ({ headers: { ...delivery.headers, 'webhook-timestamp': '12e3' } }),
      'invalid_timestamp',
    ],
    ['a secret that is not base64', () => ({ secret: 'whsec_not base64!' }), 'invalid_secret'],
  ])('refuses %s', async (_, change, reason) => {
    const changed = { secret, headers: delivery.headers, body: delivery.body, ...change() };
    const refusal = await verifyWebhook(changed.secret, changed.headers, changed.body).then(
      () => expect.fail('expected a refusal'),
      (error: unknown) => error,
    );
    expect(refusal).toBeInstanceOf(WebhookVerificationError);
    expect((refusal as WebhookVerificationError).reason).toBe(reason);
  });

  it('refuses a delivery signed more than toleranceSeconds ago or ahead, and accepts one at the bound', async () => {
    const signedAt = Number(delivery.headers['webhook-timestamp']) * 1000;
    const headers = delivery.headers;

    await expect(
      verifyWebhook(secret, headers, delivery.body, { now: new Date(signedAt + 300_000) }),
    ).resolves.toMatchObject({ type: 'menu.published' });
    for (const now of [new Date(signedAt + 301_000), new Date(signedAt - 301_000)]) {
      await expect(verifyWebhook(secret, headers, delivery.body, { now })).rejects.toMatchObject({
        reason: 'timestamp_out_of_tolerance',
      });
    }
    await expect(
      verifyWebhook(secret, headers, delivery.body, { now: new Date(signedAt + 3_600_000), toleranceSeconds: 3_600 }),
    ).resolves.toBeDefined();
  });

  it('accepts any one matching signature among several (a receiver rotating secrets)', async () => {
    const signatures = `v1,${Buffer.alloc(32).toString('base64')} ${String(delivery.headers['webhook-signature'])}`;
    const headers = { ...delivery.headers, 'webhook-signature': signatures };

    await expect(verifyWebhook(secret, headers, delivery.body)).resolves.toMatchObject({ type: 'menu.published' });
  });
});
