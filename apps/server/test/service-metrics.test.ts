import { FixedClock } from '@canteen-meals/adapters-memory';
import { signHmacToken } from '@canteen-meals/adapters-http';
import type { FastifyInstance } from 'fastify';
import { MealMother, webhookDefinition } from '@canteen-meals/repository-contract';
import { afterEach, describe, expect, it } from 'vitest';
import { buildServer } from '../src/composition-root.js';
import { loadConfig } from '../src/config.js';
import { openPersistence } from '../src/persistence.js';

const now = new Date('2026-03-10T12:00:00Z');
const secret = 'metrics-test-secret-of-at-least-32-bytes';
const apps: FastifyInstance[] = [];
afterEach(async () => {
  for (const app of apps.splice(0)) await app.close();
});

async function start(env: Record<string, string> = {}) {
  const config = loadConfig({ DATABASE_URL: 'memory:', LOG_LEVEL: 'silent', JWT_SECRET: secret, ...env });
  const server = await buildServer(config, { clock: new FixedClock(now) });
  apps.push(server.app);
  await server.persistence.meals.upsertMany([MealMother.servedHoursAgo(now, 1, { id: 1, name: 'Soup' })]);
  const call = (url: string, body: object, sub = 'alice') =>
    server.app.inject({
      method: 'POST',
      url,
      headers: { authorization: `Bearer ${signHmacToken(secret, { sub })}` },
      payload: body,
    });
  return { ...server, call };
}

/** The value of one sample line of a Prometheus exposition; 0 when the series does not exist yet. */
function sample(exposition: string, series: string): number {
  const line = exposition.split('\n').find((candidate) => candidate.startsWith(`${series} `));
  return line === undefined ? 0 : Number(line.slice(series.length + 1));
}

describe('metrics', () => {
  it('count ratings set and deleted, not requests that change nothing', async () => {
    const { app, call } = await start();
    const scrape = async () => (await app.inject({ method: 'GET', url: '/metrics' })).body;
    const set = 'meals_ratings_changed_total{change="set"}';
    const deleted = 'meals_ratings_changed_total{change="deleted"}';

    expect(sample(await scrape(), set)).toBe(0);
    await call('/api/v1/rate-meal', { meal_id: 1, rating: 4 });
    await call('/api/v1/rate-meal', { meal_id: 1, rating: 2 });
    await call('/api/v1/rate-meal', { meal_id: 1, rating: 2 });
    await call('/api/v1/rate-meal', { meal_id: 1, rating: 5 }, 'bob');
    let exposition = await scrape();
    expect(sample(exposition, set)).toBe(3);
    expect(sample(exposition, deleted)).toBe(0);

    await call('/api/v1/rate-meal', { meal_id: 1, rating: null });
    await call('/api/v1/rate-meal', { meal_id: 1, rating: null });
    expect((await call('/api/v1/rate-meal', { meal_id: 99, rating: 3 })).statusCode).toBe(404);
    exposition = await scrape();
    expect(sample(exposition, set)).toBe(3);
    expect(sample(exposition, deleted)).toBe(1);
  });

  it('count markings, and requests by route and status with latency histograms', async () => {
    const { app, call } = await start();
    await call('/api/v1/mark-meal', { meal_id: 1, marked: true });
    await call('/api/v1/mark-meal', { meal_id: 1, marked: false });
    await call('/api/v1/mark-meal', { meal_id: 1, marked: true }, 'bob');
    await call('/api/v1/mark-meal', { meal_id: 2, marked: true });
    const exposition = (await app.inject({ method: 'GET', url: '/metrics' })).body;

    expect(sample(exposition, 'meals_markings_set_total{marked="true"}')).toBe(2);
    expect(sample(exposition, 'meals_markings_set_total{marked="false"}')).toBe(1);
    const ok = 'method="POST",route="/api/v1/mark-meal",status_code="200"';
    expect(sample(exposition, `http_requests_total{${ok}}`)).toBe(3);
    expect(sample(exposition, `http_requests_total{method="POST",route="/api/v1/mark-meal",status_code="404"}`)).toBe(
      1,
    );
    expect(sample(exposition, `http_request_duration_seconds_count{${ok}}`)).toBe(3);
    expect(sample(exposition, `http_request_duration_seconds_bucket{le="+Inf",${ok}}`)).toBe(3);
    expect(exposition).toContain('# TYPE http_request_duration_seconds histogram');
    expect(exposition).toContain('process_cpu_seconds_total');
  });

  it('are gone when METRICS_ENABLED=false: /metrics answers not_found', async () => {
    const { app, call } = await start({ METRICS_ENABLED: 'false' });
    expect((await call('/api/v1/rate-meal', { meal_id: 1, rating: 4 })).statusCode).toBe(200);
    const response = await app.inject({ method: 'GET', url: '/metrics' });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toMatchObject({ status: 'error', error: { code: 'not_found' } });
  });

  it('move to their own app with METRICS_PORT, counting the main app requests', async () => {
    const { app, metricsApp, call } = await start({ METRICS_PORT: '9464' });
    expect(metricsApp).toBeDefined();
    await call('/api/v1/rate-meal', { meal_id: 1, rating: 4 });
    expect((await app.inject({ method: 'GET', url: '/metrics' })).statusCode).toBe(404);
    const exposition = (await metricsApp!.inject({ method: 'GET', url: '/metrics' })).body;
    expect(sample(exposition, 'meals_ratings_changed_total{change="set"}')).toBe(1);
    expect(sample(exposition, 'http_requests_total{method="GET",route="unmatched",status_code="404"}')).toBe(1);
  });
});

