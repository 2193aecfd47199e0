import { FixedClock } from '@canteen-meals/adapters-memory';
import { signHmacToken } from '@canteen-meals/adapters-http';
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { buildServer } from '../src/composition-root.js';
import { loadConfig } from '../src/config.js';

// A canteen created with a feed URL gets its menu by itself: a real local feed server (a real-world OpenMensa feed),
// the real app, and the scheduler ticked by the test with a clock it moves (no waiting).
const realFeed = readFileSync(
  fileURLToPath(
    new URL('../../../packages/adapters-openmensa/test/fixtures/heidelberg-triplex-feed.xml', import.meta.url),
  ),
  'utf8',
);
const secret = 'canteen-feeds-test-secret-of-32-bytes!!';
const admin = signHmacToken(secret, { sub: 'kitchen', scope: 'meals:write' });

/** What the feed server serves now; the test changes it between fetches. */
let served: { status: number; body: string; etag: string | null } = { status: 200, body: realFeed, etag: '"v1"' };
const requests: { url: string; ifNoneMatch: string | undefined }[] = [];
let feedServer: Server;
let feedUrl: string;

beforeAll(async () => {
  feedServer = createServer((request, response) => {
    requests.push({ url: request.url ?? '', ifNoneMatch: request.headers['if-none-match'] });
    if (served.etag !== null && request.headers['if-none-match'] === served.etag)
      return void response.writeHead(304).end();
    response.writeHead(served.status, {
      'content-type': 'application/xml',
      ...(served.etag === null ? {} : { etag: served.etag }),
    });
    response.end(served.body);
  });
  await new Promise<void>((resolve) => feedServer.listen(0, '127.0.0.1', resolve));
  feedUrl = `http://127.0.0.1:${(feedServer.address() as AddressInfo).port}/feed/triplex.xml`;
});
afterAll(() => new Promise((resolve) => feedServer.close(resolve)));

const closers: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  while (closers.length > 0) await closers.pop()!();
  served = { status: 200, body: realFeed, etag: '"v1"' };
  requests.length = 0;
});

async function service(env: Record<string, string> = {}) {
  const clock = new FixedClock('2026-08-01T04:00:00Z'); // a Saturday before the feed's week
  const config = loadConfig({
    JWT_SECRET: secret,
    DATABASE_URL: 'memory:',
    LOG_LEVEL: 'silent',
    OUTBOUND_ALLOW_PRIVATE_NETWORKS: '1',
    FEED_RETRY_BASE_MS: '0',
    FEED_CHECK_INTERVAL_S: '0',
    ...env,
  });
  const server = await buildServer(config, { clock });
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
  const createCanteen = (schedule = '0 6 * * *') =>
    call('PUT', '/api/v1/admin/canteens/triplex', {
      name: 'Triplex-Mensa',
      timezone: 'Europe/Berlin',
      feeds: [{ name: 'full', url: feedUrl, schedule }],
    });
  const menu = async () =>
    (await call('GET', '/api/v1/meals?canteen=triplex&from=2026-08-03&to=2026-08-09')).body.data.meals as {
      meal_id: number;
      name: string;
    }[];
  const feeds = async () =>
    (await call('GET', '/api/v1/admin/canteens/triplex/feeds')).body.data.feeds as Record<string, unknown>[];
  return { server, clock, call, createCanteen, menu, feeds };
}

