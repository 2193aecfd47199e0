import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHmacTokenVerifier } from '@canteen-meals/adapters-http';
import { consolePath, pageContentSecurityPolicy } from '../src/index.js';
import { buildAppWith, secret } from './app-with.js';

const verifyToken = createHmacTokenVerifier({ secret });

let app: Awaited<ReturnType<typeof buildAppWith>>['app'];
beforeAll(async () => {
  ({ app } = await buildAppWith({ verifyToken }));
});
afterAll(() => app.close());

const get = (url: string, headers: Record<string, string> = {}) => app.inject({ method: 'GET', url, headers });

describe('GET /admin', () => {
  it('serves the console page with the strict CSP of the pages, revalidated on every load, its own script and style', async () => {
    expect(consolePath).toBe('/admin');
    const page = await get('/admin');
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(page.headers['content-security-policy']).toBe(pageContentSecurityPolicy());
    expect(page.headers['cache-control']).toBe('no-cache');
    expect(page.body).toContain('<title>Admin console</title>');
    expect(page.body).toMatch(/<script type="module" src="\/assets\/console\.[A-Z0-9]{8}\.js"><\/script>/);
    expect(page.body).toMatch(/<link rel="stylesheet" href="\/assets\/console\.[A-Z0-9]{8}\.css">/);
    expect(page.body).not.toMatch(/<script>|<style|style="/);
    const [, script] = /src="(\/assets\/console\.[A-Z0-9]{8}\.js)"/.exec(page.body) ?? [];
    const js = await get(script!);
    expect(js.statusCode).toBe(200);
    // Names and messages reach the page as text, never as markup.
    expect(js.body).not.toMatch(/innerHTML|outerHTML|insertAdjacentHTML|document\.write/);
  });

  it('speaks German or English (?lang= first, then Accept-Language) and takes no other query parameter', async () => {
    expect((await get('/admin', { 'accept-language': 'de-DE,de;q=0.9' })).body).toContain('<title>Verwaltung</title>');
    expect((await get('/admin?lang=en', { 'accept-language': 'de' })).body).toContain('<html lang="en">');
    expect((await get('/admin?lang=fr')).statusCode).toBe(400);
    expect((await get('/admin?canteen=default')).statusCode).toBe(400);
  });

  it('is left out when the app is built with console: false, and the dashboard stays', async () => {
    const { app: without } = await buildAppWith({ verifyToken, console: false });
    try {
      expect((await without.inject({ method: 'GET', url: '/admin' })).statusCode).toBe(404);
      expect((await without.inject({ method: 'GET', url: '/dashboard' })).statusCode).toBe(200);
    } finally {
      await without.close();
    }
  });
});