describe('metrics and erasures', () => {
  it("count an erasure's ratings as deleted and its markings as unmarked", async () => {
    const { app, call } = await start();
    await call('/api/v1/rate-meal', { meal_id: 1, rating: 4 });
    await call('/api/v1/mark-meal', { meal_id: 1, marked: true });
    const erase = (sub: string) =>
      app.inject({
        method: 'DELETE',
        url: '/api/v1/me/data',
        headers: { authorization: `Bearer ${signHmacToken(secret, { sub })}` },
      });
    expect((await erase('alice')).json()).toEqual({
      status: 'success',
      data: { markings_erased: 1, ratings_erased: 1, preferences_erased: 0, aversions_erased: 0 },
    });
    // Erasing again, or a user without data, erases nothing and counts nothing.
    await erase('alice');
    await erase('carol');
    const exposition = (await app.inject({ method: 'GET', url: '/metrics' })).body;
    expect(sample(exposition, 'meals_ratings_changed_total{change="set"}')).toBe(1);
    expect(sample(exposition, 'meals_ratings_changed_total{change="deleted"}')).toBe(1);
    expect(sample(exposition, 'meals_markings_set_total{marked="true"}')).toBe(1);
    expect(sample(exposition, 'meals_markings_set_total{marked="false"}')).toBe(1);
  });
});

describe('who may scrape', () => {
  const token = 'scrape-token-0123456789';

  it('needs the bearer METRICS_TOKEN when it is set, on PORT and on METRICS_PORT', async () => {
    const { app } = await start({ METRICS_TOKEN: token });
    expect((await app.inject({ method: 'GET', url: '/metrics' })).statusCode).toBe(401);
    const scraped = await app.inject({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${token}` } });
    expect(scraped.statusCode).toBe(200);
    expect(scraped.body).toContain('meals_ratings_changed_total');
    const { metricsApp } = await start({ METRICS_TOKEN: token, METRICS_PORT: '9464' });
    expect((await metricsApp!.inject({ method: 'GET', url: '/metrics' })).statusCode).toBe(401);
    expect(
      (await metricsApp!.inject({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${token}` } }))
        .statusCode,
    ).toBe(200);
  });

  it('serves nothing in production without METRICS_PORT or METRICS_TOKEN: /metrics answers not_found', async () => {
    const { app } = await start({ NODE_ENV: 'production' });
    const response = await app.inject({ method: 'GET', url: '/metrics' });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toMatchObject({ status: 'error', error: { code: 'not_found' } });
  });
});

describe('readiness of the real persistence', () => {
  it('is ok while the SQLite database is open and not_ready once it is closed', async () => {
    const config = loadConfig({ DATABASE_URL: 'sqlite::memory:', LOG_LEVEL: 'silent' });
    const persistence = await openPersistence(config);
    const { app } = await buildServer(config, { persistence });
    apps.push(app);
    expect((await app.inject({ method: 'GET', url: '/readyz' })).statusCode).toBe(200);
    await persistence.close();
    const response = await app.inject({ method: 'GET', url: '/readyz' });
    expect(response.statusCode).toBe(503);
    expect(response.json()).toMatchObject({ status: 'error', error: { code: 'not_ready' } });
    expect((await app.inject({ method: 'GET', url: '/healthz' })).statusCode).toBe(200);
    // Closing the app closes the database again: that must not throw.
    persistence.close = async () => {};
  });
});

// The gauges an operator watches: what waits to be delivered, and what this instance holds open.
describe('gauges', () => {
  it('show the webhook deliveries waiting, from the shared outbox, on each scrape', async () => {
    // WEBHOOK_POLL_MS=0: this instance delivers nothing, so the deliveries stay waiting.
    const { app, persistence } = await start({ WEBHOOK_POLL_MS: '0' });
    const scrape = async () => (await app.inject({ method: 'GET', url: '/metrics' })).body;
    expect(await scrape()).toContain('# TYPE meals_webhook_deliveries_waiting gauge');
    expect(sample(await scrape(), 'meals_webhook_deliveries_waiting')).toBe(0);

    await persistence.webhooks.save(webhookDefinition('hook', { events: ['menu.published'] }), now);
    for (const id of [2, 3])
      await persistence.meals.upsertMany(
        [MealMother.servedAt(new Date(now.getTime() + id * 86_400_000), { id })],
        undefined,
        now,
      );
    while ((await persistence.outbox.fanOut(now, 100)) > 0);

    // Three menu changes recorded (meal 1 of start(), meals 2 and 3), one delivery each to the endpoint.
    expect(sample(await scrape(), 'meals_webhook_deliveries_waiting')).toBe(3);
  });

  it('show the live streams this instance holds open', async () => {
    const { app } = await start();
    const address = await app.listen({ port: 0, host: '127.0.0.1' });
    const scrape = async () => (await fetch(`${address}/metrics`)).text();
    expect(sample(await scrape(), 'meals_live_streams_open')).toBe(0);

    const stream = new AbortController();
    const response = await fetch(`${address}/api/v1/live?canteen=default&date=2026-03-10`, { signal: stream.signal });
    expect(response.status).toBe(200);
    const reader = response.body!.getReader();
    await reader.read(); // the snapshot: the stream is open and counted
    expect(sample(await scrape(), 'meals_live_streams_open')).toBe(1);
    stream.abort();
    await reader.closed.catch(() => {});
  });
});
