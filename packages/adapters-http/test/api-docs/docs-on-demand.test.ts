import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp } from '../app-fixture.js';

// The generator and Swagger UI are loaded on the first docs request (start time); what they answer is theirs.
let app: Awaited<ReturnType<typeof buildTestApp>>['app'];
beforeAll(async () => {
  app = (await buildTestApp()).app;
});
afterAll(() => app.close());

describe('the API docs, built on their first request', () => {
  it('are not part of the started app: no generator until the document is asked for', async () => {
    expect(app.hasDecorator('swagger')).toBe(false);
    const first = await app.inject({ method: 'GET', url: '/openapi.json' });
    const second = await app.inject({ method: 'GET', url: '/openapi.json' });
    expect(first.statusCode).toBe(200);
    expect(second.body).toBe(first.body);
    expect(Object.keys(first.json().paths)).toContain('/api/v1/rate-meal');
  });

  it('answer HEAD for a file with its length and no body, as the file server does', async () => {
    const get = await app.inject({ method: 'GET', url: '/docs/static/swagger-ui.css' });
    const head = await app.inject({ method: 'HEAD', url: '/docs/static/swagger-ui.css' });
    expect(get.statusCode).toBe(200);
    expect(head.statusCode).toBe(200);
    expect(head.headers['content-length']).toBe(String(get.rawPayload.length));
    expect(head.headers['content-type']).toBe(get.headers['content-type']);
    expect(head.body).toBe('');
  });

  it('answer 304 to a current ETag, without a body type', async () => {
    const get = await app.inject({ method: 'GET', url: '/docs/static/swagger-ui.css' });
    const again = await app.inject({
      method: 'GET',
      url: '/docs/static/swagger-ui.css',
      headers: { 'if-none-match': String(get.headers.etag) },
    });
    expect(again.statusCode).toBe(304);
    expect(again.headers['content-type']).toBeUndefined();
    expect(again.body).toBe('');
  });

  it('answer a file Swagger UI does not have with the 404 envelope, under its policy', async () => {
    const missing = await app.inject({ method: 'GET', url: '/docs/static/no-such-file.js' });
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toMatchObject({ status: 'error', error: { code: 'not_found' } });
    expect(missing.headers['content-security-policy']).toContain("script-src 'self'");
  });

  it('keep the page behind its own Content-Security-Policy and the security headers of every answer', async () => {
    const page = await app.inject({ method: 'GET', url: '/docs' });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    expect(page.headers['content-security-policy']).toContain("object-src 'none'");
    expect(page.headers['x-content-type-options']).toBe('nosniff');
    const moved = await app.inject({ method: 'GET', url: '/docs/static/index.html' });
    expect([moved.statusCode, moved.headers.location, moved.headers['content-type']]).toEqual([
      302,
      '/docs/',
      undefined,
    ]);
  });
});
