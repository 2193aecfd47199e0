import { signHmacToken } from '@canteen-meals/adapters-http';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, day, launchBrowser, openPage, secret, startServer, type Server } from './support/kitchen-browser.js';

// Staff belong to their canteens in a real headless Chromium: the console and the kitchen's page
// show only what GET /me/access allows. Grants per canteen come as SCOPE@CANTEEN_ID in the pasted tokens' scope claim
// (ROLE@CANTEEN_ID roles give the same grants: the route tests show it).
const manager = signHmacToken(secret, { sub: 'nora', scope: 'meals:manage@mensa-nord' });
const cook = signHmacToken(secret, { sub: 'sami', scope: 'meals:kitchen@mensa-sued' });
const student = signHmacToken(secret, { sub: 'kim' });

let server: Server;
let origin: string;
let browser: Browser;

beforeAll(async () => {
  ({ server, origin } = await startServer());
  for (const [id, name] of [
    ['mensa-nord', 'Mensa Nord'],
    ['mensa-sued', 'Mensa Süd'],
  ] as const) {
    await call(origin, 'PUT', `/admin/canteens/${id}`, { name, timezone: 'Europe/Berlin' });
  }
  await call(origin, 'PUT', '/admin/meals', {
    meals: [
      { meal_id: 1, name: 'Currywurst', served_at: `${day}T11:30:00+01:00`, rateable: true, canteen_id: 'mensa-nord' },
      { meal_id: 2, name: 'Linsensuppe', served_at: `${day}T11:30:00+01:00`, rateable: true, canteen_id: 'mensa-sued' },
    ],
  });
  browser = await launchBrowser();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await server?.app.close();
});

async function signedIn(url: string, token: string) {
  const opened = await openPage(browser, `${origin}${url}`, { viewport: { width: 1280, height: 900 } });
  await opened.page.locator('#pasted-token').fill(token);
  await opened.page.locator('#pasted-token').press('Enter');
  return opened;
}

const tabNames = async (page: Page) =>
  (await page.getByRole('navigation').getByRole('link').allTextContents()).map((text) => text.trim());

describe("a canteen's manager in the console", () => {
  it("sees their canteen's tabs and their canteen only: no webhooks, no new canteen, no archive", async () => {
    const { page, problems } = await signedIn('/admin?lang=en', manager);
    await page.locator('#canteen-list [data-canteen-id]').first().waitFor();
    expect(await tabNames(page)).toEqual(['Canteens', 'Feeds', 'Day’s menu', 'Ratings report', 'Activity']);
    const cards = page.locator('#canteen-list [data-canteen-id]');
    expect(
      await cards.evaluateAll((nodes) =>
        nodes.map((node) => (node as unknown as { dataset: { canteenId: string } }).dataset.canteenId),
      ),
    ).toEqual(['mensa-nord']);
    expect(await page.getByRole('button', { name: 'New canteen' }).count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Edit Mensa Nord' }).count()).toBe(1);
    expect(await page.getByRole('button', { name: /Archive/ }).count()).toBe(0);

    // The webhooks' address opens the canteens: the tab is not theirs.
    await page.goto(`${origin}/admin?lang=en&section=webhooks`);
    await page.locator('#canteen-list [data-canteen-id]').first().waitFor();
    expect(await page.getByRole('heading', { level: 2 }).first().textContent()).toBe('Canteens');
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it('is shown "Not allowed" without a manager\'s scope anywhere', async () => {
    for (const token of [cook, student]) {
      const { page } = await signedIn('/admin?lang=en', token);
      await page.getByRole('heading', { name: 'Not allowed' }).waitFor();
      expect(await page.getByText('meals:manage').count()).toBeGreaterThan(0);
      await page.context().close();
    }
  });
});

describe("the kitchen's page of a kitchen of one canteen", () => {
  it('opens on that canteen, and offers no other', async () => {
    const { page, problems } = await signedIn(`/dashboard?mode=kitchen&date=${day}&lang=en`, cook);
    await page.locator('#status[data-kind="live"]').waitFor();
    expect(new URL(page.url()).searchParams.get('canteen')).toBe('mensa-sued');
    expect(await page.title()).toMatch(/^Mensa Süd · /);
    await page.locator('[data-meal-id="2"] .availability-button').waitFor();
    expect(await page.locator('[data-meal-id="1"]').count()).toBe(0);
    const offered = await page
      .locator('select option')
      .evaluateAll((nodes) => nodes.map((node) => (node as unknown as { value: string }).value));
    expect(offered).not.toContain('mensa-nord');
    expect(offered).toContain('mensa-sued');
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it("asked for another canteen, opens on its own (the API would refuse the other's meals)", async () => {
    const { page } = await signedIn(`/dashboard?mode=kitchen&canteen=mensa-nord&date=${day}&lang=en`, cook);
    await page.locator('#status[data-kind="live"]').waitFor();
    expect(await page.title()).toMatch(/^Mensa Süd · /);
    await page.context().close();
  });
});
