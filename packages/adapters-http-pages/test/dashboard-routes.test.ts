import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHmacTokenVerifier } from '@canteen-meals/adapters-http';
import { dashboardContentSecurityPolicy } from '../src/index.js';
import { buildAppWith, secret } from './app-with.js';

const verifyToken = createHmacTokenVerifier({ secret });

let app: Awaited<ReturnType<typeof buildAppWith>>['app'];
beforeAll(async () => {
  ({ app } = await buildAppWith({ verifyToken }));
});
afterAll(() => app.close());

const get = (url: string, headers: Record<string, string> = {}) => app.inject({ method: 'GET', url, headers });

/** The page and the assets it names. */
async function pageAndAssets() {
  const page = await get('/dashboard');
  const [, style] = /<link rel="stylesheet" href="([^"]+)">/.exec(page.body) ?? [];
  const [, script] = /<script type="module" src="([^"]+)"><\/script>/.exec(page.body) ?? [];
  return { page, style: style!, script: script! };
}

describe('GET /dashboard', () => {
  it('serves the page with a strict CSP of its own, revalidated on every load', async () => {
    const { page } = await pageAndAssets();
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(page.headers['content-security-policy']).toBe(dashboardContentSecurityPolicy);
    expect(dashboardContentSecurityPolicy).toBe(
      "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self' data:; manifest-src 'self'; worker-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
    );
    expect(page.headers['cache-control']).toBe('no-cache');
    // The app's other security headers stay.
    expect(page.headers['x-content-type-options']).toBe('nosniff');
    expect(page.body).toContain('<title>Kitchen dashboard</title>');
    // Nothing from another host, nothing inline.
    expect(page.body).not.toMatch(/(src|href)="(https?:)?\/\//);
    expect(page.body).not.toMatch(/<script>|<style|style="/);
    const again = await get('/dashboard', { 'if-none-match': String(page.headers.etag) });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');
  });

  it('serves its script and style sheet under hashed names, kept for a year, with their content types', async () => {
    const { style, script } = await pageAndAssets();
    expect(style).toMatch(/^\/assets\/dashboard\.[A-Z0-9]{8}\.css$/);
    expect(script).toMatch(/^\/assets\/dashboard\.[A-Z0-9]{8}\.js$/);
    const css = await get(style);
    expect(css.statusCode).toBe(200);
    expect(css.headers['content-type']).toBe('text/css; charset=utf-8');
    expect(css.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    const js = await get(script);
    expect(js.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(js.headers['content-security-policy']).toBe(dashboardContentSecurityPolicy);
    expect(js.body).toContain('new EventSource(');
    // Names reach the page as text, never as markup.
    expect(js.body).not.toMatch(/innerHTML|outerHTML|insertAdjacentHTML|document\.write/);
  });

  it('answers an unknown asset 404 in the envelope, and refuses unknown query parameters as every route does', async () => {
    const missing = await get('/assets/nothing.js');
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toMatchObject({ status: 'error', error: { code: 'not_found' } });
    expect((await get('/dashboard?canteen=default&date=2026-03-10')).statusCode).toBe(200);
    expect((await get('/dashboard?theme=light')).statusCode).toBe(400);
  });

  it('opens the kitchen and the wall modes by ?mode=, and refuses another mode', async () => {
    expect((await get('/dashboard?canteen=default&mode=kitchen')).statusCode).toBe(200);
    expect((await get('/dashboard?canteen=default&mode=wall&lang=de')).statusCode).toBe(200);
    const other = await get('/dashboard?mode=tv');
    expect(other.statusCode).toBe(400);
    expect(other.json()).toMatchObject({ status: 'error', error: { code: 'invalid_request' } });
  });

  it('speaks German or English: ?lang= first, then Accept-Language, else English; the page varies on the header', async () => {
    const title = async (url: string, headers: Record<string, string> = {}) => {
      const page = await get(url, headers);
      expect(page.headers.vary).toContain('Accept-Language');
      return [
        /<html lang="(\w+)"/.exec(page.body)?.[1],
        /<title>(.*)<\/title>/.exec(page.body)?.[1],
        page.headers.etag,
      ];
    };
    const english = await title('/dashboard');
    expect(english.slice(0, 2)).toEqual(['en', 'Kitchen dashboard']);
    const german = await title('/dashboard', { 'accept-language': 'de-DE' });
    expect(german.slice(0, 2)).toEqual(['de', 'Küchen-Dashboard']);
    // Each language its own validator: a cache that ignored Vary could not serve one for the other by a 304.
    expect(german[2]).not.toBe(english[2]);
    expect((await title('/dashboard', { 'accept-language': 'fr-FR, de;q=0.5, en;q=0.4' }))[0]).toBe('de');
    expect((await title('/dashboard', { 'accept-language': 'fr' }))[0]).toBe('en');
    expect((await title('/dashboard?lang=en', { 'accept-language': 'de' }))[0]).toBe('en');
    expect((await title('/dashboard?lang=de'))[0]).toBe('de');
    expect((await get('/dashboard?lang=fr')).statusCode).toBe(400);
  });

  it('leaves the API without a CSP: its answers are JSON', async () => {
    const canteens = await get('/api/v1/canteens');
    expect(canteens.statusCode).toBe(200);
    expect(canteens.headers['content-security-policy']).toBeUndefined();
  });

  it('is left out when the app is built with dashboard: false', async () => {
    const { app: without } = await buildAppWith({ verifyToken, dashboard: false });
    try {
      expect((await without.inject({ method: 'GET', url: '/dashboard' })).statusCode).toBe(404);
    } finally {
      await without.close();
    }
  });
});
