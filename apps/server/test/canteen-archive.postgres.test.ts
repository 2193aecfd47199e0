import { FixedClock } from '@canteen-meals/adapters-memory';
import { signHmacToken } from '@canteen-meals/adapters-http';
import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databasePerFile } from '../../../packages/adapters-postgres/test/support/test-database.js';
import { buildServer } from '../src/composition-root.js';
import { loadConfig } from '../src/config.js';
import { openPersistence } from '../src/persistence.js';

// An archived canteen with the real server on PostgreSQL, a real local feed server and a clock the test moves: the
// scheduler leaves its feed alone, the public reads lose it, the admin list keeps it, and a PUT brings it back.
const realFeed = readFileSync(
  fileURLToPath(
    new URL('../../../packages/adapters-openmensa/test/fixtures/heidelberg-triplex-feed.xml', import.meta.url),
  ),
  'utf8',
);
const secret = 'canteen-archive-secret-of-at-least-32-bytes';
const admin = `Bearer ${signHmacToken(secret, { sub: 'admin', scope: 'meals:write', expiresInMs: 24 * 3_600_000 })}`;
const databaseUrl = databasePerFile();
const closeLater: (() => Promise<unknown>)[] = [];
const requests: IncomingMessage[] = [];
let feedUrl = '';

beforeAll(async () => {
  const feeds = createServer((request, response) => {
    requests.push(request);
    response.writeHead(200, { 'content-type': 'application/xml' }).end(realFeed);
  });
  await new Promise<void>((resolve) => feeds.listen(0, '127.0.0.1', resolve));
  closeLater.push(() => new Promise((resolve) => (feeds.closeAllConnections(), feeds.close(resolve))));
  feedUrl = `http://127.0.0.1:${(feeds.address() as AddressInfo).port}/full.xml`;
});
afterAll(async () => {
  while (closeLater.length > 0) await closeLater.pop()!();
});

describe('an archived canteen on PostgreSQL', () => {
  it('is not fetched by the scheduler, leaves the public reads, stays in the admin list, and a PUT restores it', async () => {
    const config = loadConfig({
      DATABASE_URL: databaseUrl(),
      LOG_LEVEL: 'silent',
      POSTGRES_POOL_SIZE: '2',
      JWT_SECRET: secret,
      TZ_NAME: 'UTC',
      OUTBOUND_ALLOW_PRIVATE_NETWORKS: '1',
      FEED_CHECK_INTERVAL_S: '0',
    });
    const persistence = await openPersistence(config, () => {});
    const clock = new FixedClock('2026-08-01T04:00:00Z');
    const server = await buildServer(config, { persistence, clock });
    closeLater.push(
      () => persistence.close(),
      () => server.app.close(),
    );
    const call = async (method: 'GET' | 'PUT' | 'DELETE', url: string, body?: unknown) => {
      const response = await server.app.inject({
        method,
        url,
        headers: { authorization: admin, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        ...(body === undefined ? {} : { payload: JSON.stringify(body) }),
      });
      return { status: response.statusCode, body: response.json() };
    };
    const canteen = {
      name: 'Triplex',
      timezone: 'Europe/Berlin',
      feeds: [{ name: 'full', url: feedUrl, schedule: '0 6 * * *' }],
    };
    const publicIds = async () =>
      (await call('GET', '/api/v1/canteens')).body.data.canteens.map((each: { canteen_id: string }) => each.canteen_id);

    expect((await call('PUT', '/api/v1/admin/canteens/triplex', canteen)).status).toBe(201);
    await server.scheduler.tick();
    expect(requests).toHaveLength(1);

    const archived = await call('DELETE', '/api/v1/admin/canteens/triplex');
    expect(archived).toEqual({
      status: 200,
      body: { status: 'success', data: { canteen_id: 'triplex', archived_at: '2026-08-01T04:00:00.000Z' } },
    });
    // The next day's 06:00 in Berlin has come: the feed would be due, but its canteen is archived.
    clock.set('2026-08-02T04:00:00Z');
    await server.scheduler.tick();
    expect(requests).toHaveLength(1);
    expect(await publicIds()).toEqual(['default']);
    expect((await call('GET', '/api/v1/canteens/triplex')).body.error.code).toBe('canteen_not_found');
    expect((await call('GET', '/api/v1/meals?canteen=triplex&date=2026-08-02')).status).toBe(404);
    const listed = (await call('GET', '/api/v1/admin/canteens')).body.data.canteens;
    expect(
      listed.map((each: { canteen_id: string; archived_at: string | null }) => [each.canteen_id, each.archived_at]),
    ).toEqual([
      ['default', null],
      ['triplex', '2026-08-01T04:00:00.000Z'],
    ]);

    expect((await call('PUT', '/api/v1/admin/canteens/triplex', canteen)).status).toBe(200);
    expect(await publicIds()).toEqual(['default', 'triplex']);
    await server.scheduler.tick();
    expect(requests).toHaveLength(2);
  });
});
