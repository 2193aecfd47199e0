import { createHmacTokenVerifier, signHmacToken } from '@canteen-meals/adapters-http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildAppWith, secret } from './app-with.js';

let app: Awaited<ReturnType<typeof buildAppWith>>['app'];
let base: string;
const seen: Record<string, string | undefined>[] = [];
beforeAll(async () => {
  ({ app } = await buildAppWith({ verifyToken: createHmacTokenVerifier({ secret }) }));
  app.addHook('onRequest', (request, _reply, done) => {
    seen.push({
      'cache-control': request.headers['cache-control'],
      'if-none-match': request.headers['if-none-match'],
    });
    done();
  });
  base = await app.listen({ host: '127.0.0.1', port: 0 });
});
afterAll(() => app.close());

describe('the pages over a listening server', () => {
  it('answers 304 to fetch() revalidating /dashboard, although fetch adds Cache-Control: no-cache', async () => {
    const first = await fetch(`${base}/dashboard`);
    expect(first.status).toBe(200);
    const etag = first.headers.get('etag')!;
    expect(etag).toMatch(/^"/);
    const again = await fetch(`${base}/dashboard`, { headers: { 'if-none-match': etag } });
    expect(seen.at(-1)).toEqual({ 'cache-control': 'no-cache', 'if-none-match': etag });
    expect(again.status).toBe(304);
    expect(await again.text()).toBe('');
    expect(again.headers.get('etag')).toBe(etag);
  });

  it('answers the pages and their assets alike to everyone: the same bodies, none of them private', async () => {
    const page = await app.inject({ method: 'GET', url: '/dashboard' });
    const asset = /\/assets\/(dashboard\.[\w-]+\.css)/.exec(page.body)![1]!;
    const alice = `Bearer ${signHmacToken(secret, { sub: 'alice' })}`;
    for (const url of ['/', '/dashboard', '/admin', `/assets/${asset}`]) {
      const anonymous = await app.inject({ method: 'GET', url });
      const asAlice = await app.inject({ method: 'GET', url, headers: { authorization: alice } });
      expect([url, anonymous.statusCode, asAlice.statusCode]).toEqual([url, 200, 200]);
      expect(asAlice.body).toBe(anonymous.body);
      expect([url, asAlice.headers['cache-control']]).toEqual([url, anonymous.headers['cache-control']]);
      expect(String(asAlice.headers['cache-control'])).not.toMatch(/private|no-store/);
    }
  });
});
