import { FixedClock } from '@canteen-meals/adapters-memory';
import { signHmacToken } from '@canteen-meals/adapters-http';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type ServerResponse, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { UseCases } from '@canteen-meals/domain';
import { buildServer, tokens, type Overrides } from '../src/composition-root.js';
import { loadConfig } from '../src/config.js';

// A hostile feed (deep XML, a reading that never ends, a run that kills the process) must not take the
// service down. A real local feed server, the real app; the feed is read in its thread (`tsc -b` builds it).
const realFeed = readFileSync(
  fileURLToPath(
    new URL('../../../packages/adapters-openmensa/test/fixtures/heidelberg-triplex-feed.xml', import.meta.url),
  ),
  'utf8',
);
const deepFeed = `<?xml version="1.0"?>\n<openmensa version="2.1" xmlns="http://openmensa.org/open-mensa-v2">${'<a>'.repeat(400_000)}${'</a>'.repeat(400_000)}</openmensa>`;
const secret = 'hostile-feeds-test-secret-of-32-bytes!!';
const admin = signHmacToken(secret, { sub: 'kitchen', scope: 'meals:write' });

/**
 * 10 000 meals (the most a feed may list), 500 a day from 2026-07-31 on: the first day's meals can be rated at once.
 */
const largeFeed = (() => {
  const meals = Array.from(
    { length: 500 },
    (_, i) => `<meal><name>Meal ${i}</name><price role="student">2.50</price></meal>`,
  ).join('');
  const day = (index: number) =>
    `<day date="${new Date(Date.UTC(2026, 6, 31 + index)).toISOString().slice(0, 10)}"><category name="Hauptgerichte">${meals}</category></day>`;
  const days = Array.from({ length: 20 }, (_, index) => day(index)).join('');
  return `<?xml version="1.0" encoding="UTF-8"?>\n<openmensa version="2.1" xmlns="http://openmensa.org/open-mensa-v2"><canteen>${days}</canteen></openmensa>\n`;
})();

let served: { body: string } | 'hang' = { body: realFeed };
const requests: string[] = [];
const hanging: ServerResponse[] = [];
let feedServer: Server;
let feedUrl: string;

beforeAll(async () => {
  feedServer = createServer((request, response) => {
    requests.push(request.url ?? '');
    if (served === 'hang') return void hanging.push(response);
    response.writeHead(200, { 'content-type': 'application/xml' }).end(served.body);
  });
  await new Promise<void>((resolve) => feedServer.listen(0, '127.0.0.1', resolve));
  feedUrl = `http://127.0.0.1:${(feedServer.address() as AddressInfo).port}/feed.xml`;
});
afterAll(() => new Promise((resolve) => feedServer.close(resolve)));

const closers: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const response of hanging.splice(0)) response.destroy();
  while (closers.length > 0) await closers.pop()!();
  served = { body: realFeed };
  requests.length = 0;
});