describe('canteen feeds', () => {
  it("fetches a new canteen's feed at the next tick, without any further command, and keeps it current on schedule", async () => {
    const { server, clock, createCanteen, menu, feeds } = await service();
    expect((await createCanteen()).status).toBe(201);
    expect(await menu()).toEqual([]);

    await server.scheduler.tick();
    expect(await menu()).toHaveLength(31);
    expect(await feeds()).toEqual([
      expect.objectContaining({
        name: 'full',
        outcome: 'imported',
        http_status: 200,
        counts: { added: 31, changed: 0, unchanged: 0, withdrawn: 0 },
        last_attempt_at: '2026-08-01T04:00:00.000Z',
        last_success_at: '2026-08-01T04:00:00.000Z',
        last_error: null,
        next_run_at: '2026-08-02T04:00:00.000Z', // 06:00 in Berlin (CEST)
      }),
    ]);

    // Not due before its schedule fires: a tick an hour later fetches nothing.
    clock.advance(60 * 60 * 1000);
    await server.scheduler.tick();
    expect(requests).toHaveLength(1);

    // At 06:00 the next day the feed is fetched again, conditionally: unchanged, it costs a 304 and no parsing.
    clock.set('2026-08-02T04:00:00Z');
    await server.scheduler.tick();
    expect(requests.at(-1)?.ifNoneMatch).toBe('"v1"');
    expect(await feeds()).toEqual([
      expect.objectContaining({
        outcome: 'not_modified',
        http_status: 304,
        counts: { added: 31, changed: 0, unchanged: 0, withdrawn: 0 },
      }),
    ]);

    // The canteen takes a coming meal off the menu: the next fetch withdraws it and keeps every other id.
    const before = await menu();
    const dropped = 'Schlemmerbuffet';
    served = {
      status: 200,
      body: realFeed.replace(/<meal>\s*<name>Schlemmerbuffet[\s\S]*?<\/meal>/, ''),
      etag: '"v2"',
    };
    clock.set('2026-08-03T04:00:00Z');
    await server.scheduler.tick();
    const after = await menu();
    expect(after.length).toBe(before.length - 1);
    expect(after.every((meal) => before.some((earlier) => earlier.meal_id === meal.meal_id))).toBe(true);
    expect(
      after.some(
        (meal) =>
          meal.name.startsWith(dropped) && meal.meal_id === before.find((m) => m.name.startsWith(dropped))!.meal_id,
      ),
    ).toBe(false);
    // The meals after it on its day move up one place in the menu: they count as changed.
    expect((await feeds())[0]).toMatchObject({ outcome: 'imported', counts: { added: 0, withdrawn: 1 } });
  });

  it('keeps the menu as it was when a fetch fails or the feed is not valid, and says why', async () => {
    const { server, clock, call, createCanteen, menu, feeds } = await service();
    await createCanteen();
    await server.scheduler.tick();
    const before = await menu();

    served = { status: 500, body: 'down for maintenance', etag: null };
    const failed = await call('POST', '/api/v1/admin/canteens/triplex/feeds/full/fetch');
    expect(failed.status).toBe(200);
    expect(failed.body.data).toMatchObject({
      outcome: 'failed',
      http_status: 500,
      last_success_at: '2026-08-01T04:00:00.000Z',
    });
    expect(requests.slice(1).map((request) => request.url)).toHaveLength(4); // the first try and 3 retries

    served = { status: 200, body: '<!DOCTYPE x [<!ENTITY a "aaaa">]><openmensa/>', etag: null };
    clock.advance(1000);
    const hostile = await call('POST', '/api/v1/admin/canteens/triplex/feeds/full/fetch');
    // The answer came (a 200); its content was refused.
    expect(hostile.body.data).toMatchObject({ outcome: 'failed', http_status: 200 });
    expect(hostile.body.data.last_error).toMatch(/DOCTYPE/i);
    expect(await menu()).toEqual(before);
    expect((await feeds())[0]).toMatchObject({ counts: { added: 31 } });
  });

  it('answers a fetch whose import would serve more than 500 meals on a day with its failed summary, keeping the menu', async () => {
    const { call, createCanteen, menu } = await service();
    await createCanteen();
    const meals = Array.from({ length: 500 }, (_, index) => ({
      meal_id: 1000 + index,
      name: `Admin meal ${index}`,
      served_at: '2026-08-03T13:00:00+02:00',
      rateable: true,
      canteen_id: 'triplex',
    }));
    expect((await call('PUT', '/api/v1/admin/meals', { meals })).status).toBe(200);

    const refused = await call('POST', '/api/v1/admin/canteens/triplex/feeds/full/fetch');

    expect(refused.status).toBe(200);
    expect(refused.body.data).toMatchObject({ outcome: 'failed', http_status: 200, last_success_at: null });
    expect(refused.body.data.last_error).toMatch(
      /^The canteen "triplex" would serve \d+ meals on 2026-08-03; a day holds at most 500\.$/,
    );
    expect((await menu()).map((meal) => meal.name).filter((name) => !name.startsWith('Admin meal'))).toEqual([]);
  });

  it('refuses a feed on a loopback or private address at the PUT unless OUTBOUND_ALLOW_PRIVATE_NETWORKS=1, naming feed and setting', async () => {
    const { server, call, createCanteen } = await service({ OUTBOUND_ALLOW_PRIVATE_NETWORKS: '0' });
    const refused = await createCanteen();
    expect([refused.status, refused.body.error.code]).toEqual([400, 'invalid_request']);
    expect(refused.body.error.message).toContain(
      'feeds[0]: the url of the feed "full" must reach a public address, not a loopback one (OUTBOUND_ALLOW_PRIVATE_NETWORKS=1 allows it)',
    );
    const put = (url: string) =>
      call('PUT', '/api/v1/admin/canteens/triplex', {
        name: 'Triplex',
        timezone: 'Europe/Berlin',
        feeds: [{ name: 'today', url, schedule: '0 6 * * *' }],
      });
    for (const url of [
      'http://localhost/feed.xml',
      'http://localhost./feed.xml',
      'http://10.1.2.3/feed.xml',
      'http://[::1]:8080/feed.xml',
      'http://[fd00::1]/feed.xml',
    ]) {
      expect((await put(url)).body.error?.message, url).toMatch(
        /^feeds\[0\]: the url of the feed "today" must reach a public address, not an? \w+ one \(OUTBOUND_ALLOW_PRIVATE_NETWORKS=1 allows it\)$/,
      );
    }
    // A public IPv6 literal is a URL like any other (it was refused as malformed).
    expect((await put('http://[2606:4700:4700::1111]:8080/feed.xml?key=1')).status).toBe(201);
    await server.scheduler.stop();
    expect(requests).toHaveLength(0);
  });

  it("refuses a schedule that fires more than once a minute, naming the feed's field; once a minute is fine", async () => {
    const { call } = await service();
    const put = (schedule: string) =>
      call('PUT', '/api/v1/admin/canteens/triplex', {
        name: 'Triplex',
        timezone: 'Europe/Berlin',
        feeds: [{ name: 'full', url: 'https://mensa.example/f.xml', schedule }],
      });
    for (const schedule of ['* * * * * *', '*/5 * * * * *', '0,30 * * * * *', '0-59 0 6 * * *']) {
      const refused = await put(schedule);
      expect([refused.status, refused.body.error.message], schedule).toEqual([
        400,
        'feeds[0]: the schedule fires more than once a minute: with 6 fields, the first (the seconds) must be one number, e.g. 0',
      ]);
    }
    for (const schedule of ['* * * * *', '30 * * * * *', '0 0 6 * * 1-5'])
      expect((await put(schedule)).status, schedule).toBeLessThan(300);
  });

  it('refuses a schedule that is not a cron expression and a feed that is not http(s), naming them', async () => {
    const { call } = await service();
    const put = (feeds: unknown) =>
      call('PUT', '/api/v1/admin/canteens/triplex', { name: 'Triplex', timezone: 'Europe/Berlin', feeds });
    const bad = await put([{ name: 'full', url: 'https://mensa.example/full.xml', schedule: '61 * * * *' }]);
    expect([bad.status, bad.body.error.code]).toEqual([400, 'invalid_request']);
    expect(bad.body.error.message).toContain('feeds[0]: the schedule');
    expect((await put([{ name: 'full', url: 'ftp://mensa.example/full.xml', schedule: '0 6 * * *' }])).status).toBe(
      400,
    );
    const twice = await put([
      { name: 'full', url: 'https://a.example/f.xml', schedule: '0 6 * * *' },
      { name: 'full', url: 'https://b.example/f.xml', schedule: '0 7 * * *' },
    ]);
    expect(twice.body.error.message).toContain('appears more than once');
  });

  it('answers 404 for an unknown canteen or feed, and needs the meals:write scope', async () => {
    const { server, call, createCanteen } = await service();
    await createCanteen();
    expect((await call('POST', '/api/v1/admin/canteens/triplex/feeds/today/fetch')).body.error.code).toBe(
      'feed_not_found',
    );
    expect((await call('GET', '/api/v1/admin/canteens/nowhere/feeds')).body.error.code).toBe('canteen_not_found');
    const user = signHmacToken(secret, { sub: 'alice' });
    const forbidden = await server.app.inject({
      method: 'GET',
      url: '/api/v1/admin/canteens/triplex/feeds',
      headers: { authorization: `Bearer ${user}` },
    });
    expect(forbidden.statusCode).toBe(403);
  });

  it('runs one fetch of a feed at a time: a request while one runs waits for it and answers its outcome', async () => {
    const { server, call, createCanteen } = await service();
    await createCanteen();
    const [first, second] = await Promise.all([
      call('POST', '/api/v1/admin/canteens/triplex/feeds/full/fetch'),
      call('POST', '/api/v1/admin/canteens/triplex/feeds/full/fetch'),
      server.scheduler.tick(),
    ]);
    expect(requests).toHaveLength(1);
    expect(first.body.data).toEqual(second.body.data);
  });
});
