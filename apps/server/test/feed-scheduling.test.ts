import { FixedClock } from '@canteen-meals/adapters-memory';
import { signHmacToken } from '@canteen-meals/adapters-http';
import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { buildServer } from '../src/composition-root.js';
import { loadConfig } from '../src/config.js';

// Feeds that cannot hold up the service and that recover, with the real app, real local feed
// servers and a clock the test moves. Nothing sleeps: the tests wait for events (a request arrived, a feed ran).
const realFeed = readFileSync(
  fileURLToPath(
    new URL('../../../packages/adapters-openmensa/test/fixtures/heidelberg-triplex-feed.xml', import.meta.url),
  ),
  'utf8',
);
const secret = 'feed-scheduling-test-secret-of-32-bytes!';
const admin = signHmacToken(secret, { sub: 'kitchen', scope: 'meals:write' });

type Handler = (request: IncomingMessage, response: ServerResponse) => void;

interface FeedServer {
  readonly url: (path: string) => string;
  readonly requests: IncomingMessage[];
  /** Resolves at the next request that reaches the server. */
  readonly nextRequest: () => Promise<IncomingMessage>;
}

const closers: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  while (closers.length > 0) await closers.pop()!();
});

async function feedServer(handler: Handler, host = '127.0.0.1'): Promise<FeedServer> {
  const requests: IncomingMessage[] = [];
  let waiting: ((request: IncomingMessage) => void)[] = [];
  const server: Server = createServer((request, response) => {
    requests.push(request);
    for (const resolve of waiting) resolve(request);
    waiting = [];
    handler(request, response);
  });
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  closers.push(
    () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(resolve);
      }),
  );
  const { port } = server.address() as AddressInfo;
  return {
    url: (path) => `http://${host}:${port}${path}`,
    requests,
    nextRequest: () => new Promise((resolve) => waiting.push(resolve)),
  };
}

const serving =
  (body: string, status = 200): Handler =>
  (_, response) =>
    void response.writeHead(status, { 'content-type': 'application/xml', etag: '"v1"' }).end(body);
/** Holds every request open: a feed host that hangs. */
const hanging: Handler = () => {};

async function service(env: Record<string, string> = {}) {
  const clock = new FixedClock('2026-08-01T04:00:00Z');
  const written: string[] = [];
  /** Checked at every log write: what `ran` waits for. */
  const watchers = new Set<() => void>();
  const config = loadConfig({
    JWT_SECRET: secret,
    DATABASE_URL: 'memory:',
    LOG_LEVEL: 'info',
    OUTBOUND_ALLOW_PRIVATE_NETWORKS: '1',
    FEED_RETRY_BASE_MS: '0',
    FEED_CHECK_INTERVAL_S: '0',
    ...env,
  });
  const logDestination = {
    write: (line: string) => {
      written.push(line);
      for (const watch of watchers) watch();
    },
  };
  const server = await buildServer(config, { clock, logDestination });
  let closed = false;
  closers.push(async () => closed || (await server.app.close()));
  const close = async () => {
    closed = true;
    await server.app.close();
  };
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
    return { status: response.statusCode, body: response.json(), text: response.body };
  };
  const putCanteen = (id: string, feeds: { name: string; url: string; schedule?: string }[]) =>
    call('PUT', `/api/v1/admin/canteens/${id}`, {
      name: `Mensa ${id}`,
      timezone: 'Europe/Berlin',
      feeds: feeds.map((feed) => ({ schedule: '0 6 * * *', ...feed })),
    });
  const feeds = async (id: string) =>
    (await call('GET', `/api/v1/admin/canteens/${id}/feeds`)).body.data.feeds as Record<string, unknown>[];
  const feedLines = () =>
    written
      .join('')
      .split('\n')
      .filter((line) => line.includes('"feed fetched"'));
  /** Resolves when the log says that the feed ran (every outcome is logged once it is saved). */
  const ran = (canteen: string, feed: string) =>
    new Promise<Record<string, unknown>>((resolve) => {
      const look = () => {
        const line = feedLines()
          .map((text) => JSON.parse(text) as Record<string, unknown>)
          .find((entry) => entry.canteen === canteen && entry.feed === feed);
        if (line === undefined) return;
        watchers.delete(look);
        resolve(line);
      };
      watchers.add(look);
      look();
    });
  return { server, clock, call, putCanteen, feeds, feedLines, ran, close };
}

