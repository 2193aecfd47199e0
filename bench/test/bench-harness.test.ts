import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openSqliteDatabase } from '@canteen-meals/adapters-sqlite';
import { afterAll, describe, expect, it, onTestFinished } from 'vitest';
import { mealsWithDriftedHistograms, seedDatabase } from '../src/fixture.js';
import { bodyOnly, replayable, routeOf } from '../src/recording.js';
import { buildReferenceApp } from '../src/reference-app.js';
import { withResults } from '../src/report.js';

// The harness only: no load, no timing. The benchmark itself runs with `pnpm bench`, never in `pnpm test`.

describe('the reference app', () => {
  it("answers its route with the recorded status, headers and body, and nothing else", async () => {
    const body = '{"status":"success","data":{"marked":true}}';
    const app = buildReferenceApp({
      'POST /api/v1/mark-meal': {
        status: 200,
        headers: { 'content-type': 'application/json; charset=utf-8', 'x-frame-options': 'SAMEORIGIN' },
        body,
      },
    });
    const answer = await app.inject({ method: 'POST', url: '/api/v1/mark-meal', payload: { meal_id: 1, marked: false } });
    expect(answer.statusCode).toBe(200);
    expect(answer.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(answer.headers['x-frame-options']).toBe('SAMEORIGIN');
    expect(answer.body).toBe(body);
    expect((await app.inject({ method: 'POST', url: '/api/v1/rate-meal', payload: {} })).statusCode).toBe(404);
    await app.close();
  });

  it('answers a recorded 304 without a body and without content-length', async () => {
    const etag = '"menu-1"';
    const app = buildReferenceApp({ 'GET /api/v1/meals': { status: 304, headers: { etag, 'cache-control': 'public, max-age=60' }, body: '' } });
    const answer = await app.inject({ method: 'GET', url: '/api/v1/meals?canteen=default&date=2026-03-10', headers: { 'if-none-match': etag } });
    expect(answer.statusCode).toBe(304);
    expect(answer.headers.etag).toBe(etag);
    expect(answer.headers['content-length']).toBeUndefined();
    expect(answer.body).toBe('');
    await app.close();
  });
});

describe('a recorded answer', () => {
  it('keeps the headers of the answer and drops those of one response or connection', () => {
    const recorded = replayable({
      status: 200,
      headers: {
        'content-type': 'application/json; charset=utf-8',
        etag: '"e"',
        vary: 'authorization',
        'x-request-id': 'one-request',
        date: 'Mon, 23 Nov 2026 14:12:12 GMT',
        connection: 'keep-alive',
        'keep-alive': 'timeout=72',
        'content-length': '2',
      },
      body: '{}',
    });
    expect(recorded).toEqual({
      status: 200,
      headers: { 'content-type': 'application/json; charset=utf-8', etag: '"e"', vary: 'authorization' },
      body: '{}',
    });
  });

  it('keeps only the body, as JSON, for the scenarios measured against the body alone (rate-meal, mark-meal)', () => {
    const answer = { status: 200, headers: { etag: '"e"', 'x-frame-options': 'DENY', 'content-type': 'application/json' }, body: '{"a":1}' };
    expect(bodyOnly(answer)).toEqual({ status: 200, headers: { 'content-type': 'application/json; charset=utf-8' }, body: '{"a":1}' });
  });

  it('is routed by method and path, without the query', () => {
    expect(routeOf({ method: 'GET', path: '/api/v1/meals?canteen=default&date=2026-03-10', headers: {} })).toBe('GET /api/v1/meals');
  });
});

describe('the seeded database', () => {
  const folder = mkdtempSync(join(tmpdir(), 'bench-harness-'));
  afterAll(() => rmSync(folder, { recursive: true, force: true }));

  it('holds histograms equal to its ratings rows, and the drift check notices a histogram that is not', async () => {
    const path = join(folder, 'meals.db');
    const fixture = await seedDatabase(path, { users: 20, now: new Date(), heavyRatings: 500 });
    expect(mealsWithDriftedHistograms(path)).toEqual([]);
    const db = openSqliteDatabase(path);
    onTestFinished(() => void (db.open && db.close()));
    const { n } = db.prepare('SELECT rated_1 + rated_2 + rated_3 + rated_4 + rated_5 AS n FROM meals WHERE meal_id = ?').get(fixture.heavyMealId) as { n: number };
    expect(n).toBe(500);
    db.prepare('UPDATE meals SET rated_3 = rated_3 + 1 WHERE meal_id = ?').run(fixture.lightMealId);
    db.close();
    expect(mealsWithDriftedHistograms(path)).toEqual([fixture.lightMealId]);
  });
});

describe('docs/benchmarks.md', () => {
  it('gets the new results between its markers and keeps the hand-written text around them', () => {
    const first = withResults(undefined, 'run one');
    const edited = `${first.replace('# Benchmarks', '# Benchmarks\n\nA note before.')}\n## Where the time goes\n\nA note after.\n`;
    const second = withResults(edited, 'run two');
    expect(second).toContain('A note before.');
    expect(second).toContain('A note after.');
    expect(second).toContain('run two');
    expect(second).not.toContain('run one');
  });
});
