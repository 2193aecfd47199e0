import { mkdirSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { adminScope, signHmacToken } from '@canteen-meals/adapters-http';
import { startTestOidcProvider, testUsers, type TestOidcProvider } from '@canteen-meals/test-oidc';
import { providerSettings, signInAtProvider } from './support/provider-sign-in.js';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildServer } from '../src/composition-root.js';
import { loadConfig } from '../src/config.js';
import { launchBrowser } from './support/kitchen-browser.js';

// The pages' sign-in in a real headless Chromium against a real OpenID provider (packages/test-oidc: oidc-provider on
// 127.0.0.1): the authorization code flow with PKCE through the provider's login and consent screens, the API
// verifying the provider's JWT access tokens through its JWKS and mapping Keycloak-shaped roles to scopes, as a
// deployment with Keycloak would run.
const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core'), 'utf8');
const audience = 'https://meals.sign-in.test/api';
const screenshot = fileURLToPath(new URL('../../../docs/sign-in-not-allowed.png', import.meta.url));

// A real OpenMensa feed nobody here wrote, served from a local server: the console creates a canteen with it.
const realFeed = readFileSync(
  fileURLToPath(
    new URL('../../../packages/adapters-openmensa/test/fixtures/heidelberg-triplex-feed.xml', import.meta.url),
  ),
  'utf8',
);
let feedServer: Server;
let feedUrl: string;
let oidc: TestOidcProvider;
let server: Awaited<ReturnType<typeof buildServer>>;
let origin: string;
let browser: Browser;

beforeAll(async () => {
  feedServer = createServer(
    (_request, response) => void response.writeHead(200, { 'content-type': 'application/xml' }).end(realFeed),
  );
  await new Promise<void>((resolve) => feedServer.listen(0, '127.0.0.1', resolve));
  feedUrl = `http://127.0.0.1:${(feedServer.address() as AddressInfo).port}/feed.xml`;
  oidc = await startTestOidcProvider({ audience });
  const config = loadConfig({
    DATABASE_URL: 'memory:',
    LOG_LEVEL: 'silent',
    // The recipe of docs/identity-providers.md: the API verifies the same issuer's tokens the pages sign in for.
    ...providerSettings(oidc),
    // The feed is on this machine, and fetched when the console says "fetch now".
    OUTBOUND_ALLOW_PRIVATE_NETWORKS: '1',
    FEED_CHECK_INTERVAL_S: '0',
  });
  server = await buildServer(config);
  await server.app.listen({ host: '127.0.0.1', port: 0 });
  origin = `http://127.0.0.1:${(server.app.server.address() as AddressInfo).port}`;
  oidc.registerPages(origin);
  // Several contexts at once (a person each): the packaged Chromium not as one process.
  browser = await launchBrowser();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await server?.app.close();
  await oidc?.close();
  await new Promise((resolve) => feedServer?.close(resolve));
});

/** The little of the page's globals these tests read: they are compiled without the DOM's types. */
interface PageGlobals {
  readonly sessionStorage: {
    readonly length: number;
    key(index: number): string | null;
    getItem(key: string): string | null;
    setItem(key: string, value: string): void;
  };
  readonly localStorage: { readonly length: number };
  readonly axe: { run(): Promise<{ violations: { id: string; impact: string | null; help: string }[] }> };
}

/** A person's own browser (cookies, storage), at a size, with every console error and uncaught exception collected. */
async function personAt(viewport = { width: 1280, height: 800 }) {
  const context = await browser.newContext({ viewport });
  const page = await context.newPage();
  const problems: string[] = [];
  page.on('console', (message) => {
    // Our pages' errors; the provider's own screens are not under test.
    if (message.type() === 'error' && page.url().startsWith(origin)) problems.push(`console.error: ${message.text()}`);
  });
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  /** What the page asked whom, and the status it got. */
  const answers: { method: string; url: string; status: number; body: string | null }[] = [];
  page.on('response', (response) =>
    answers.push({
      method: response.request().method(),
      url: response.url(),
      status: response.status(),
      body: response.request().postData(),
    }),
  );
  return { context, page, problems, answers };
}

const signIn = (page: Page, login: string) => signInAtProvider(page, oidc, origin, login);

