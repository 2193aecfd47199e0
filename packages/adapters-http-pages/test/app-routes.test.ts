import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHmacTokenVerifier } from '@canteen-meals/adapters-http';
import { dashboardContentSecurityPolicy } from '../src/index.js';
import { buildAppWith, secret } from './app-with.js';

// The students' app at `/` (packages/web/src/app): its page, its web app manifests and its service worker, served by
// the pages' routes from the web package's build.
const verifyToken = createHmacTokenVerifier({ secret });

let app: Awaited<ReturnType<typeof buildAppWith>>['app'];
beforeAll(async () => {
  ({ app } = await buildAppWith({ verifyToken }));
});
afterAll(() => app.close());

const get = (url: string, headers: Record<string, string> = {}) => app.inject({ method: 'GET', url, headers });

interface WebManifest {
  readonly name: string;
  readonly short_name: string;
  readonly start_url: string;
  readonly display: string;
  readonly lang: string;
  readonly theme_color: string;
  readonly background_color: string;
  readonly icons: readonly {
    readonly src: string;
    readonly sizes: string;
    readonly type: string;
    readonly purpose?: string;
  }[];
}

describe('GET /', () => {
  it('answers the app to every client, with the pages’ strict CSP, its manifest and its preloaded chunks', async () => {
    const page = await get('/');
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(page.headers['content-security-policy']).toBe(dashboardContentSecurityPolicy);
    expect(page.headers['cache-control']).toBe('no-cache');
    expect(page.body).toContain('<title>Canteen meals</title>');
    expect(page.body).toContain('<meta name="color-scheme" content="light dark">');
    expect(page.body).toContain('<link rel="manifest" href="/app.en.webmanifest">');
    expect(page.body).toMatch(/<meta name="theme-color" content="#[0-9a-f]{6}">/);
    expect(page.body).toMatch(/<script type="module" src="\/assets\/app\.[A-Z0-9]{8}\.js"><\/script>/);
    for (const [, chunk] of page.body.matchAll(/<link rel="modulepreload" href="([^"]+)">/g)) {
      expect((await get(chunk!)).statusCode).toBe(200);
    }
    expect(page.body).not.toMatch(/(src|href)="(https?:)?\/\//);
    expect(page.body).not.toMatch(/<script>|<style|style="/);
    // Every client gets the app: a browser asking for anything, a crawler asking for nothing.
    expect((await get('/', { accept: '*/*' })).statusCode).toBe(200);
    expect((await get('/', { accept: 'application/json' })).statusCode).toBe(200);
  });

  it('takes the deep link’s canteen, day, view and language, and refuses anything else as every page does', async () => {
    expect((await get('/?canteen=mensa-nord&date=2026-03-10&lang=de')).statusCode).toBe(200);
    expect((await get('/?view=favourites')).statusCode).toBe(200);
    expect((await get('/?view=data&lang=en')).statusCode).toBe(200);
    const german = await get('/?lang=de');
    expect(german.body).toContain('<html lang="de"');
    expect(german.body).toContain('<link rel="manifest" href="/app.de.webmanifest">');
    for (const refused of ['/?view=admin', '/?lang=fr', '/?theme=dark']) {
      const answer = await get(refused);
      expect(answer.statusCode, refused).toBe(400);
      expect(answer.json()).toMatchObject({ status: 'error', error: { code: 'invalid_request' } });
    }
  });

  it('serves a web app manifest per language: standalone, its colours, PNG icons of 192 and 512 px, one maskable', async () => {
    for (const [language, name] of [
      ['en', 'Canteen meals'],
      ['de', 'Mensaessen'],
    ] as const) {
      const answer = await get(`/app.${language}.webmanifest`);
      expect(answer.statusCode).toBe(200);
      expect(answer.headers['content-type']).toBe('application/manifest+json; charset=utf-8');
      expect(answer.headers['cache-control']).toBe('no-cache');
      const manifest = answer.json<WebManifest>();
      expect(manifest).toMatchObject({ name, lang: language, display: 'standalone', start_url: `/?lang=${language}` });
      expect(manifest.short_name.length).toBeLessThanOrEqual(12);
      expect(manifest.theme_color).toMatch(/^#[0-9a-f]{6}$/);
      expect(manifest.background_color).toMatch(/^#[0-9a-f]{6}$/);
      expect(
        manifest.icons.map((icon) => `${icon.sizes}${icon.purpose === undefined ? '' : ` ${icon.purpose}`}`).sort(),
      ).toEqual(['192x192', '512x512', '512x512 maskable']);
      for (const icon of manifest.icons) {
        const png = await get(icon.src);
        expect(png.statusCode).toBe(200);
        expect(png.headers['content-type']).toBe('image/png');
        const bytes = png.rawPayload;
        // A PNG of the size it claims: the signature, then IHDR's width and height.
        expect(bytes.subarray(1, 4).toString('latin1')).toBe('PNG');
        const side = Number(icon.sizes.split('x')[0]);
        expect([bytes.readUInt32BE(16), bytes.readUInt32BE(20)]).toEqual([side, side]);
      }
    }
  });

  it('serves the service worker at the root, revalidated on every load, naming every file it precaches', async () => {
    const worker = await get('/sw.js');
    expect(worker.statusCode).toBe(200);
    expect(worker.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(worker.headers['cache-control']).toBe('no-cache');
    const page = await get('/');
    const script = /src="(\/assets\/app\.[A-Z0-9]{8}\.js)"/.exec(page.body)![1]!;
    const style = /href="(\/assets\/app\.[A-Z0-9]{8}\.css)"/.exec(page.body)![1]!;
    for (const file of [script, style, '/app.en.webmanifest', '/app.de.webmanifest'])
      expect(worker.body).toContain(`"${file}"`);
    expect((await get('/sw.js', { 'if-none-match': String(worker.headers.etag) })).statusCode).toBe(304);
  });

  it('changes the worker’s bytes when the page’s settings change, so that installed apps take them at their next start', async () => {
    const { app: withSignIn } = await buildAppWith({
      verifyToken,
      signIn: { issuer: 'https://id.example.org/realms/campus', clientId: 'meals-app', scopes: 'openid profile' },
    });
    try {
      const page = await withSignIn.inject({ method: 'GET', url: '/' });
      expect(page.body).toContain('data-oidc-issuer="https://id.example.org/realms/campus"');
      expect(page.headers['content-security-policy']).toContain("connect-src 'self' https://id.example.org");
      const worker = await withSignIn.inject({ method: 'GET', url: '/sw.js' });
      expect(worker.statusCode).toBe(200);
      expect(worker.body).not.toBe((await get('/sw.js')).body);
    } finally {
      await withSignIn.close();
    }
  });

  it('sends its page, scripts and style gzipped to a browser that takes gzip, each form with its own validator', async () => {
    const page = await get('/');
    const script = /src="(\/assets\/app\.[A-Z0-9]{8}\.js)"/.exec(page.body)![1]!;
    for (const url of ['/', script, '/sw.js', '/app.en.webmanifest']) {
      const plain = await get(url);
      const zipped = await get(url, { 'accept-encoding': 'gzip, deflate, br' });
      expect(zipped.headers['content-encoding'], url).toBe('gzip');
      expect(String(zipped.headers.vary), url).toContain('Accept-Encoding');
      expect(plain.headers['content-encoding'], url).toBeUndefined();
      expect(gunzipSync(zipped.rawPayload).equals(plain.rawPayload), url).toBe(true);
      expect(zipped.rawPayload.length, url).toBeLessThan(plain.rawPayload.length);
      expect(zipped.headers.etag).not.toBe(plain.headers.etag);
      expect(
        (await get(url, { 'accept-encoding': 'gzip', 'if-none-match': String(zipped.headers.etag) })).statusCode,
        url,
      ).toBe(304);
    }
    // An icon is compressed already: sent as it is.
    const manifest = (await get('/app.en.webmanifest')).json<WebManifest>();
    expect(
      (await get(manifest.icons[0]!.src, { 'accept-encoding': 'gzip' })).headers['content-encoding'],
    ).toBeUndefined();
  });

  it('is left out, worker and manifests too, when the app is built with app: false', async () => {
    const { app: without } = await buildAppWith({ verifyToken, app: false });
    try {
      for (const url of ['/', '/sw.js', '/app.en.webmanifest']) {
        expect((await without.inject({ method: 'GET', url })).statusCode, url).toBe(404);
      }
      expect((await without.inject({ method: 'GET', url: '/dashboard' })).statusCode).toBe(200);
    } finally {
      await without.close();
    }
  });
});