describe('one hanging feed host does not hold up the others', () => {
  it("fetches another canteen's feed while a host hangs, one request at a time per host, until the run's deadline", async () => {
    const stuck = await feedServer(hanging, '127.0.0.2');
    const fine = await feedServer(serving(realFeed));
    const { server, putCanteen, feeds, ran } = await service();
    // The hanging canteen comes first: a run one feed after another would not reach the other before it gave up.
    expect(
      (
        await putCanteen('aaa', [
          { name: 'full', url: stuck.url('/full.xml') },
          { name: 'today', url: stuck.url('/today.xml') },
        ])
      ).status,
    ).toBe(201);
    expect((await putCanteen('zzz', [{ name: 'full', url: fine.url('/full.xml') }])).status).toBe(201);

    const firstHang = stuck.nextRequest();
    const tick = server.scheduler.tick();
    await firstHang;
    expect(await ran('zzz', 'full')).toMatchObject({ outcome: 'imported' });
    // The hanging host's second feed waits for its slot.
    expect(stuck.requests.map((request) => request.url)).toEqual(['/full.xml']);

    await server.scheduler.stop(); // ends the run as its deadline would
    await tick;
    expect((await feeds('aaa')).map((feed) => [feed.name, feed.outcome, feed.last_error])).toEqual([
      ['full', 'failed', `${stuck.url('/full.xml')}: the scheduled run's deadline passed`],
      ['today', null, null], // not started: due at the next check
    ]);
  });

  it('ends a scheduled fetch at the first tick FEED_RUN_DEADLINE_S after its start, on the clock', async () => {
    const stuck = await feedServer(hanging);
    const { server, clock, putCanteen, feeds } = await service({ FEED_RUN_DEADLINE_S: '60' });
    await putCanteen('aaa', [{ name: 'full', url: stuck.url('/full.xml') }]);
    const arrived = stuck.nextRequest();
    const first = server.scheduler.tick();
    await arrived;
    clock.advance(59_999);
    await server.scheduler.tick();
    expect((await feeds('aaa'))[0]).toMatchObject({ outcome: null });
    clock.advance(1);
    await server.scheduler.tick();
    await first; // answers once the deadline ended the hanging fetch
    expect((await feeds('aaa'))[0]).toMatchObject({
      outcome: 'failed',
      last_error: `${stuck.url('/full.xml')}: the scheduled run's deadline passed`,
    });
    expect(stuck.requests).toHaveLength(1);
  });
});

describe('a tick never waits on a hanging host (issue 39)', () => {
  it('fetches a canteen created while three feeds of a host hang at the next tick, and starts none of them twice', async () => {
    const stuck = await feedServer(hanging, '127.0.0.2');
    const fine = await feedServer(serving(realFeed));
    const { server, clock, putCanteen, feeds } = await service({ FEED_CONCURRENCY_PER_HOST: '3' });
    const hangingFeeds = ['one', 'two', 'three'].map((name) => ({ name, url: stuck.url(`/${name}.xml`) }));
    expect((await putCanteen('aaa', hangingFeeds)).status).toBe(201);
    const allHang = new Promise<void>((resolve) => {
      const waitForThree = () =>
        stuck.requests.length === 3 ? resolve() : void stuck.nextRequest().then(waitForThree);
      waitForThree();
    });
    const first = server.scheduler.tick();
    await allHang; // the three in flight: a slot of FEED_CONCURRENCY (4) is left

    expect((await putCanteen('zzz', [{ name: 'full', url: fine.url('/full.xml') }])).status).toBe(201);
    clock.advance(30_000);
    await server.scheduler.tick();
    expect((await feeds('zzz'))[0]).toMatchObject({ outcome: 'imported', last_attempt_at: '2026-08-01T04:00:30.000Z' });
    expect(stuck.requests.map((request) => request.url).sort()).toEqual(['/one.xml', '/three.xml', '/two.xml']);
    expect((await feeds('aaa')).map((feed) => feed.outcome)).toEqual([null, null, null]);

    await server.scheduler.stop();
    await first;
    expect((await feeds('aaa')).map((feed) => feed.outcome)).toEqual(['failed', 'failed', 'failed']);
    expect(stuck.requests).toHaveLength(3);
  });

  it('fetches a canteen created while a host hangs at the next tick, its other feeds waiting for its one slot', async () => {
    const stuck = await feedServer(hanging, '127.0.0.2');
    const fine = await feedServer(serving(realFeed));
    const { server, clock, putCanteen, feeds } = await service();
    const hangingFeeds = ['one', 'two', 'three'].map((name) => ({ name, url: stuck.url(`/${name}.xml`) }));
    expect((await putCanteen('aaa', hangingFeeds)).status).toBe(201);
    const firstHang = stuck.nextRequest();
    const first = server.scheduler.tick();
    await firstHang; // one feed of the host in flight, two waiting for its slot

    // Created while that tick still runs (it has no end: the clock does not move its deadline, and nothing stops it).
    expect((await putCanteen('zzz', [{ name: 'full', url: fine.url('/full.xml') }])).status).toBe(201);
    clock.advance(30_000);
    await server.scheduler.tick(); // answers once the feeds it took (zzz's) have ended
    expect((await feeds('zzz'))[0]).toMatchObject({ outcome: 'imported', last_attempt_at: '2026-08-01T04:00:30.000Z' });
    expect(fine.requests.map((request) => request.url)).toEqual(['/full.xml']);
    // The hanging host was asked once: the second tick skipped the feeds the first one holds.
    expect(stuck.requests.map((request) => request.url)).toEqual(['/one.xml']);
    expect((await feeds('aaa')).map((feed) => feed.outcome)).toEqual([null, null, null]);

    await server.scheduler.stop();
    await first;
    expect((await feeds('aaa')).map((feed) => [feed.name, feed.outcome])).toEqual([
      ['one', 'failed'],
      ['two', null],
      ['three', null],
    ]);
  });

  it('fetches a feed whose URL changed at the next tick while its old URL hangs, and keeps the new state', async () => {
    const stuck = await feedServer(hanging, '127.0.0.2');
    const fine = await feedServer(serving(realFeed));
    const { server, clock, putCanteen, feeds } = await service();
    await putCanteen('aaa', [{ name: 'full', url: stuck.url('/old.xml') }]);
    const hang = stuck.nextRequest();
    const first = server.scheduler.tick();
    await hang;

    await putCanteen('aaa', [{ name: 'full', url: fine.url('/new.xml') }]);
    clock.advance(30_000);
    await server.scheduler.tick();
    expect((await feeds('aaa'))[0]).toMatchObject({ url: fine.url('/new.xml'), outcome: 'imported' });

    // The old URL's fetch ends (as at its deadline) and leaves the new URL's state alone.
    await server.scheduler.stop();
    await first;
    expect((await feeds('aaa'))[0]).toMatchObject({ url: fine.url('/new.xml'), outcome: 'imported', last_error: null });
  });
});

