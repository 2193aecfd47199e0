import { testRoleSettings, type TestOidcProvider } from '@canteen-meals/test-oidc';
import type { Page } from 'playwright-core';

/**
 * The recipe of docs/identity-providers.md for a server whose pages sign in at the test provider: the API verifies
 * the same issuer's tokens (its JWKS, issuer and audience), maps Keycloak-shaped roles to scopes, and the pages get
 * the provider's settings.
 */
export function providerSettings(oidc: TestOidcProvider): Record<string, string> {
  return {
    JWT_JWKS_URL: oidc.jwksUrl,
    JWT_ISSUER: oidc.issuer,
    JWT_AUDIENCE: oidc.audience,
    ...testRoleSettings,
    OIDC_ISSUER: oidc.issuer,
    OIDC_CLIENT_ID: oidc.clientId,
    OIDC_AUDIENCE: oidc.audience,
  };
}

/**
 * From the page's sign-in button through the provider's screens as a person goes: the login form (any password does
 * at the test provider), then consent when it asks, until the browser is back on the page's origin.
 */
export async function signInAtProvider(
  page: Page,
  oidc: TestOidcProvider,
  origin: string,
  login: string,
  buttonName = 'Sign in',
): Promise<void> {
  await page.getByRole('button', { name: buttonName }).first().click();
  await page.waitForURL((url) => url.href.startsWith(oidc.issuer));
  await page.locator('input[name="login"]').fill(login);
  await page.locator('input[name="password"]').fill('any password');
  await page.locator('button[type="submit"]').click();
  await page.waitForURL((url) => url.origin === origin || url.pathname.includes('/interaction/'));
  if (new URL(page.url()).origin !== origin) {
    // The consent screen: the pages' client asks to act for the person.
    await page.locator('button[type="submit"]').click();
    await page.waitForURL((url) => url.origin === origin);
  }
}
