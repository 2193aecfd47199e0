import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ifNoneMatchHolds } from '../src/conditional-requests.js';
import { buildTestApp, type TestApp } from './app-fixture.js';

describe('If-None-Match (RFC 9110, 13.1.2)', () => {
  const tag = '"abc,def"';

  it.each([
    [tag, true],
    [`W/${tag}`, true],
    [`"other", ${tag}`, true],
    [`"other",${tag} `, true],
    ['*', true],
    [' * ', true],
    ['"other"', false],
    ['"abc"', false],
    ['abc,def', false],
    ['', false],
  ])('%j against %s: %s', (header, holds) => {
    expect(ifNoneMatchHolds({ 'if-none-match': header }, tag)).toBe(holds);
  });

  it('holds whatever the request says about caches: no-cache and Pragma are for caches, not the origin', () => {
    const headers = { 'if-none-match': tag, 'cache-control': 'no-cache', pragma: 'no-cache' };
    expect(ifNoneMatchHolds(headers, tag)).toBe(true);
    expect(ifNoneMatchHolds({ 'cache-control': 'no-cache' }, tag)).toBe(false);
  });
});

describe("conditional GETs from Node's fetch against a listening server", () => {
  let fixture: TestApp;
  let base: string;
  const seen: Record<string, string | undefined>[] = [];

  beforeAll(async () => {
    fixture = await buildTestApp();
    fixture.app.addHook('onRequest', (request, _reply, done) => {
      seen.push({
        'cache-control': request.headers['cache-control'],
        'if-none-match': request.headers['if-none-match'],
      });
      done();
    });
    base = await fixture.app.listen({ host: '127.0.0.1', port: 0 });
  });
  afterAll(() => fixture.app.close());

  it.each([
    '/api/v1/meals?canteen=default&date=2026-03-10',
    '/api/v1/rankings?canteen=default&date=2026-03-10',
    // The pages' own: packages/adapters-http-pages/test/page-answers.test.ts.
  ])('answers 304 to fetch() revalidating %s, although fetch adds Cache-Control: no-cache', async (path) => {
    const first = await fetch(base + path);
    expect(first.status).toBe(200);
    const etag = first.headers.get('etag')!;
    expect(etag).toMatch(/^"/);
    const again = await fetch(base + path, { headers: { 'if-none-match': etag } });
    expect(seen.at(-1)).toEqual({ 'cache-control': 'no-cache', 'if-none-match': etag });
    expect(again.status).toBe(304);
    expect(await again.text()).toBe('');
    expect(again.headers.get('etag')).toBe(etag);
  });
});