describe('a manual fetch answers in time', () => {
  it('ends a fetch of a hanging host at FEED_FETCH_DEADLINE_MS and answers its failure (before the idle socket closes)', async () => {
    const stuck = await feedServer(hanging);
    const { call, putCanteen } = await service({ FEED_FETCH_DEADLINE_MS: '300' });
    await putCanteen('aaa', [{ name: 'full', url: stuck.url('/full.xml') }]);
    const answer = await call('POST', '/api/v1/admin/canteens/aaa/feeds/full/fetch');
    expect(answer.status).toBe(200);
    expect(answer.body.data).toMatchObject({
      outcome: 'failed',
      http_status: null,
      last_error: `${stuck.url('/full.xml')}: no complete answer within the fetch's deadline of 300 ms (retries included)`,
    });
  });

  it('refuses a fetch deadline that is not below the HTTP connection timeout', () => {
    expect(() => loadConfig({ JWT_SECRET: secret, FEED_FETCH_DEADLINE_MS: '120000' })).toThrow(
      /FEED_FETCH_DEADLINE_MS \(120000\) must be less than HTTP_CONNECTION_TIMEOUT_MS \(120000\)/,
    );
  });
});

describe('a graceful shutdown is not held up by a hanging feed host', () => {
  it('ends the fetches under way, the manual one answering its failure, and closes', async () => {
    const stuck = await feedServer(hanging);
    const alsoStuck = await feedServer(hanging, '127.0.0.2');
    const { server, putCanteen, close } = await service({ FEED_FETCH_DEADLINE_MS: '100000' });
    await putCanteen('aaa', [{ name: 'full', url: stuck.url('/full.xml') }]);
    await putCanteen('bbb', [{ name: 'full', url: alsoStuck.url('/other.xml') }]);
    const address = await server.app.listen({ port: 0, host: '127.0.0.1' });

    const manualArrived = stuck.nextRequest();
    const manual = fetch(`${address}/api/v1/admin/canteens/aaa/feeds/full/fetch`, {
      method: 'POST',
      headers: { authorization: `Bearer ${admin}` },
    });
    await manualArrived;
    const scheduledArrived = alsoStuck.nextRequest();
    const tick = server.scheduler.tick(); // aaa's fetch is joined, bbb's hangs on its own
    await scheduledArrived;

    await close();
    await tick;
    const answer = await manual;
    expect(answer.status).toBe(200);
    expect(((await answer.json()) as { data: Record<string, unknown> }).data).toMatchObject({
      outcome: 'failed',
      last_error: `${stuck.url('/full.xml')}: the service is stopping`,
    });
  });
});