/** axe-core run inside the page (evaluated as the devtools do: the page's CSP allows no script from the test). */
async function accessibilityProblems(page: Page) {
  await page.evaluate(axeSource);
  const { violations } = await page.evaluate(() => (globalThis as unknown as PageGlobals).axe.run());
  return violations.filter((violation) => violation.impact === 'serious' || violation.impact === 'critical');
}

const storedUserKey = (page: Page) =>
  page.evaluate(() => {
    const storage = (globalThis as unknown as PageGlobals).sessionStorage;
    return (
      Array.from({ length: storage.length }, (_, index) => storage.key(index)).find((key) =>
        key?.startsWith('oidc.user:'),
      ) ?? null
    );
  });

/**
 * Makes the stored sign-in look expired to the page (its clock's view), as an hour later would: optionally without its
 * refresh token.
 */
async function expireStoredToken(page: Page, dropRefreshToken: boolean) {
  const key = await storedUserKey(page);
  expect(key).not.toBeNull();
  await page.evaluate(
    ([key, drop]) => {
      const storage = (globalThis as unknown as PageGlobals).sessionStorage;
      const user = JSON.parse(storage.getItem(key)!) as { expires_at: number; refresh_token?: string };
      user.expires_at = Math.floor(Date.now() / 1000) - 60;
      if (drop) delete user.refresh_token;
      storage.setItem(key, JSON.stringify(user));
    },
    [key!, dropRefreshToken] as const,
  );
}

const adminCanteens = (answers: { url: string; status: number }[]) =>
  answers.filter((answer) => answer.url === `${origin}/api/v1/admin/canteens`).map((answer) => answer.status);

