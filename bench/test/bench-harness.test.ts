import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openSqliteDatabase } from '@canteen-meals/adapters-sqlite';
import { afterAll, describe, expect, it, onTestFinished } from 'vitest';
import { mealsWithDriftedHistograms, seedDatabase } from '../src/fixture.js';
import { parseFrames, quantile, RatingLedger, statsCount } from '../src/live.js';
import { bodyOnly, replayable, routeOf } from '../src/recording.js';
import { buildReferenceApp } from '../src/reference-app.js';
import { withResults } from '../src/report.js';

// The harness only: no load, no timing. The benchmark itself runs with `pnpm bench`, never in `pnpm test`.

describe('the reference app', () => {
  it('answers its route with the recorded status, headers and body, and nothing else', async () => {
    const body = '{"status":"success","data":{"marked":true}}';
    const app = buildReferenceApp({
      'POST /api/v1/mark-meal': {
        status: 200,
        headers: { 'content-type': 'application/json; charset=utf-8', 'x-frame-options': 'SAMEORIGIN' },
        body,
      },
    });
    const answer = await app.inject({
      method: 'POST',
      url: '/api/v1/mark-meal',
      payload: { meal_id: 1, marked: false },
    });
    expect(answer.statusCode).toBe(200);
    expect(answer.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(answer.headers['x-frame-options']).toBe('SAMEORIGIN');
    expect(answer.body).toBe(body);
    expect((await app.inject({ method: 'POST', url: '/api/v1/rate-meal', payload: {} })).statusCode).toBe(404);
    await app.close();
  });

  it('answers a recorded 304 without a body and without content-length', async () => {
    const etag = '"menu-1"';
    const app = buildReferenceApp({
      'GET /api/v1/meals': { status: 304, headers: { etag, 'cache-control': 'public, max-age=60' }, body: '' },
    });
    const answer = await app.inject({
      method: 'GET',
      url: '/api/v1/meals?canteen=default&date=2026-03-10',
      headers: { 'if-none-match': etag },
    });
    expect(answer.statusCode).toBe(304);
    expect(answer.headers.etag).toBe(etag);
    expect(answer.headers['content-length']).toBeUndefined();
    expect(answer.body).toBe('');
    await app.close();
  });
});

describe('a recorded answer', () => {
  it('keeps the headers of the answer, the request id as recorded, and drops those of one response or connection', () => {
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
      headers: {
        'content-type': 'application/json; charset=utf-8',
        etag: '"e"',
        vary: 'authorization',
        'x-request-id': 'one-request',
      },
      body: '{}',
    });
  });

  it('keeps only the body, as JSON, for the scenarios measured against the body alone (rate-meal, mark-meal)', () => {
    const answer = {
      status: 200,
      headers: { etag: '"e"', 'x-frame-options': 'DENY', 'content-type': 'application/json' },
      body: '{"a":1}',
    };
    expect(bodyOnly(answer)).toEqual({
      status: 200,
      headers: { 'content-type': 'application/json; charset=utf-8' },
      body: '{"a":1}',
    });
  });

  it('is routed by method and path, without the query', () => {
    expect(routeOf({ method: 'GET', path: '/api/v1/meals?canteen=default&date=2026-03-10', headers: {} })).toBe(
      'GET /api/v1/meals',
    );
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
    const { n } = db
      .prepare('SELECT rated_1 + rated_2 + rated_3 + rated_4 + rated_5 AS n FROM meals WHERE meal_id = ?')
      .get(fixture.heavyMealId) as { n: number };
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

describe('the live measurement', () => {
  it('splits a stream into frames, keeps a partial frame for later and skips comments', () => {
    const { frames, rest } = parseFrames(
      'id: t.0\nevent: snapshot\ndata: {"meals":[]}\n\n: heartbeat\n\nid: t.1\nevent: stats\ndata: {"meal_id":7,"rating_count":3,"x":1}\n\nid: t.2\nevent: st',
    );
    expect(frames).toEqual([
      { event: 'snapshot', data: '{"meals":[]}' },
      { event: 'stats', data: '{"meal_id":7,"rating_count":3,"x":1}' },
    ]);
    expect(rest).toBe('id: t.2\nevent: st');
    expect(statsCount(frames[1]!.data)).toEqual({ mealId: 7, ratingCount: 3 });
    expect(statsCount('{"rating_count":4,"meal_id":8}')).toEqual({ mealId: 8, ratingCount: 4 });
  });

  it('times each stats event from the first rating of its meal that the stream had not shown', () => {
    const ledger = new RatingLedger([1, 2]);
    const stream = ledger.newStream();
    ledger.snapshot(stream, 1, 10);
    ledger.snapshot(stream, 2, 0);
    ledger.sent(1, 100);
    ledger.sent(1, 150);
    ledger.sent(2, 160);
    expect(ledger.behind(stream)).toBe(3);
    // One event shows both ratings of meal 1: one sample, from the first.
    ledger.stats(stream, 1, 12, 400);
    // The dish moved, no rating of the meal: an event, no delivery.
    ledger.stats(stream, 1, 12, 420);
    ledger.stats(stream, 2, 1, 500);
    expect(ledger.latencies()).toEqual([300, 340]);
    expect(ledger.statsEvents).toBe(3);
    expect(ledger.behind(stream)).toBe(0);
    // A second stream whose snapshot came later counts from the same base.
    const late = ledger.newStream();
    ledger.snapshot(late, 1, 11);
    expect(ledger.behind(late)).toBe(2);
  });

  it('takes the nearest-rank quantile', () => {
    const sorted = Array.from({ length: 100 }, (_, i) => i + 1);
    expect(quantile(sorted, 0.5)).toBe(50);
    expect(quantile(sorted, 0.99)).toBe(99);
    expect(quantile([5], 0.99)).toBe(5);
  });
});
