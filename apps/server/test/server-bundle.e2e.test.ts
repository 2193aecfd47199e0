import { adminScope, signHmacToken } from '@canteen-meals/adapters-http';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type ServerProcess } from './support/server-process.js';

// Production runs the bundled server (apps/server/dist/bundle/server.js, apps/server/build-bundle.mjs),
// whose modules find their files beside the bundle instead of beside their package. One request of each kind that
// reads such a file, against the built bundle as a process: the SQLite migrations (a rating), the web pages (the
// dashboard and its assets), the API docs' lazy chunk and Swagger UI's own files (an external package), the
// feed-reading thread (a fetch of a real local feed, read by the bundled worker) and the SQLite checkpoint thread.

const bundle = fileURLToPath(new URL('../dist/bundle/server.js', import.meta.url));
const feed = readFileSync(
  fileURLToPath(
    new URL('../../../packages/adapters-openmensa/test/fixtures/heidelberg-triplex-feed.xml', import.meta.url),
  ),
  'utf8',
);
const secret = 'server-bundle-test-secret-of-32-bytes!!';
const admin = signHmacToken(secret, { sub: 'kitchen', scope: adminScope });
const alice = signHmacToken(secret, { sub: 'alice' });

let scratch: string;
let feedServer: Server;
let feedUrl: string;
let server: ServerProcess;

beforeAll(async () => {
  scratch = mkdtempSync(join(tmpdir(), 'meals-server-bundle-'));
  feedServer = createServer((_request, response) =>
    response.writeHead(200, { 'content-type': 'application/xml' }).end(feed),
  );
  await new Promise<void>((resolve) => feedServer.listen(0, '127.0.0.1', resolve));
  feedUrl = `http://127.0.0.1:${(feedServer.address() as AddressInfo).port}/triplex.xml`;
  server = await startServer(
    {
      NODE_ENV: 'production',
      JWT_SECRET: secret,
      DATABASE_URL: `sqlite:${join(scratch, 'meals.db')}`,
      DATABASE_CREATE: '1',
      HOST: '127.0.0.1',
      OUTBOUND_ALLOW_PRIVATE_NETWORKS: '1',
    },
    30_000,
    { main: bundle },
  );
}, 40_000);
afterAll(async () => {
  const code = await server?.stop();
  await new Promise((resolve) => feedServer?.close(resolve));
  rmSync(scratch, { recursive: true, force: true });
  expect(code).toBe(0);
});

const call = async (method: 'GET' | 'PUT' | 'POST', path: string, token?: string, body?: unknown) => {
  const response = await fetch(`${server.url}${path}`, {
    method,
    headers: {
      ...(token === undefined ? {} : { authorization: `Bearer ${token}` }),
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return response;
};

describe('the bundled server', () => {
  it('rates a meal on a new SQLite file: the migrations beside the bundle ran', async () => {
    const servedAt = new Date(Date.now() - 60 * 60 * 1000).toISOString();
    const upserted = await call('PUT', '/api/v1/admin/meals', admin, {
      meals: [{ meal_id: 1, name: 'Lentil soup', served_at: servedAt, rateable: true }],
    });
    expect(upserted.status).toBe(200);
    const rated = await call('POST', '/api/v1/rate-meal', alice, { meal_id: 1, rating: 4 });
    expect(rated.status).toBe(200);
    expect(await rated.json()).toEqual({
      status: 'success',
      data: { rating_count: 1, rating_average: 4, rating_median: 4, rating_personal: 4 },
    });
  });

  it('serves the dashboard page and the script and style it names from the web build beside the bundle', async () => {
    const page = await call('GET', '/dashboard');
    expect(page.status).toBe(200);
    const html = await page.text();
    const script = /<script type="module" src="(\/assets\/[^"]+\.js)"><\/script>/.exec(html)?.[1];
    const style = /<link rel="stylesheet" href="(\/assets\/[^"]+\.css)">/.exec(html)?.[1];
    expect(script).toBeDefined();
    expect(style).toBeDefined();
    const scriptAnswer = await call('GET', script!);
    expect(scriptAnswer.status).toBe(200);
    expect(scriptAnswer.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect((await scriptAnswer.text()).length).toBeGreaterThan(1000);
    expect((await call('GET', style!)).headers.get('content-type')).toBe('text/css; charset=utf-8');
  });

  it('answers /openapi.json and /docs with Swagger UI and its static files (lazy chunk, external package)', async () => {
    const document = await call('GET', '/openapi.json');
    expect(document.status).toBe(200);
    const openApi = (await document.json()) as { openapi: string; paths: Record<string, unknown> };
    expect(openApi.openapi).toMatch(/^3\./);
    expect(Object.keys(openApi.paths)).toEqual(
      expect.arrayContaining(['/api/v1/rate-meal', '/api/v1/admin/canteens/{canteen_id}/feeds/{feed_name}/fetch']),
    );
    const docs = await call('GET', '/docs');
    expect(docs.status).toBe(200);
    expect(await docs.text()).toContain('<script src="/docs/static/swagger-ui-bundle.js"');
    const swaggerUi = await call('GET', '/docs/static/swagger-ui-bundle.js');
    expect(swaggerUi.status).toBe(200);
    expect((await swaggerUi.text()).length).toBeGreaterThan(100_000);
  });

  it("fetches a canteen's feed now: the bundled feed-reading thread reads it and the menu is imported", async () => {
    const created = await call('PUT', '/api/v1/admin/canteens/triplex', admin, {
      name: 'Triplex-Mensa',
      timezone: 'Europe/Berlin',
      feeds: [{ name: 'full', url: feedUrl, schedule: '0 6 * * *' }],
    });
    expect(created.status).toBe(201);
    const fetched = await call('POST', '/api/v1/admin/canteens/triplex/feeds/full/fetch', admin);
    expect(fetched.status).toBe(200);
    expect(((await fetched.json()) as { data: unknown }).data).toMatchObject({
      outcome: 'imported',
      http_status: 200,
      last_error: null,
    });
    const menu = await call('GET', '/api/v1/meals?canteen=triplex&from=2026-08-03&to=2026-08-09', admin);
    expect(((await menu.json()) as { data: { meals: unknown[] } }).data.meals).toHaveLength(31);
  });

  it('logged no warning and no error: the SQLite checkpoint thread started from its bundled file', () => {
    // A checkpoint thread that cannot start is a warning ("SQLite background checkpoint failed"), not a failed request.
    expect(server.output()).toContain('"msg":"meals: listening on');
    expect(server.output()).not.toMatch(/"level":(40|50|60)/);
  });
});