describe('signing in to /admin with OpenID Connect', () => {
  it('signs the admin in through the provider, renews an expired token, signs in again without a refresh token, and signs out at the provider', async () => {
    const { context, page, problems, answers } = await personAt();
    await page.goto(`${origin}/admin`);
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    expect(await accessibilityProblems(page)).toEqual([]);

    await signIn(page, testUsers.admin.login);
    await page.getByText(`Signed in as ${testUsers.admin.name}`).waitFor();
    // The console on the API with the provider's token: the admin's list, answered 200.
    await page.getByText('Default canteen', { exact: true }).first().waitFor();
    expect(adminCanteens(answers)).toContain(200);
    expect(adminCanteens(answers)).not.toContain(403);
    // The provider's answer left no trace in the address (it came in the fragment), and the token is only in this tab.
    expect(page.url()).toBe(`${origin}/admin`);
    expect(answers.some((answer) => answer.url.startsWith(`${origin}/admin?`))).toBe(false);
    expect(await storedUserKey(page)).not.toBeNull();
    expect(await page.evaluate(() => (globalThis as unknown as PageGlobals).localStorage.length)).toBe(0);
    const authorization = answers.find((answer) => answer.url.startsWith(`${oidc.issuer}/auth?`));
    expect(new URL(authorization!.url).searchParams.get('code_challenge_method')).toBe('S256');
    expect(new URL(authorization!.url).searchParams.get('response_mode')).toBe('fragment');

    // With the provider's token, the console creates a canteen with a feed, fetches it now, and its menu is there.
    await page.locator('#new-canteen').click();
    const editor = page.locator('form.editor');
    await editor.getByLabel('Id', { exact: true }).fill('triplex');
    await editor.getByLabel('Name', { exact: true }).fill('Triplex-Mensa');
    await editor.getByRole('button', { name: 'Add a feed' }).click();
    await editor.getByLabel('Feed URL (OpenMensa v2)').fill(feedUrl);
    await editor.getByRole('button', { name: 'Create' }).click();
    await page.locator('[data-canteen-id="triplex"]').waitFor();
    await page.locator('nav a[data-section="feeds"]').click();
    await page.locator('[data-feed="full"]').waitFor();
    await page.getByRole('button', { name: 'Fetch feed full now' }).click();
    await page.locator('[data-feed="full"] [role="status"]').filter({ hasText: 'Fetched now' }).waitFor();
    const menu = (await (await fetch(`${origin}/api/v1/meals?canteen=triplex&date=2026-08-03`)).json()) as {
      data: { meals: { name: string }[] };
    };
    expect(menu.data.meals.length).toBeGreaterThan(0);
    const saved = answers.filter(
      (answer) => answer.method === 'PUT' && answer.url === `${origin}/api/v1/admin/canteens/triplex`,
    );
    expect(saved.map((answer) => answer.status)).toEqual([201]);

    // The access token expires: the page renews it with the refresh token, and the console works on. (Back on the
    // canteens first: a reload opens the section the address names.)
    const listsBefore = adminCanteens(answers).length;
    await page.locator('nav a[data-section="canteens"]').click();
    expect(page.url()).toBe(`${origin}/admin`);
    // The section asks for the list when it opens: its answer is in before the count below starts, not inside it.
    await expect.poll(() => adminCanteens(answers).length).toBe(listsBefore + 1);
    await expireStoredToken(page, false);
    answers.length = 0;
    await page.reload();
    await page.getByText('Default canteen', { exact: true }).first().waitFor();
    const refreshes = answers.filter(
      (answer) => answer.url === `${oidc.issuer}/token` && answer.body?.includes('grant_type=refresh_token'),
    );
    expect(refreshes.map((answer) => answer.status)).toEqual([200]);
    // The session's check and the console's list, both with the renewed token.
    expect(adminCanteens(answers)).toEqual([200, 200]);

    // Expired with no refresh token: a new sign-in at the provider, which still knows the person, back to the console.
    await expireStoredToken(page, true);
    answers.length = 0;
    await page.reload();
    await page.getByText(`Signed in as ${testUsers.admin.name}`).waitFor();
    await page.getByText('Default canteen', { exact: true }).first().waitFor();
    expect(answers.some((answer) => answer.url.startsWith(`${oidc.issuer}/auth?`))).toBe(true);
    expect(adminCanteens(answers).at(-1)).toBe(200);

    // Signing out ends the session at the provider (its end_session_endpoint asks to confirm), then the page's.
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL((url) => url.href.startsWith(oidc.issuer));
    await page.locator('button[name="logout"]').click();
    await page.waitForURL((url) => url.origin === origin);
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    expect(await storedUserKey(page)).toBeNull();
    // The provider forgot the person too: signing in asks for the login again.
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.locator('input[name="login"]').waitFor();
    expect(problems).toEqual([]);
    await context.close();
  }, 120_000);

  it("signs kitchen staff in on the kitchen's page with the kitchen role, and keeps the others' role out of it", async () => {
    const kitchenPage = `${origin}/dashboard?canteen=default&mode=kitchen`;
    const cook = await personAt();
    await cook.page.goto(kitchenPage);
    await signIn(cook.page, testUsers.kitchen.login);
    // Back on the kitchen's page, its query kept, with the kitchen's heading: the API granted meals:kitchen to the
    // role.
    await cook.page.getByRole('heading', { name: 'Kitchen: what is left' }).waitFor();
    expect(new URL(cook.page.url()).searchParams.get('mode')).toBe('kitchen');
    expect(new URL(cook.page.url()).hash).toBe('');
    const access = cook.answers.filter((answer) => answer.url === `${origin}/api/v1/me/access`);
    expect(access.map((answer) => answer.status)).toEqual([200]);
    expect(cook.problems).toEqual([]);
    await cook.context.close();

    // The kitchen role is not the admin's: the console refuses the same person.
    const again = await personAt();
    await again.page.goto(`${origin}/admin`);
    await signIn(again.page, testUsers.kitchen.login);
    await again.page.getByRole('heading', { name: 'Not allowed' }).waitFor();
    expect(adminCanteens(again.answers)).toEqual([403]);
    await again.context.close();

    // Someone with no role at all gets the not-allowed screen on the kitchen's page, and no button.
    const guest = await personAt();
    await guest.page.goto(kitchenPage);
    await signIn(guest.page, testUsers.nobody.login);
    await guest.page.getByRole('heading', { name: 'Not allowed' }).waitFor();
    expect(await guest.page.locator('main').textContent()).toContain('meals:kitchen');
    expect(await guest.page.locator('.availability-button').count()).toBe(0);
    await guest.context.close();
  }, 120_000);

  it('tells someone without the role that they are not allowed, as the API answers 403, on a phone and in German', async () => {
    const { context, page, problems, answers } = await personAt({ width: 390, height: 844 });
    await page.goto(`${origin}/admin?lang=de`);
    await page.getByRole('button', { name: 'Anmelden' }).click();
    await page.waitForURL((url) => url.href.startsWith(oidc.issuer));
    await page.locator('input[name="login"]').fill(testUsers.nobody.login);
    await page.locator('input[name="password"]').fill('any password');
    await page.locator('button[type="submit"]').click();
    await page.waitForURL((url) => url.origin === origin || url.pathname.includes('/interaction/'));
    if (new URL(page.url()).origin !== origin) {
      await page.locator('button[type="submit"]').click();
      await page.waitForURL((url) => url.origin === origin);
    }
    await page.getByRole('heading', { name: 'Kein Zugriff' }).waitFor();
    // Back where it started: the language kept.
    expect(page.url()).toBe(`${origin}/admin?lang=de`);
    const text = await page.locator('main').textContent();
    expect(text).toContain(testUsers.nobody.name);
    // The console is a manager's page: meals:manage at some canteen (or meals:write) opens it.
    expect(text).toContain('meals:manage');
    expect(text).toContain('403');
    expect(adminCanteens(answers)).toEqual([403]);
    expect(await accessibilityProblems(page)).toEqual([]);
    mkdirSync(dirname(screenshot), { recursive: true });
    await page.screenshot({ path: screenshot, fullPage: true });
    // The way out: signing out, to sign in as someone else.
    await page.getByRole('button', { name: 'Abmelden' }).click();
    await page.waitForURL((url) => url.href.startsWith(oidc.issuer));
    expect(problems.filter((problem) => !problem.includes('403'))).toEqual([]);
    await context.close();
  }, 120_000);

  it('shows a refused or forged answer of the provider as a failed sign-in with a way to try again, not a broken page', async () => {
    const { context, page, problems } = await personAt();
    // An answer to no sign-in this tab started (its state is unknown): refused, and the address cleaned.
    await page.goto(`${origin}/admin#error=access_denied&state=not-ours`);
    await page.getByRole('alert').waitFor();
    expect(await page.getByRole('alert').textContent()).toMatch(/^Signing in failed: /);
    expect(page.url()).toBe(`${origin}/admin`);
    await page.getByRole('button', { name: 'Try again' }).click();
    await page.locator('input[name="login"]').waitFor();
    expect(problems).toEqual([]);
    await context.close();
  }, 60_000);
});