describe('feeds that recover', () => {
  it('tries a failed feed again 30 s later, then 60 s, not only when its schedule fires', async () => {
    let status = 503;
    const flaky = await feedServer((request, response) => serving(realFeed, status)(request, response));
    const { server, clock, putCanteen, feeds } = await service();
    await putCanteen('aaa', [{ name: 'full', url: flaky.url('/full.xml') }]);
    const count = () => flaky.requests.length;

    await server.scheduler.tick();
    const afterFirst = count(); // the first try and its quick retries (FEED_RETRY_BASE_MS=0)
    expect((await feeds('aaa'))[0]).toMatchObject({
      outcome: 'failed',
      http_status: 503,
      next_run_at: '2026-08-01T04:00:30.000Z',
    });
    clock.advance(29_999);
    await server.scheduler.tick();
    expect(count()).toBe(afterFirst);
    clock.advance(1);
    await server.scheduler.tick();
    expect(count()).toBe(2 * afterFirst);
    expect((await feeds('aaa'))[0]).toMatchObject({ outcome: 'failed', next_run_at: '2026-08-01T04:01:30.000Z' });

    status = 200;
    clock.set('2026-08-01T04:01:30Z');
    await server.scheduler.tick();
    expect((await feeds('aaa'))[0]).toMatchObject({ outcome: 'imported', next_run_at: '2026-08-02T04:00:00.000Z' });
  });

  it('forgets a feed whose URL a PUT changes, and fetches the new URL at the next check without the old validators', async () => {
    const host = await feedServer(serving(realFeed));
    const { server, putCanteen, feeds } = await service();
    await putCanteen('aaa', [{ name: 'full', url: host.url('/old.xml') }]);
    await server.scheduler.tick();
    expect((await feeds('aaa'))[0]).toMatchObject({ outcome: 'imported' });

    await putCanteen('aaa', [{ name: 'full', url: host.url('/new.xml') }]);
    expect((await feeds('aaa'))[0]).toMatchObject({
      outcome: null,
      last_attempt_at: null,
      next_run_at: '2026-08-01T04:00:00.000Z',
    });
    await server.scheduler.tick();
    const last = host.requests.at(-1)!;
    expect([last.url, last.headers['if-none-match']]).toEqual(['/new.xml', undefined]);
    expect((await feeds('aaa'))[0]).toMatchObject({ outcome: 'imported', url: host.url('/new.xml') });
  });

  it("reports the seconds since each feed's last success in /metrics", async () => {
    const host = await feedServer(serving(realFeed));
    const { server, clock, putCanteen } = await service();
    await putCanteen('aaa', [
      { name: 'full', url: host.url('/full.xml') },
      { name: 'today', url: 'https://mensa.example/never.xml' },
    ]);
    const scrape = async () => (await server.app.inject({ method: 'GET', url: '/metrics' })).body;
    expect(await scrape()).not.toContain('meals_feed_seconds_since_success{');
    await server.app.inject({
      method: 'POST',
      url: '/api/v1/admin/canteens/aaa/feeds/full/fetch',
      headers: { authorization: `Bearer ${admin}` },
    });
    clock.advance(90_500);
    const exposition = await scrape();
    expect(exposition).toContain('meals_feed_seconds_since_success{canteen="aaa",feed="full"} 90.5');
    expect(exposition).not.toContain('feed="today"'); // never succeeded: no series
  });
});

describe('what a failing feed leaves in the state, the API and the log', () => {
  it('logs and shows its URL without the query (where API keys go)', async () => {
    const down = await feedServer(serving('down', 503));
    const { call, putCanteen, feedLines } = await service({ FEED_RETRY_BASE_MS: '0' });
    await putCanteen('aaa', [{ name: 'full', url: down.url('/full.xml?api_key=s3cr3t-k3y') }]);
    const answer = await call('POST', '/api/v1/admin/canteens/aaa/feeds/full/fetch');
    expect(answer.body.data.last_error).toBe(`${down.url('/full.xml')}: HTTP 503`);
    expect(feedLines()).toHaveLength(1);
    expect(feedLines().join('')).not.toContain('s3cr3t');
  });

  it('keeps a 4 MB attribute out of last_error, the API answer and the log line, and reports the 200 that came', async () => {
    const huge = 'A'.repeat(4 * 1024 * 1024);
    const hostile = realFeed.replace(/<price role="student">/, `<price role="${huge}">`);
    const host = await feedServer(serving(hostile));
    const { call, putCanteen, feedLines } = await service();
    await putCanteen('aaa', [{ name: 'full', url: host.url('/full.xml') }]);
    const answer = await call('POST', '/api/v1/admin/canteens/aaa/feeds/full/fetch');
    expect(answer.body.data).toMatchObject({ outcome: 'failed', http_status: 200 });
    expect(answer.text.length).toBeLessThan(4_000);
    expect(feedLines().join('').length).toBeLessThan(4_000);
  });
});
