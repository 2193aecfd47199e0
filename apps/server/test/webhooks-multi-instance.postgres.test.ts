import { signHmacToken } from '@canteen-meals/adapters-http';
import { MealMother } from '@canteen-meals/repository-contract';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databasePerFile } from '../../../packages/adapters-postgres/test/support/test-database.js';
import { startServer, type ServerProcess } from './support/server-process.js';

// Two server processes on one PostgreSQL database, both delivering webhooks (every 100 ms and after their own
// changes), while menu changes arrive through both: each event reaches each endpoint exactly once.
const secret = 'webhooks-multi-instance-secret-of-32-bytes';
const admin = signHmacToken(secret, { sub: 'kitchen', scope: 'meals:write' });
const databaseUrl = databasePerFile();
const instances: ServerProcess[] = [];
const changes = 40;
const endpoints = ['a', 'b'];

/** `<endpoint> <webhook-id>` of every delivery received. */
const received: string[] = [];
let allArrived: () => void;
const arrived = new Promise<void>((resolve) => (allArrived = resolve));
let receiver: Server;
let receiverPort: number;

beforeAll(async () => {
  receiver = createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      received.push(`${request.url?.slice(1)} ${String(request.headers['webhook-id'])}`);
      // A little later than at once, so that the instances' attempts overlap.
      setImmediate(() => response.writeHead(200).end());
      if (received.length === changes * endpoints.length) allArrived();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  receiverPort = (receiver.address() as AddressInfo).port;
  const env = {
    NODE_ENV: 'production',
    JWT_SECRET: secret,
    DATABASE_URL: databaseUrl(),
    POSTGRES_POOL_SIZE: '5',
    RATE_LIMIT_USER_PER_MIN: '0',
    OUTBOUND_ALLOW_PRIVATE_NETWORKS: '1',
    WEBHOOK_POLL_MS: '100',
  };
  instances.push(...(await Promise.all([startServer(env), startServer(env)])));
});
afterAll(async () => {
  await Promise.all(instances.map((server) => server.stop('SIGKILL')));
  await new Promise((resolve) => receiver.close(resolve));
});

async function call(server: ServerProcess, method: 'GET' | 'PUT', path: string, body?: unknown) {
  const response = await fetch(`${server.url}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${admin}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: response.status, body: (await response.json()) as any };
}

describe('webhooks from several instances on one PostgreSQL', () => {
  it('deliver every event to every endpoint exactly once', { timeout: 60_000 }, async () => {
    for (const endpoint of endpoints) {
      const saved = await call(instances[0]!, 'PUT', `/api/v1/admin/webhooks/${endpoint}`, {
        url: `http://127.0.0.1:${receiverPort}/${endpoint}`,
        events: ['menu.published'],
      });
      expect(saved.status).toBe(201);
    }

    // Each change is one upsert of a new meal, through both instances at once.
    const now = new Date();
    await Promise.all(
      Array.from({ length: changes }, async (_, index) => {
        const server = instances[index % instances.length]!;
        const upserted = await call(
          server,
          'PUT',
          '/api/v1/admin/meals',
          MealMother.upsertBody(MealMother.servedTomorrow(now, { id: index + 1 })),
        );
        expect(upserted.status).toBe(200);
      }),
    );
    await arrived;

    const perDelivery = new Map<string, number>();
    for (const key of received) perDelivery.set(key, (perDelivery.get(key) ?? 0) + 1);
    expect(perDelivery.size).toBe(changes * endpoints.length);
    expect([...perDelivery.values()].filter((count) => count !== 1)).toEqual([]);
    // The log agrees, whichever instance is asked: each delivered at its first attempt (a second claim would count a
    // second attempt), the same event ids to both endpoints.
    for (const [index, endpoint] of endpoints.entries()) {
      // The last attempts are recorded once their answers are back: ask until none is under way (each ask is a round
      // trip).
      let log: { state: string; attempts: number }[] = [];
      for (
        let ask = 0;
        ask < 500 && (log.length < changes || log.some((delivery) => delivery.attempts === 0));
        ask += 1
      ) {
        log = (await call(instances[index]!, 'GET', `/api/v1/admin/webhooks/${endpoint}/deliveries?limit=100`)).body
          .data.deliveries;
      }
      expect(log).toHaveLength(changes);
      expect(log.filter((delivery) => delivery.state !== 'delivered' || delivery.attempts !== 1)).toEqual([]);
    }
    const idsOf = (endpoint: string) =>
      received
        .filter((key) => key.startsWith(`${endpoint} `))
        .map((key) => key.split(' ')[1])
        .sort();
    expect(idsOf('a')).toEqual(idsOf('b'));
  });
});
