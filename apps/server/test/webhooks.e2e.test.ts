import { signHmacToken } from '@canteen-meals/adapters-http';
import { verifyWebhook } from '@canteen-meals/client';
import { MealMother } from '@canteen-meals/repository-contract';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type ServerProcess } from './support/server-process.js';

// The outbox across a crash, with the real server process on SQLite: a change commits its event, the process is
// killed (SIGKILL) before delivering it, and the next start delivers it. Nothing in between is timed: the first
// process either has no delivery worker or cannot reach the receiver.
const secret = 'webhooks-e2e-secret-of-at-least-32-bytes!';
const admin = signHmacToken(secret, { sub: 'kitchen', scope: 'meals:write' });

interface Received {
  readonly headers: IncomingHttpHeaders;
  readonly body: string;
}

const folder = mkdtempSync(join(tmpdir(), 'meals-webhooks-'));
const running: ServerProcess[] = [];
const received: Received[] = [];
let waiting: { count: number; resolve: () => void } | null = null;
let receiver: Server;
let receiverPort: number;

/** Resolves once the receiver holds `count` deliveries. */
function deliveries(count: number): Promise<void> {
  if (received.length >= count) return Promise.resolve();
  return new Promise((resolve) => (waiting = { count, resolve }));
}

beforeAll(async () => {
  receiver = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      received.push({ headers: request.headers, body: Buffer.concat(chunks).toString('utf8') });
      response.writeHead(200).end();
      if (waiting !== null && received.length >= waiting.count) waiting.resolve();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  receiverPort = (receiver.address() as AddressInfo).port;
});
afterAll(async () => {
  await Promise.all(running.map((server) => server.stop('SIGKILL')));
  await new Promise((resolve) => receiver.close(resolve));
  rmSync(folder, { recursive: true, force: true });
});

async function start(database: string, env: Record<string, string>): Promise<ServerProcess> {
  const server = await startServer({
    NODE_ENV: 'production',
    JWT_SECRET: secret,
    DATABASE_URL: `sqlite:${join(folder, database)}`,
    DATABASE_CREATE: '1',
    OUTBOUND_ALLOW_PRIVATE_NETWORKS: '1',
    ...env,
  });
  running.push(server);
  return server;
}

async function put(server: ServerProcess, path: string, body: unknown) {
  const response = await fetch(`${server.url}${path}`, {
    method: 'PUT',
    headers: { authorization: `Bearer ${admin}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as any };
}

async function killed(server: ServerProcess): Promise<void> {
  expect(await server.stop('SIGKILL')).toBeNull();
}

describe('webhooks across a crash (SQLite, real server process)', () => {
  it('delivers an event committed by a process killed before it delivered anything, once, after the restart', async () => {
    received.length = 0;
    // No delivery worker in the first process: the event can only be in the outbox when it dies.
    const first = await start('outbox.db', { WEBHOOK_POLL_MS: '0' });
    const saved = await put(first, '/api/v1/admin/webhooks/app', {
      url: `http://127.0.0.1:${receiverPort}/hooks`,
      events: ['menu.published'],
    });
    expect(saved.status).toBe(201);
    const upserted = await put(
      first,
      '/api/v1/admin/meals',
      MealMother.upsertBody(MealMother.servedTomorrow(new Date(), { id: 1 })),
    );
    expect(upserted.status).toBe(200);
    await killed(first);
    expect(received).toHaveLength(0);

    const second = await start('outbox.db', { WEBHOOK_POLL_MS: '200' });
    await deliveries(1);

    const event = await verifyWebhook(saved.body.data.secret, received[0]!.headers, received[0]!.body);
    expect(event).toMatchObject({ type: 'menu.published', data: { added: [1], cause: 'upsert' } });
    const log = (await (
      await fetch(`${second.url}/api/v1/admin/webhooks/app/deliveries`, {
        headers: { authorization: `Bearer ${admin}` },
      })
    ).json()) as any;
    expect(log.data.deliveries).toMatchObject([{ event_id: event.id, state: 'delivered', attempts: 1 }]);
    // Delivered is final: nothing claims it again.
    expect(received).toHaveLength(1);
    await second.stop();
  }, 60_000);

  it('delivers, after the restart, a delivery whose first attempt failed before the kill, with the same webhook-id', async () => {
    received.length = 0;
    // The first process sends to a port nobody listens on; the endpoint is then pointed at the receiver.
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const deadPort = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    // A retry base of 3 s: the failed attempt's retry is not due before the kill, so no attempt of the first process
    // holds a lease (WEBHOOK_TIMEOUT_MS + 60 s) that the second would have to wait out.
    const first = await start('retry.db', { WEBHOOK_POLL_MS: '200', WEBHOOK_RETRY_BASE_MS: '3000' });
    await put(first, '/api/v1/admin/webhooks/app', {
      url: `http://127.0.0.1:${deadPort}/hooks`,
      events: ['menu.published'],
    });
    await put(first, '/api/v1/admin/meals', MealMother.upsertBody(MealMother.servedTomorrow(new Date(), { id: 1 })));
    // Wait for the first failed attempt in the log, then kill.
    let log: any[] = [];
    for (let poll = 0; poll < 200 && !log.some((delivery) => delivery.attempts > 0); poll += 1) {
      const answer = await fetch(`${first.url}/api/v1/admin/webhooks/app/deliveries`, {
        headers: { authorization: `Bearer ${admin}` },
      });
      log = ((await answer.json()) as any).data.deliveries;
      if (!log.some((delivery) => delivery.attempts > 0)) await new Promise((resolve) => setImmediate(resolve));
    }
    expect(log).toMatchObject([{ state: 'pending', last_error: 'connection refused' }]);
    await killed(first);

    const second = await start('retry.db', { WEBHOOK_POLL_MS: '200', WEBHOOK_RETRY_BASE_MS: '1' });
    // A PUT keeps the secret, points the endpoint at the receiver and enables it again.
    await put(second, '/api/v1/admin/webhooks/app', {
      url: `http://127.0.0.1:${receiverPort}/hooks`,
      events: ['menu.published'],
    });
    await deliveries(1);

    expect(received[0]!.headers['webhook-id']).toBe(log[0].event_id);
    await second.stop();
  }, 60_000);
});
