import { FixedClock } from '@canteen-meals/adapters-memory';
import { signHmacToken } from '@canteen-meals/adapters-http';
import { verifyWebhook } from '@canteen-meals/client';
import { MealMother } from '@canteen-meals/repository-contract';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildServer } from '../../src/composition-root.js';
import { loadConfig } from '../../src/config.js';

const secret = 'availability-scenario-secret-of-32-bytes!';
const admin = signHmacToken(secret, { sub: 'admin', scope: 'meals:write', expiresInMs: 3_600_000 });
const kitchen = signHmacToken(secret, { sub: 'kitchen', scope: 'meals:kitchen', expiresInMs: 3_600_000 });
/** Tuesday 2026-03-10, 11:40 in Berlin: meal 1 is served today at 12:30. */
const now = new Date('2026-03-10T10:40:00.000Z');
const publicMenu = '/api/v1/meals?canteen=default&date=2026-03-10';

/** One server-sent event as a client reads it off the wire. */
interface SseEvent {
  readonly event: string;
  readonly id: string;
  readonly data: any;
}

/** Reads events from a fetch response's body, one at a time, as they arrive. */
function sseReader(body: ReadableStream<Uint8Array>) {
  const reader = body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  return async function next(): Promise<SseEvent> {
    for (;;) {
      const end = buffer.indexOf('\n\n');
      if (end !== -1) {
        const block = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        if (block.startsWith(':')) continue;
        const field = (name: string) => [...block.matchAll(/^(\w+): (.*)$/gm)].find((match) => match[1] === name)?.[2];
        return { event: field('event') ?? 'message', id: field('id') ?? '', data: JSON.parse(field('data') ?? 'null') };
      }
      const { value, done } = await reader.read();
      if (done) throw new Error('the stream ended');
      buffer += value;
    }
  };
}

/**
 * The kitchen's availability through the whole service on one database: the real app listening on a port, Node's
 * fetch as the clients (a live stream, the public menu with its ETag), a real webhook receiver verified with the
 * client's helper, the ratings report and the metrics. With `instances: 2` (PostgreSQL), the kitchen writes through
 * the first instance and the live stream and the menu are read from the second, which hears of it through the relay.
 */
