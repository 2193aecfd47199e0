import { FixedClock } from '@canteen-meals/adapters-memory';
import { signHmacToken } from '@canteen-meals/adapters-http';
import { verifyWebhook } from '@canteen-meals/client';
import { MealMother } from '@canteen-meals/repository-contract';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook as StandardWebhook } from 'standardwebhooks';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { buildServer } from '../src/composition-root.js';
import { loadConfig } from '../src/config.js';

// Webhooks through the whole service: the real app over the in-memory store, a real receiver on 127.0.0.1, and the
// delivery worker's passes run by the test (runNow) with a clock it moves: retries come when the clock says.
const secret = 'webhooks-test-secret-of-at-least-32-bytes';
const admin = signHmacToken(secret, { sub: 'kitchen', scope: 'meals:write' });
const day = 24 * 3_600_000;

interface Received {
  readonly headers: IncomingHttpHeaders;
  readonly body: string;
}

/** What the receiver answers next: a status, or 'hang' (never answers). */
let answers: (number | 'hang')[] = [];
const received: Received[] = [];
let connections = 0;
let receiver: Server;
let receiverUrl: string;

beforeAll(async () => {
  receiver = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      received.push({ headers: request.headers, body: Buffer.concat(chunks).toString('utf8') });
      const answer = answers.shift() ?? 200;
      if (answer !== 'hang') response.writeHead(answer).end();
    });
  });
  receiver.on('connection', () => (connections += 1));
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;
});
afterAll(async () => {
  receiver.closeAllConnections();
  await new Promise((resolve) => receiver.close(resolve));
});

const closers: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  while (closers.length > 0) await closers.pop()!();
  answers = [];
  received.length = 0;
});

