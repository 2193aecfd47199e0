import { mkdirSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { adminScope, signHmacToken } from '@canteen-meals/adapters-http';
import { FixedClock } from '@canteen-meals/adapters-memory';
import chromium from '@sparticuz/chromium';
import { chromium as playwright, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildServer } from '../src/composition-root.js';
import { loadConfig } from '../src/config.js';

// The admin console in a real headless Chromium (as the dashboard's test), signed in with a pasted admin token (the
// sign-in with an identity provider is another test's), working on a real local OpenMensa feed server.
const secret = 'console-browser-secret-of-at-least-32-bytes';
const admin = signHmacToken(secret, { sub: 'console-admin', scope: adminScope });
const docs = (name: string) => fileURLToPath(new URL(`../../../docs/${name}`, import.meta.url));
const realFeed = readFileSync(
  fileURLToPath(
    new URL('../../../packages/adapters-openmensa/test/fixtures/heidelberg-triplex-feed.xml', import.meta.url),
  ),
  'utf8',
);
const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core'), 'utf8');
// A Saturday before the feed's week (2026-08-03 to 09): every meal of it is still to be served.
const clock = new FixedClock('2026-08-01T04:00:00Z');

let server: Awaited<ReturnType<typeof buildServer>>;
let origin: string;
let browser: Browser;
let feedServer: Server;
let feedUrl: string;

async function api(method: 'GET' | 'PUT', path: string, body?: unknown) {
  const response = await fetch(`${origin}/api/v1${path}`, {
    method,
    headers: {
      authorization: `Bearer ${admin}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: response.status, body: (await response.json()) as { data: Record<string, unknown> } };
}

beforeAll(async () => {
  // The feed at /feed.xml (with an ETag, as real feeds have), webhook deliveries at /hooks.
  feedServer = createServer((request, response) => {
    if (request.url === '/hooks') {
      request.resume();
      request.on('end', () => response.writeHead(204).end());
      return;
    }
    if (request.headers['if-none-match'] === '"v1"') return void response.writeHead(304).end();
    response.writeHead(200, { 'content-type': 'application/xml', etag: '"v1"' }).end(realFeed);
  });
  await new Promise<void>((resolve) => feedServer.listen(0, '127.0.0.1', resolve));
  feedUrl = `http://127.0.0.1:${(feedServer.address() as AddressInfo).port}/feed.xml`;
  const config = loadConfig({
    JWT_SECRET: secret,
    DATABASE_URL: 'memory:',
    LOG_LEVEL: 'silent',
    OUTBOUND_ALLOW_PRIVATE_NETWORKS: '1',
    FEED_RETRY_BASE_MS: '0',
    // No scheduled fetch: the feed is fetched when the console says "fetch now".
    FEED_CHECK_INTERVAL_S: '0',
  });
  server = await buildServer(config, { clock });
  await server.app.listen({ host: '127.0.0.1', port: 0 });
  origin = `http://127.0.0.1:${(server.app.server.address() as AddressInfo).port}`;
  // Several contexts at once: Chromium must not run as a single process.
  browser = await playwright.launch({
    executablePath: await chromium.executablePath(),
    args: chromium.args.filter((arg) => arg !== '--single-process'),
    headless: true,
  });
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await server?.app.close();
  await new Promise((resolve) => feedServer?.close(resolve));
});

/** The little of the page's globals these tests read: they are compiled without the DOM's types. */
interface PageGlobals {
  readonly document: { readonly documentElement: { readonly scrollWidth: number } };
  readonly navigator: { readonly clipboard: { readText(): Promise<string> } };
  readonly axe: {
    run(
      options: unknown,
    ): Promise<{ violations: { id: string; impact: string | null; nodes: { target: unknown }[] }[] }>;
  };
}

/** A context of its own (its session storage, its language), the console opened and a token pasted into it. */
async function openConsole(options: { viewport: { width: number; height: number }; locale: string; path?: string }) {
  const context: BrowserContext = await browser.newContext({ viewport: options.viewport, locale: options.locale });
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin });
  const page = await context.newPage();
  const problems: string[] = [];
  page.on('console', (message) => {
    // Chromium logs every 4xx answer ("Failed to load resource"); the refusals a test provokes are checked on the page.
    if (message.text().startsWith('Failed to load resource: the server responded with a status of 409')) return;
    if (message.type() === 'error' || message.type() === 'warning')
      problems.push(`console.${message.type()}: ${message.text()}`);
  });
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  await page.goto(`${origin}${options.path ?? '/admin'}`);
  await page.locator('#pasted-token').fill(admin);
  await page.locator('#pasted-token').press('Enter');
  await page.locator('#signed-in-user').waitFor();
  return { context, page, problems };
}

const openSection = async (page: Page, name: string) => {
  await page.locator(`nav a[data-section="${name}"]`).click();
  await page.locator(`#section-${name}`).waitFor();
};

/** axe-core run inside the page (evaluated as the devtools do: the page's CSP allows no script from the test). */
async function seriousViolations(page: Page) {
  await page.evaluate(axeSource);
  const { violations } = await page.evaluate(() =>
    (globalThis as unknown as PageGlobals).axe.run({ resultTypes: ['violations'] }),
  );
  return violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map(({ id, nodes }) => ({ id, targets: nodes.map((node) => node.target) }));
}

const noHorizontalScroll = async (page: Page, width: number) =>
  expect(
    await page.evaluate(() => (globalThis as unknown as PageGlobals).document.documentElement.scrollWidth),
  ).toBeLessThanOrEqual(width);

describe('the admin console in a headless browser', () => {
  it('creates a canteen with a feed, fetches it now, works on its menu and webhooks, reports, archives and restores it', async () => {
    const { page, problems, context } = await openConsole({ viewport: { width: 1280, height: 900 }, locale: 'en-GB' });
    expect(await page.locator('#signed-in-user').textContent()).toBe('Signed in as console-admin');
    expect(await page.locator('nav a[aria-current="page"]').textContent()).toBe('Canteens');

    // Create a canteen: a wrong latitude is named beside its field before the API is asked.
    await page.locator('#new-canteen').click();
    const editor = page.locator('form.editor');
    await editor.getByLabel('Id', { exact: true }).fill('triplex');
    await editor.getByLabel('Name', { exact: true }).fill('Triplex-Mensa');
    await editor.getByLabel('City', { exact: true }).fill('Heidelberg');
    await editor.getByLabel('Latitude', { exact: true }).fill('95');
    await editor.getByLabel('Longitude', { exact: true }).fill('8,7066');
    await editor.getByRole('button', { name: 'Add a feed' }).click();
    await editor.getByLabel('Feed URL (OpenMensa v2)').fill(feedUrl);
    await editor.getByRole('button', { name: 'Create' }).click();
    expect(await editor.locator('.problem:not([hidden])').allTextContents()).toEqual(['A number from -90 to 90.']);
    expect(await editor.getByLabel('Latitude', { exact: true }).getAttribute('aria-invalid')).toBe('true');
    expect((await api('GET', '/admin/canteens')).body.data.canteens).toHaveLength(1);
    await editor.getByLabel('Latitude', { exact: true }).fill('49.4106');
    // What only the API can refuse is said in its own words (the envelope's message), beside the button.
    await editor.getByLabel('OpenMensa number').fill('1');
    await editor.getByRole('button', { name: 'Create' }).click();
    await editor.locator('[role="alert"]', { hasText: 'taken' }).waitFor();
    expect(await editor.locator('[role="alert"]').textContent()).toBe(
      'openmensa_id 1 is taken by the canteen "default".',
    );
    await editor.getByLabel('OpenMensa number').fill('');
    await editor.getByRole('button', { name: 'Create' }).click();
    await page.locator('#section-canteens [role="status"]', { hasText: 'Triplex-Mensa created.' }).waitFor();
    await page.locator('[data-canteen-id="triplex"]').waitFor();
    const created = (await api('GET', '/canteens/triplex')).body.data;
    expect(created).toMatchObject({
      name: 'Triplex-Mensa',
      timezone: 'Europe/Berlin',
      city: 'Heidelberg',
      coordinates: { lat: 49.4106, lng: 8.7066 },
    });

    // Edit: the form shows the canteen as stored; the id cannot change.
    await page.getByRole('button', { name: 'Edit Triplex-Mensa' }).click();
    expect(await editor.getByLabel('Feed URL (OpenMensa v2)').inputValue()).toBe(feedUrl);
    expect(await editor.getByLabel('Id', { exact: true }).getAttribute('readonly')).not.toBeNull();
    await editor.getByLabel('Address', { exact: true }).fill('Grabengasse 14, 69117 Heidelberg');
    await editor.getByRole('button', { name: 'Save' }).click();
    await page.locator('#section-canteens [role="status"]', { hasText: 'Triplex-Mensa saved.' }).waitFor();
    expect((await api('GET', '/canteens/triplex')).body.data).toMatchObject({
      address: 'Grabengasse 14, 69117 Heidelberg',
      city: 'Heidelberg',
    });

    // Feeds: not fetched yet; "fetch now" imports the feed and says so.
    await openSection(page, 'feeds');
    const feed = page.locator('[data-feed="full"]');
    await feed.waitFor();
    expect(await feed.locator('dd').allTextContents()).toEqual([
      '0 6 * * *',
      'never',
      'none',
      expect.stringMatching(/2026/),
      'not fetched yet',
    ]);
    await feed.getByRole('button', { name: 'Fetch feed full now' }).click();
    const outcome = page.locator('[data-feed="full"] [role="status"]');
    await outcome.filter({ hasText: 'Fetched now' }).waitFor();
    expect(await outcome.textContent()).toMatch(
      /^Fetched now: imported: \d+ new, 0 changed, 0 unchanged, 0 withdrawn\.$/,
    );
    expect(await page.locator('[data-feed="full"] dd').nth(1).textContent()).not.toBe('never');

    // A webhook: its secret shown once, copied by the button; it receives the withdrawal below.
    await openSection(page, 'webhooks');
    await page.getByLabel('Id', { exact: true }).fill('campus-app');
    await page.getByLabel('URL that receives the events').fill(`${new URL(feedUrl).origin}/hooks`);
    await page.getByLabel(/meal\.withdrawn/).check();
    // Every event the API accepts is offered (the form lacked this one).
    await page.getByLabel(/meal\.availability_changed/).check();
    await page.getByRole('button', { name: 'Create webhook' }).click();
    const shown = (await page.locator('#webhook-secret code').textContent()) ?? '';
    expect(shown).toMatch(/^whsec_/);
    await page.getByRole('button', { name: 'Copy the secret' }).click();
    await page.locator('#webhook-secret [role="status"]', { hasText: 'Copied.' }).waitFor();
    expect(await page.evaluate(() => (globalThis as unknown as PageGlobals).navigator.clipboard.readText())).toBe(
      shown,
    );
    await page.getByRole('button', { name: 'I have stored it' }).click();
    await page.locator('[data-webhook-id="campus-app"]').waitFor();
    expect(await page.locator('#webhook-secret').count()).toBe(0);
    await openSection(page, 'webhooks');
    await page.locator('[data-webhook-id="campus-app"]').waitFor();
    expect(await page.locator('main').textContent()).not.toContain(shown);

    // The day's menu: the feed's meals; withdraw one; close another day.
    await openSection(page, 'menu');
    await page.getByLabel('Canteen', { exact: true }).selectOption('triplex');
    await page.getByLabel('Day', { exact: true }).fill('2026-08-04');
    await page
      .locator('#menu-meals[data-canteen="triplex"][data-date="2026-08-04"] .meal-name', { hasText: 'Tagessuppe' })
      .waitFor();
    const before = await page.locator('#menu-meals .meal-name').allTextContents();
    expect(before).toContain('Eis');
    expect(await page.locator('#day-state .state').textContent()).toBe('The canteen is open on this day.');
    await page.getByRole('button', { name: 'Withdraw Eis' }).click();
    await page.locator('#menu-meals .question').waitFor();
    expect(await page.locator('#menu-meals .question').textContent()).toContain('Withdraw “Eis” from the menus?');
    await page.locator('#menu-meals').getByRole('button', { name: 'Withdraw', exact: true }).click();
    await page.locator('#section-menu [role="status"]', { hasText: '“Eis” withdrawn.' }).waitFor();
    expect(await page.locator('#menu-meals .meal-name').allTextContents()).toEqual(
      before.filter((name) => name !== 'Eis'),
    );
    const menu = (await api('GET', '/meals?canteen=triplex&date=2026-08-04')).body.data.meals as { name: string }[];
    expect(menu.map((meal) => meal.name)).not.toContain('Eis');

    await page.getByLabel('Day', { exact: true }).fill('2026-08-05');
    await page.locator('#menu-meals[data-date="2026-08-05"] .card').first().waitFor();
    const servedThatDay = await page.locator('#menu-meals .card').count();
    await page.locator('#toggle-closed').click();
    await page.locator('#day-state').getByRole('button', { name: 'Mark the day closed' }).click();
    await page
      .locator('#section-menu [role="status"]', { hasText: `Day marked closed; ${servedThatDay} meals withdrawn.` })
      .waitFor();
    await page.locator('#day-state .state.closed').waitFor();
    expect(await page.locator('#menu-meals').textContent()).toBe('Closed: no meals.');
    expect((await api('GET', '/meals?canteen=triplex&date=2026-08-05')).body.data.closed_days).toEqual(['2026-08-05']);

    // Merge dishes: two spellings of one dish, found by name.
    await api('PUT', '/admin/meals', {
      meals: [
        {
          meal_id: 900_001,
          name: 'Käsespätzle',
          served_at: '2026-08-06T11:30:00+02:00',
          rateable: true,
          canteen_id: 'triplex',
        },
        {
          meal_id: 900_002,
          name: 'kasespatzle',
          served_at: '2026-08-07T11:30:00+02:00',
          rateable: true,
          canteen_id: 'triplex',
        },
      ],
    });
    await page.getByLabel('Dish name').fill('spatzle');
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await page.locator('#merge-results fieldset').first().waitFor();
    await page
      .locator('#merge-results fieldset')
      .first()
      .getByLabel(/Käsespätzle/)
      .check();
    await page
      .locator('#merge-results fieldset')
      .nth(1)
      .getByLabel(/kasespatzle/)
      .check();
    await page.locator('#merge-button').click();
    await page.locator('#section-menu [role="status"]', { hasText: '1 dish merged into “Käsespätzle”.' }).waitFor();
    const kept = (await api('GET', '/meals/900002')).body.data as { dish: { name: string } };
    expect(kept.dish.name).toBe('Käsespätzle');

    // The withdrawal reached the webhook's delivery log.
    await openSection(page, 'webhooks');
    await page.getByRole('button', { name: 'Delivery log of campus-app' }).click();
    await page.locator('[data-webhook-id="campus-app"] .deliveries li').first().waitFor();
    // One event per withdrawn meal (Eis, the closed day's), beside the menu's; all on the fixed clock's one instant.
    const log = await page.locator('[data-webhook-id="campus-app"] .deliveries li').allTextContents();
    expect(log.some((line) => line.includes(' · meal.withdrawn · '))).toBe(true);

    // The ratings report: a CSV file through the client, as a download.
    await openSection(page, 'report');
    await page.getByLabel('Canteen', { exact: true }).selectOption('triplex');
    await page.getByLabel('From', { exact: true }).fill('2026-08-03');
    await page.getByLabel('To', { exact: true }).fill('2026-08-09');
    await page.getByRole('button', { name: 'Prepare CSV' }).click();
    const link = page.getByRole('link', { name: 'Download ratings-triplex-2026-08-03-2026-08-09.csv' });
    await link.waitFor();
    expect(await link.getAttribute('href')).toMatch(/^blob:/);
    const [download] = await Promise.all([page.waitForEvent('download'), link.click()]);
    expect(download.suggestedFilename()).toBe('ratings-triplex-2026-08-03-2026-08-09.csv');
    const csv = readFileSync(await download.path(), 'utf8');
    expect(csv.startsWith('\uFEFF')).toBe(true);
    expect(csv).toContain('Tagessuppe');

    // Archive (after a confirmation) and restore.
    await openSection(page, 'canteens');
    const card = page.locator('[data-canteen-id="triplex"]');
    await card.getByRole('button', { name: 'Archive Triplex-Mensa' }).click();
    expect(await card.locator('.question').textContent()).toContain('Archive Triplex-Mensa?');
    await card.getByRole('button', { name: 'Archive', exact: true }).click();
    await page.locator('[data-canteen-id="triplex"].archived').waitFor();
    expect((await api('GET', '/canteens/triplex')).status).toBe(404);
    expect(await page.locator('[data-canteen-id="triplex"] dt').allTextContents()).toContain('Archived');
    await page.getByRole('button', { name: 'Restore Triplex-Mensa' }).click();
    await page.locator('#section-canteens [role="status"]', { hasText: 'Triplex-Mensa restored.' }).waitFor();
    await page.locator('[data-canteen-id="triplex"]:not(.archived)').waitFor();
    expect((await api('GET', '/canteens/triplex')).status).toBe(200);
    const restored = (
      (await api('GET', '/admin/canteens')).body.data.canteens as {
        canteen_id: string;
        feeds: unknown[];
        archived_at: unknown;
      }[]
    ).find((canteen) => canteen.canteen_id === 'triplex');
    expect(restored).toMatchObject({
      archived_at: null,
      feeds: [{ name: 'full', url: feedUrl, schedule: '0 6 * * *' }],
    });

    expect(await seriousViolations(page)).toEqual([]);
    mkdirSync(dirname(docs('console-en.png')), { recursive: true });
    await page.screenshot({ path: docs('console-en.png'), fullPage: true });
    expect(problems).toEqual([]);
    await context.close();
  }, 120_000);

  it('speaks German from Accept-Language, fits a phone in one column, and axe finds no serious violation in any section', async () => {
    const width = 390;
    const { page, problems, context } = await openConsole({ viewport: { width, height: 844 }, locale: 'de-DE' });
    expect(await page.locator('h1').textContent()).toBe('Verwaltung');
    expect(await page.title()).toBe('Mensen · Verwaltung');
    await page.locator('#canteen-list .card').first().waitFor();
    for (const name of ['canteens', 'feeds', 'menu', 'webhooks', 'report']) {
      await openSection(page, name);
      // The focus moves to the section's heading (keyboard and screen reader users land there).
      expect(
        await page.evaluate(
          () =>
            (globalThis as unknown as { document: { activeElement: { tagName: string } } }).document.activeElement
              .tagName,
        ),
      ).toBe('H2');
      await page.waitForLoadState('networkidle');
      await noHorizontalScroll(page, width);
      expect(await seriousViolations(page), name).toEqual([]);
    }
    // The canteen form on a phone: one column, every control labelled and reachable.
    // By keyboard: from the section's heading, Tab reaches "Neue Mensa", Enter opens the form on its heading, Tab the
    // id.
    await openSection(page, 'canteens');
    await page.keyboard.press('Tab');
    await page.keyboard.press('Enter');
    await page.locator('form.editor h3:focus').waitFor();
    await page.keyboard.press('Tab');
    expect(await page.locator('form.editor input:focus').getAttribute('aria-describedby')).toMatch(/-id-hint /);
    await page.getByRole('button', { name: 'Feed hinzufügen' }).click();
    const lefts = await page
      .locator('form.editor .field-grid .field')
      .evaluateAll((fields) => fields.map((field) => field.getBoundingClientRect().left));
    expect(new Set(lefts).size).toBe(1);
    await noHorizontalScroll(page, width);
    expect(await seriousViolations(page)).toEqual([]);
    await page.getByRole('button', { name: 'Anlegen' }).click();
    expect(await page.locator('form.editor [role="alert"]').textContent()).toBe('3 Felder müssen korrigiert werden.');
    await page.screenshot({ path: docs('console-de.png'), fullPage: true });
    // Signing out forgets the pasted token: the page asks for one again.
    await page.locator('#sign-out').click();
    await page.locator('#pasted-token').waitFor();
    expect(problems).toEqual([]);
    await context.close();
  }, 120_000);

  it('gives each section a URL: opened from it, a history entry per tab, and the back button returns', async () => {
    const { page, problems, context } = await openConsole({
      viewport: { width: 1280, height: 800 },
      locale: 'en-GB',
      path: '/admin?section=webhooks',
    });
    await page.locator('#section-webhooks').waitFor();
    expect(await page.locator('nav a[data-section="webhooks"]').getAttribute('aria-current')).toBe('page');
    await openSection(page, 'feeds');
    expect(new URL(page.url()).searchParams.get('section')).toBe('feeds');
    await page.goBack();
    await page.locator('#section-webhooks').waitFor();
    expect(await page.locator('nav a[data-section="feeds"]').getAttribute('aria-current')).toBeNull();
    await openSection(page, 'canteens');
    expect(page.url()).toBe(`${origin}/admin`);
    expect(problems).toEqual([]);
    await context.close();
  }, 60_000);
});