export function describeAvailabilityThroughTheService(
  storage: string,
  databaseUrl: () => string,
  { instances = 1 } = {},
): void {
  describe(`a serving's availability through the service on ${storage}${instances > 1 ? `, ${instances} instances` : ''}`, () => {
    const received: { headers: IncomingHttpHeaders; body: string }[] = [];
    let receiver: Server;
    const servers: Awaited<ReturnType<typeof buildServer>>[] = [];
    const bases: string[] = [];
    /** Where the kitchen and the admin write, and where the readers read (the same server with one instance). */
    let base: string;
    let readerBase: string;

    beforeAll(async () => {
      receiver = createServer((request, response) => {
        const chunks: Buffer[] = [];
        request.on('data', (chunk: Buffer) => chunks.push(chunk));
        request.on('end', () => {
          received.push({ headers: request.headers, body: Buffer.concat(chunks).toString('utf8') });
          response.writeHead(204).end();
        });
      });
      await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
      const config = loadConfig({
        DATABASE_URL: databaseUrl(),
        JWT_SECRET: secret,
        LOG_LEVEL: 'silent',
        TZ_NAME: 'Europe/Berlin',
        POSTGRES_POOL_SIZE: '3',
        OUTBOUND_ALLOW_PRIVATE_NETWORKS: '1',
        FEED_CHECK_INTERVAL_S: '0',
        RATE_LIMIT_USER_PER_MIN: '0',
        RATE_LIMIT_IP_PER_MIN: '0',
        // Passes come from the test; the poll would come in an hour.
        WEBHOOK_POLL_MS: '3600000',
      });
      for (let i = 0; i < instances; i++) {
        const server = await buildServer(config, { clock: new FixedClock(now) });
        servers.push(server);
        await server.changeRelay?.ready;
        await server.app.listen({ port: 0, host: '127.0.0.1' });
        bases.push(`http://127.0.0.1:${(server.app.server.address() as AddressInfo).port}`);
      }
      base = bases[0]!;
      readerBase = bases.at(-1)!;
      const hook = await call('PUT', '/api/v1/admin/webhooks/kitchen-screen', admin, {
        url: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`,
        events: ['meal.availability_changed'],
        secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
      });
      expect(hook.status, JSON.stringify(hook.body)).toBe(201);
      const upsert = await call(
        'PUT',
        '/api/v1/admin/meals',
        admin,
        MealMother.upsertBody(MealMother.servedAt(new Date('2026-03-10T11:30:00.000Z'), { id: 1, name: 'Pho' })),
      );
      expect(upsert.status, JSON.stringify(upsert.body)).toBe(200);
    });
    afterAll(async () => {
      for (const server of servers) {
        await server.app.close();
        await server.persistence.close();
      }
      receiver.closeAllConnections();
      await new Promise((resolve) => receiver.close(resolve));
    });

    async function call(
      method: 'GET' | 'PUT',
      path: string,
      token: string | null,
      body?: unknown,
      headers: Record<string, string> = {},
      at = base,
    ) {
      const response = await fetch(`${at}${path}`, {
        method,
        headers: {
          ...headers,
          ...(token === null ? {} : { authorization: `Bearer ${token}` }),
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      const text = await response.text();
      return {
        status: response.status,
        headers: response.headers,
        text,
        body: text === '' || !response.headers.get('content-type')?.includes('json') ? null : JSON.parse(text),
      };
    }
    const scrape = async () => (await call('GET', '/metrics', null)).text;
    const soldOutCount = (exposition: string) =>
      Number(/^meals_availability_changes_total\{status="sold_out"\} (\d+)$/m.exec(exposition)?.[1] ?? 0);

    it('shows sold out on the live stream, the public menu (a new ETag), the webhook, the report and the metrics; the same status again nowhere', async () => {
      const controller = new AbortController();
      const live = await fetch(`${readerBase}/api/v1/live?canteen=default&date=2026-03-10`, {
        signal: controller.signal,
      });
      expect(live.status).toBe(200);
      const next = sseReader(live.body!);
      expect((await next()).data.meals).toMatchObject([
        { meal_id: 1, availability: 'available', availability_changed_at: null },
      ]);
      const before = await call('GET', publicMenu, null, undefined, {}, readerBase);
      const etag = before.headers.get('etag')!;

      const changed = await call('PUT', '/api/v1/kitchen/meals/1/availability', kitchen, { status: 'sold_out' });

      const soldOut = { meal_id: 1, availability: 'sold_out', availability_changed_at: now.toISOString() };
      expect(changed.body).toEqual({ status: 'success', data: soldOut });
      expect(await next()).toMatchObject({ event: 'availability', data: soldOut });
      controller.abort();
      const after = await call('GET', publicMenu, null, undefined, { 'if-none-match': etag }, readerBase);
      expect(after.status).toBe(200);
      expect(after.headers.get('etag')).not.toBe(etag);
      expect(after.body.data.meals[0]).toMatchObject(soldOut);

      await servers[0]!.webhookWorker!.runNow();
      expect(received).toHaveLength(1);
      const { headers, body } = received[0]!;
      const event = await verifyWebhook('whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw', headers, body, { now });
      expect(event).toEqual({
        id: expect.stringMatching(/^evt_/),
        type: 'meal.availability_changed',
        timestamp: now.toISOString(),
        data: { ...soldOut, canteen_id: 'default', date: '2026-03-10' },
      });

      const report = await call(
        'GET',
        '/api/v1/admin/reports/ratings.csv?canteen=default&from=2026-03-10&to=2026-03-10',
        admin,
      );
      const [header, row] = report.text.replace(/^\uFEFF/, '').split('\r\n');
      expect(header!.split(',').at(-1)).toBe('sold_out_at');
      expect(row!.split(',').at(-1)).toBe(now.toISOString());
      expect(soldOutCount(await scrape())).toBe(1);

      // Again: the same answer, and no event, webhook or count.
      expect((await call('PUT', '/api/v1/kitchen/meals/1/availability', kitchen, { status: 'sold_out' })).body).toEqual(
        { status: 'success', data: soldOut },
      );
      await servers[0]!.webhookWorker!.runNow();
      expect(received).toHaveLength(1);
      expect(soldOutCount(await scrape())).toBe(1);
    });
  });
}