async function service({
  databaseUrl = 'memory:',
  clock = new FixedClock('2026-08-01T04:00:00Z'),
  ...overrides
}: Overrides & { databaseUrl?: string; clock?: FixedClock } = {}) {
  const config = loadConfig({
    JWT_SECRET: secret,
    DATABASE_URL: databaseUrl,
    LOG_LEVEL: 'silent',
    OUTBOUND_ALLOW_PRIVATE_NETWORKS: '1',
    FEED_RETRY_BASE_MS: '0',
    FEED_CHECK_INTERVAL_S: '0',
  });
  const server = await buildServer(config, { clock, ...overrides });
  closers.push(() => server.app.close());
  const call = async (method: 'GET' | 'PUT' | 'POST', url: string, body?: unknown) => {
    const response = await server.app.inject({
      method,
      url,
      headers: {
        authorization: `Bearer ${admin}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(body === undefined ? {} : { payload: JSON.stringify(body) }),
    });
    return { status: response.statusCode, body: response.json() };
  };
  const createCanteen = () =>
    call('PUT', '/api/v1/admin/canteens/triplex', {
      name: 'Triplex-Mensa',
      timezone: 'Europe/Berlin',
      feeds: [{ name: 'full', url: feedUrl, schedule: '0 6 * * *' }],
    });
  const fetchNow = () => call('POST', '/api/v1/admin/canteens/triplex/feeds/full/fetch');
  const feeds = async () =>
    (await call('GET', '/api/v1/admin/canteens/triplex/feeds')).body.data.feeds as Record<string, unknown>[];
  const menu = async () =>
    (await call('GET', '/api/v1/meals?canteen=triplex&from=2026-08-03&to=2026-08-09')).body.data.meals as unknown[];
  return { server, clock, call, createCanteen, fetchNow, feeds, menu };
}

describe('hostile feeds', () => {
  it('refuses a feed nested 400 000 deep with the depth error, keeping the menu; the service answers on', async () => {
    const { server, createCanteen, fetchNow, menu } = await service();
    await createCanteen();
    served = { body: deepFeed };
    const run = await fetchNow();
    expect(run.body.data).toMatchObject({
      outcome: 'failed',
      last_error: expect.stringContaining('elements are nested more than 32 deep'),
    });
    expect(await menu()).toEqual([]);
    expect((await server.app.inject({ method: 'GET', url: '/healthz' })).statusCode).toBe(200);
  });

  it('ends a feed reading that outlives its budget and records the run as failed, saying why', async () => {
    const { createCanteen, fetchNow, feeds, menu } = await service({ feedReadingBudget: { timeMs: 1, heapMb: 256 } });
    await createCanteen();
    const run = await fetchNow();
    expect(run.body.data).toMatchObject({
      outcome: 'failed',
      last_error: 'reading the feed took longer than 1 ms: stopped, nothing imported',
    });
    expect((await feeds())[0]).toMatchObject({
      outcome: 'failed',
      last_error: 'reading the feed took longer than 1 ms: stopped, nothing imported',
    });
    expect(await menu()).toEqual([]);
  });

  it("answers a rating between the units of a 10 000-meal feed's import, which no longer holds the event loop whole", async () => {
    const folder = mkdtempSync(join(tmpdir(), 'hostile-feeds-'));
    closers.push(async () => rmSync(folder, { recursive: true, force: true }));
    const { server, createCanteen, fetchNow } = await service({
      databaseUrl: `sqlite:${join(folder, 'meals.db')}`,
      feedReadingBudget: { timeMs: 120_000, heapMb: 512 },
    });
    await createCanteen();
    served = { body: largeFeed };
    const events: string[] = [];
    let rating: Promise<unknown> | undefined;
    // Each unit of the import announces its committed days; at the first, a student rates one of its meals.
    server.container.resolve<UseCases>(tokens.useCases).menuChanges.subscribe(() => {
      events.push('unit written');
      rating ??= server.app
        .inject({
          method: 'POST',
          url: '/api/v1/rate-meal',
          headers: {
            authorization: `Bearer ${signHmacToken(secret, { sub: 'student' })}`,
            'content-type': 'application/json',
          },
          payload: JSON.stringify({ meal_id: 1, rating: 4 }),
        })
        .then((response) => events.push(`rating answered ${response.statusCode}`));
    });

    const run = await fetchNow();
    await rating;

    expect(run.body.data).toMatchObject({ outcome: 'imported', counts: { added: 10_000 } });
    const answered = events.indexOf('rating answered 200');
    expect(answered).toBeGreaterThan(0);
    // Answered while the import still had units to write (before: one transaction, announced once at its end).
    expect(events.slice(answered).filter((event) => event === 'unit written').length).toBeGreaterThan(0);
  });

  it('stores the attempt before the fetch: after a restart, a feed whose run never finished waits for its next due time', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'hostile-feeds-'));
    closers.push(async () => rmSync(folder, { recursive: true, force: true }));
    const databaseUrl = `sqlite:${join(folder, 'meals.db')}`;
    const before = await service({ databaseUrl });
    await before.createCanteen();
    served = 'hang'; // the run never finishes, as one whose process died part-way
    const dying = before.fetchNow().catch(() => undefined);
    closers.push(() => dying);
    while (requests.length === 0) await new Promise((resolve) => setTimeout(resolve, 5));

    // The restarted instance, a minute later, on the same file.
    served = { body: realFeed };
    const after = await service({ databaseUrl, clock: new FixedClock('2026-08-01T04:01:00Z') });
    await after.server.scheduler.tick();
    expect(requests).toHaveLength(1);
    expect((await after.feeds())[0]).toMatchObject({
      last_attempt_at: '2026-08-01T04:00:00.000Z',
      outcome: null,
      next_run_at: '2026-08-02T04:00:00.000Z',
    });

    after.clock.set('2026-08-02T04:00:00Z'); // 06:00 in Berlin: due
    await after.server.scheduler.tick();
    expect(requests).toHaveLength(2);
    expect((await after.feeds())[0]).toMatchObject({
      outcome: 'imported',
      last_attempt_at: '2026-08-02T04:00:00.000Z',
    });
  });
});
