import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHmacTokenVerifier } from '@canteen-meals/adapters-http';
import { pageContentSecurityPolicy } from '../src/index.js';
import { buildAppWith, secret } from './app-with.js';

// The pages with sign-in configured: the issuer's origin joins connect-src (the scripts call its discovery and token
// endpoints), nothing else changes, and the settings reach the scripts as data-* attributes on <html>.
const verifyToken = createHmacTokenVerifier({ secret });
const signIn = {
  issuer: 'https://id.campus.test/realms/campus',
  clientId: 'canteen-meals-pages',
  scopes: 'openid profile',
  audience: 'https://meals.campus.test/api',
};

let app: Awaited<ReturnType<typeof buildAppWith>>['app'];
beforeAll(async () => {
  ({ app } = await buildAppWith({ verifyToken, signIn }));
});
afterAll(() => app.close());

describe('the pages with OIDC sign-in', () => {
  it.each([
    '/admin',
    '/dashboard',
  ])('%s allows connections to the issuer origin and nothing else besides its own', async (path) => {
    const page = await app.inject({ method: 'GET', url: path });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-security-policy']).toBe(pageContentSecurityPolicy(['https://id.campus.test']));
    expect(page.headers['content-security-policy']).toContain("connect-src 'self' https://id.campus.test;");
    expect(page.body).toContain(
      '<html lang="en" data-oidc-issuer="https://id.campus.test/realms/campus" data-oidc-client-id="canteen-meals-pages" data-oidc-scopes="openid profile" data-oidc-audience="https://meals.campus.test/api">',
    );
  });

  it('keeps the strict query of /admin: the sign-in answers in the fragment, which no server sees', async () => {
    expect((await app.inject({ method: 'GET', url: '/admin?lang=de' })).statusCode).toBe(200);
    expect((await app.inject({ method: 'GET', url: '/admin?code=abc&state=xyz' })).statusCode).toBe(400);
  });

  it('writes no sign-in setting and no extra origin without sign-in', async () => {
    const { app: plain } = await buildAppWith({ verifyToken });
    try {
      const page = await plain.inject({ method: 'GET', url: '/admin' });
      expect(page.statusCode).toBe(200);
      expect(page.headers['content-security-policy']).toBe(pageContentSecurityPolicy());
      expect(page.body).not.toContain('data-oidc');
    } finally {
      await plain.close();
    }
  });
});
