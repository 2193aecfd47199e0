import { FixedClock } from '@canteen-meals/adapters-memory';
import { signHmacToken } from '@canteen-meals/adapters-http';
import { MealMother } from '@canteen-meals/repository-contract';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { buildServer } from '../src/composition-root.js';
import { loadConfig } from '../src/config.js';

// Two real receivers on 127.0.0.1, one that never answers and one that answers at once, fed by the whole service:
// the healthy one's deliveries must not wait behind the hanging one's. Everything is asserted by what the
// receivers saw and in which order; the clock the service reads is the test's.
const secret = 'webhook-fairness-test-secret-of-32-bytes';
const admin = signHmacToken(secret, { sub: 'kitchen', scope: 'meals:write' });

interface Receiver {
  readonly url: string;
  /** Requests received so far (answered or not). */
  readonly received: string[];
  /** Requests held open, not answered yet. */
  readonly open: ServerResponse[];
  /** Resolves once `test` holds for what the receiver saw; checked on every request. */
  until(test: () => boolean): Promise<void>;
  close(): Promise<void>;
}

async function receiver(answer: 'hang' | 200): Promise<Receiver> {
  const received: string[] = [];
  const open: ServerResponse[] = [];
  const waiting: { test: () => boolean; resolve: () => void }[] = [];
  const server: Server = createServer((request: IncomingMessage, response: ServerResponse) => {
    request.resume();
    request.on('end', () => {
      received.push(String(request.headers['webhook-id']));
      if (answer === 'hang') open.push(response);
      else response.writeHead(200).end();
      for (const waiter of waiting.filter((candidate) => candidate.test())) {
        waiting.splice(waiting.indexOf(waiter), 1);
        waiter.resolve();
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`,
    received,
    open,
    until: (test) => (test() ? Promise.resolve() : new Promise((resolve) => waiting.push({ test, resolve }))),
    close: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

const closers: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  while (closers.length > 0) await closers.pop()!();
});

async function service(env: Record<string, string>) {
  const clock = new FixedClock('2026-09-01T08:00:00Z');
  const config = loadConfig({
    JWT_SECRET: secret,
    DATABASE_URL: 'memory:',
    LOG_LEVEL: 'silent',
    OUTBOUND_ALLOW_PRIVATE_NETWORKS: '1',
    FEED_CHECK_INTERVAL_S: '0',
    RATE_LIMIT_USER_PER_MIN: '0',
    WEBHOOK_POLL_MS: '3600000',
    ...env,
  });
  const server = await buildServer(config, { clock });
  closers.push(() => server.app.close());
  const put = async (url: string, body: unknown) =>
    (
      await server.app.inject({
        method: 'PUT',
        url,
        headers: { authorization: `Bearer ${admin}`, 'content-type': 'application/json' },
        payload: JSON.stringify(body),
      })
    ).statusCode;
  let mealId = 0;
  return {
    clock,
    saveWebhook: (id: string, url: string) => put(`/api/v1/admin/webhooks/${id}`, { url, events: ['menu.published'] }),
    /** One `menu.published` event: one delivery to each endpoint. */
    publishMenu: () =>
      put('/api/v1/admin/meals', MealMother.upsertBody(MealMother.servedTomorrow(clock.now(), { id: ++mealId }))),
    pass: () => server.webhookWorker!.runNow(),
  };
}

describe('webhook delivery with one receiver that hangs', () => {
  it('delivers every event to the healthy receiver while the hanging one holds no more than its 2 attempts', async () => {
    const hanging = await receiver('hang');
    const healthy = await receiver(200);
    closers.push(hanging.close, healthy.close);
    const { saveWebhook, publishMenu, pass } = await service({ WEBHOOK_MAX_IN_FLIGHT_PER_ENDPOINT: '2' });
    // The hanging endpoint first: its deliveries are the older ones of each event.
    expect(await saveWebhook('hanging', hanging.url)).toBe(201);
    expect(await saveWebhook('healthy', healthy.url)).toBe(201);
    for (let event = 0; event < 20; event += 1) expect(await publishMenu()).toBe(200);

    const delivering = pass();
    // Whichever comes first: every event at the healthy receiver, or a third attempt held by the hanging one.
    await Promise.race([
      healthy.until(() => healthy.received.length === 20),
      hanging.until(() => hanging.received.length > 2),
    ]);

    expect(hanging.received).toHaveLength(2);
    expect(healthy.received).toHaveLength(20);
    expect(new Set(healthy.received).size).toBe(20);
    // Once it answers, its slots are free again: the rest of its deliveries follow, never more than 2 at once.
    while (hanging.received.length < 20) {
      expect(hanging.open).toHaveLength(2);
      const answered = hanging.open.splice(0);
      const seen = hanging.received.length;
      for (const response of answered) response.writeHead(200).end();
      await hanging.until(() => hanging.received.length >= Math.min(20, seen + 2));
    }
    for (const response of hanging.open.splice(0)) response.writeHead(200).end();
    await delivering;
    expect(new Set(hanging.received).size).toBe(20);
  });

  it('backs off the endpoint that timed out: no request to it until the backoff ends by the clock, while the other is served', async () => {
    const hanging = await receiver('hang');
    const healthy = await receiver(200);
    closers.push(hanging.close, healthy.close);
    const { saveWebhook, publishMenu, pass, clock } = await service({
      WEBHOOK_MAX_IN_FLIGHT_PER_ENDPOINT: '2',
      WEBHOOK_TIMEOUT_MS: '200',
      WEBHOOK_TIMEOUT_BACKOFF_MS: '60000',
      // Retries of the timed-out ones come after the backoff: only the backoff decides when `hanging` is tried again.
      WEBHOOK_RETRY_BASE_MS: '600000',
    });
    await saveWebhook('hanging', hanging.url);
    await saveWebhook('healthy', healthy.url);
    for (let event = 0; event < 5; event += 1) await publishMenu();

    await pass();
    expect(hanging.received).toHaveLength(2);
    expect(healthy.received).toHaveLength(5);

    // 3 of its deliveries are due, but it is backed off: another event reaches the healthy receiver only.
    await publishMenu();
    await pass();
    expect(healthy.received).toHaveLength(6);
    expect(hanging.received).toHaveLength(2);

    clock.advance(60_000 - 1);
    await pass();
    expect(hanging.received).toHaveLength(2);
    clock.advance(1);
    await pass();
    expect(hanging.received).toHaveLength(4);
  });
});