describe('/admin without sign-in settings', () => {
  it('says how to configure them and takes a pasted token instead', async () => {
    const secret = 'sign-in-browser-secret-of-at-least-32-bytes';
    const plain = await buildServer(loadConfig({ DATABASE_URL: 'memory:', LOG_LEVEL: 'silent', JWT_SECRET: secret }));
    try {
      await plain.app.listen({ host: '127.0.0.1', port: 0 });
      const plainOrigin = `http://127.0.0.1:${(plain.app.server.address() as AddressInfo).port}`;
      const { context, page, problems } = await personAt();
      await page.goto(`${plainOrigin}/admin`);
      await page.getByRole('heading', { name: 'Sign-in is not configured' }).waitFor();
      expect(await page.locator('pre').textContent()).toContain('OIDC_ISSUER=');
      expect(await accessibilityProblems(page)).toEqual([]);
      // A token the API refuses comes back with its reason; a good one opens the console.
      await page.getByLabel('Access token', { exact: true }).fill('not-a-token');
      await page.getByRole('button', { name: 'Use this token' }).click();
      await page.getByRole('alert').waitFor();
      expect(await page.getByRole('alert').textContent()).toContain('The token was not accepted');
      await page
        .getByLabel('Access token', { exact: true })
        .fill(signHmacToken(secret, { sub: 'operator', scope: adminScope }));
      await page.getByRole('button', { name: 'Use this token' }).click();
      await page.getByText('Signed in as operator').waitFor();
      await page.getByText('Default canteen', { exact: true }).first().waitFor();
      expect(problems.filter((problem) => !problem.includes('401'))).toEqual([]);
      await context.close();
    } finally {
      await plain.app.close();
    }
  }, 60_000);
});