async function service(
  env: Record<string, string> = {},
  persistence?: Awaited<ReturnType<typeof buildServer>>['persistence'],
) {
  const clock = new FixedClock('2026-09-01T08:00:00Z');
  const config = loadConfig({
    JWT_SECRET: secret,
    DATABASE_URL: 'memory:',
    LOG_LEVEL: 'silent',
    OUTBOUND_ALLOW_PRIVATE_NETWORKS: '1',
    FEED_CHECK_INTERVAL_S: '0',
    RATE_LIMIT_USER_PER_MIN: '0',
    // Passes come from the test (and right after each menu change); the poll would come in an hour.
    WEBHOOK_POLL_MS: '3600000',
    ...env,
  });
  const server = await buildServer(config, { clock, ...(persistence === undefined ? {} : { persistence }) });
  closers.push(() => server.app.close());
  const call = async (method: 'GET' | 'PUT', url: string, body?: unknown) => {
    const response = await server.app.inject({
      method,
      url,
      headers: {
        authorization: `Bearer ${admin}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(body === undefined ? {} : { payload: JSON.stringify(body) }),
    });
    return { status: response.statusCode, body: response.json() as any };
  };
  let mealId = 0;
  return {
    server,
    clock,
    call,
    saveWebhook: (url = receiverUrl) => call('PUT', '/api/v1/admin/webhooks/app', { url, events: ['menu.published'] }),
    publishMenu: () =>
      call(
        'PUT',
        '/api/v1/admin/meals',
        MealMother.upsertBody(MealMother.servedTomorrow(clock.now(), { id: ++mealId })),
      ),
    deliveries: async () => (await call('GET', '/api/v1/admin/webhooks/app/deliveries')).body.data.deliveries as any[],
    pass: () => server.webhookWorker!.runNow(),
  };
}

describe('webhooks through the service, to a real receiver', () => {
  it('delivers a signed event that verifies with the secret, with the client helper and the standardwebhooks library', async () => {
    const { saveWebhook, publishMenu, pass } = await service();
    const saved = await saveWebhook();
    expect(saved.status).toBe(201);
    await publishMenu();
    await pass();

    expect(received).toHaveLength(1);
    const { headers, body } = received[0]!;
    const event = await verifyWebhook(saved.body.data.secret, headers, body, {
      now: new Date(Number(headers['webhook-timestamp']) * 1000),
    });
    expect(event).toMatchObject({
      type: 'menu.published',
      timestamp: '2026-09-01T08:00:00.000Z',
      data: { added: [1], cause: 'upsert' },
    });
    // The library checks the timestamp against the real clock: this attempt was signed at the service's (fixed) one.
    expect(() => new StandardWebhook(saved.body.data.secret).verify(body, headers as Record<string, string>)).toThrow(
      /timestamp too old/,
    );
    const resigned = {
      ...(headers as Record<string, string>),
      'webhook-timestamp': String(Math.floor(Date.now() / 1000)),
    };
    expect(() => new StandardWebhook(saved.body.data.secret).verify(body, resigned)).toThrow(/No matching signature/);
  });

  it('sends the event again with the same webhook-id after a 500, when the retry falls due', async () => {
    const { server, saveWebhook, publishMenu, pass, deliveries, clock } = await service();
    await saveWebhook();
    answers = [500, 200];
    await publishMenu();
    await pass();

    const [failed] = await deliveries();
    expect(failed).toMatchObject({ state: 'pending', attempts: 1, last_status: 500, last_error: 'HTTP 500' });
    const retryAt = new Date(failed.next_attempt_at).getTime();
    // ±50 % jitter around the 30 s base.
    expect(retryAt - clock.now().getTime()).toBeGreaterThanOrEqual(15_000);
    expect(retryAt - clock.now().getTime()).toBeLessThanOrEqual(45_000);
    clock.set(retryAt - 1);
    await pass();
    expect(received).toHaveLength(1);

    clock.set(retryAt);
    await pass();
    expect(received.map(({ headers }) => headers['webhook-id'])).toEqual([failed.event_id, failed.event_id]);
    expect(await deliveries()).toMatchObject([
      { state: 'delivered', attempts: 2, last_status: 200, last_error: null, next_attempt_at: null },
    ]);
    const metrics = (await server.app.inject({ method: 'GET', url: '/metrics' })).body;
    expect(metrics).toContain('meals_webhook_attempts_total{result="delivered"} 1');
    expect(metrics).toContain('meals_webhook_attempts_total{result="failed"} 1');
    expect(metrics).toContain('meals_webhook_events_total 1');
  });

  it('times out a receiver that hangs (WEBHOOK_TIMEOUT_MS) and retries later', async () => {
    const { saveWebhook, publishMenu, pass, deliveries } = await service({ WEBHOOK_TIMEOUT_MS: '200' });
    await saveWebhook();
    answers = ['hang'];
    await publishMenu();
    await pass();

    expect(received).toHaveLength(1);
    expect(await deliveries()).toMatchObject([
      { state: 'pending', attempts: 1, last_status: null, last_error: 'no answer within 200 ms' },
    ]);
  });

  it('refuses a private URL without OUTBOUND_ALLOW_PRIVATE_NETWORKS, on saving and on sending', async () => {
    const strict = await service({ OUTBOUND_ALLOW_PRIVATE_NETWORKS: '0' });
    const refused = await strict.saveWebhook();
    expect(refused.status).toBe(400);
    expect(refused.body.error).toEqual({
      code: 'invalid_request',
      message: 'the url must reach a public address, not a loopback one (OUTBOUND_ALLOW_PRIVATE_NETWORKS=1 allows it)',
    });

    // A name is checked on the address each delivery connects to: saved where allowed, sent where not.
    const lenient = await service({ WEBHOOK_POLL_MS: '0' });
    expect((await lenient.saveWebhook(receiverUrl.replace('127.0.0.1', 'localhost'))).status).toBe(201);
    const sender = await service({ OUTBOUND_ALLOW_PRIVATE_NETWORKS: '0' }, lenient.server.persistence);
    await sender.publishMenu();
    const before = connections;
    await sender.pass();

    expect(connections).toBe(before);
    expect(await sender.deliveries()).toMatchObject([
      {
        state: 'pending',
        attempts: 1,
        last_status: null,
        last_error: 'the host is not on the public internet (OUTBOUND_ALLOW_PRIVATE_NETWORKS=1 allows it)',
      },
    ]);
  });

  it('disables an endpoint failing for 3 days and re-enables it with a PUT, driven by the clock', async () => {
    const { saveWebhook, publishMenu, pass, deliveries, clock, call } = await service();
    await saveWebhook();
    const failingSince = clock.now().getTime();
    answers = Array.from({ length: 100 }, () => 503);
    await publishMenu();
    await pass();
    clock.set(failingSince + 2 * day);
    await publishMenu();
    await pass();
    for (
      let round = 0;
      round < 100 && (await call('GET', '/api/v1/admin/webhooks/app')).body.data.enabled;
      round += 1
    ) {
      const due = (await deliveries())
        .filter((delivery) => delivery.state === 'pending')
        .map((delivery) => Date.parse(delivery.next_attempt_at));
      clock.set(Math.max(clock.now().getTime(), Math.min(...due)));
      await pass();
    }

    const disabled = (await call('GET', '/api/v1/admin/webhooks/app')).body.data;
    expect(disabled).toMatchObject({
      enabled: false,
      failing_since: new Date(failingSince).toISOString(),
      disabled_at: clock.now().toISOString(),
    });
    expect(clock.now().getTime() - failingSince).toBeGreaterThanOrEqual(3 * day);
    const attempts = received.length;
    clock.set(clock.now().getTime() + day);
    await pass();
    expect(received).toHaveLength(attempts);

    answers = [];
    const enabled = await saveWebhook();
    expect(enabled.body.data).toMatchObject({ enabled: true, failing_since: null, disabled_at: null });
    await pass();
    // The second event was still within its 3 days: it goes out now; the first was given up.
    expect(received).toHaveLength(attempts + 1);
    expect((await deliveries()).map((delivery) => delivery.state)).toEqual(['delivered', 'failed']);
  });
});
