import { mkdirSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { adminScope, signHmacToken } from '@canteen-meals/adapters-http';
import { FixedClock } from '@canteen-meals/adapters-memory';
import chromium from '@sparticuz/chromium';
import { chromium as playwright, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildServer } from '../src/composition-root.js';
import { loadConfig } from '../src/config.js';

// The kitchen dashboard in a real headless Chromium: the one that @sparticuz/chromium carries inside its npm package
// (unpacked into the temporary directory on first use), so this test needs nothing but the install.
const secret = 'dashboard-browser-secret-of-at-least-32-bytes';
const admin = signHmacToken(secret, { sub: 'kitchen-admin', scope: adminScope });
const screenshot = fileURLToPath(new URL('../../../docs/dashboard.png', import.meta.url));
const canteen = 'mensa-nord';
const day = '2026-03-10';
// 13:00 in Berlin: the day's lunch has been served, so its meals take ratings.
const clock = new FixedClock('2026-03-10T12:00:00Z');
const meals = [
  { meal_id: 1, name: 'Käsespätzle with fried onions', category: 'Main course', ratings: [5, 5, 4, 4, 4, 3, 5, 2] },
  { meal_id: 2, name: 'Lentil curry & rice', category: 'Vegan', ratings: [4, 5, 3, 4, 4] },
  { meal_id: 3, name: 'Fish of the day <Pollock>', category: 'Main course', ratings: [3, 2, 4, 1, 3, 3] },
  { meal_id: 4, name: 'Tomato soup', category: 'Starter', ratings: [] },
] as const;

let server: Awaited<ReturnType<typeof buildServer>>;
let origin: string;
let browser: Browser;

async function call(method: 'PUT' | 'POST', path: string, body: unknown, token = admin) {
  const response = await fetch(`${origin}/api/v1${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  expect(response.status, `${method} ${path}: ${await response.clone().text()}`).toBeLessThan(300);
  return response.json();
}

const rate = (user: string, mealId: number, rating: number) =>
  call('POST', '/rate-meal', { meal_id: mealId, rating }, signHmacToken(secret, { sub: user }));

beforeAll(async () => {
  const config = loadConfig({ JWT_SECRET: secret, DATABASE_URL: 'memory:', LOG_LEVEL: 'silent' });
  server = await buildServer(config, { clock });
  await server.app.listen({ host: '127.0.0.1', port: 0 });
  origin = `http://127.0.0.1:${(server.app.server.address() as AddressInfo).port}`;
  // Seeded through the API, as the kitchen's tools would.
  await call('PUT', `/admin/canteens/${canteen}`, { name: 'Mensa Nord', timezone: 'Europe/Berlin', city: 'Aachen' });
  await call('PUT', '/admin/meals', {
    meals: meals.map(({ meal_id, name, category }) => ({
      meal_id,
      name,
      category,
      served_at: `${day}T11:30:00+01:00`,
      rateable: true,
      canteen_id: canteen,
    })),
  });
  for (const meal of meals) {
    for (const [index, rating] of meal.ratings.entries())
      await rate(`guest-${meal.meal_id}-${index}`, meal.meal_id, rating);
  }
  browser = await playwright.launch({
    executablePath: await chromium.executablePath(),
    args: chromium.args,
    headless: true,
  });
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await server?.app.close();
});

/**
 * A new page at that size, with every console error and uncaught exception of it collected. Pages stay open until the
 * browser closes: @sparticuz/chromium runs Chromium as a single process, which ends with its last page.
 */
async function openDashboard(
  viewport: { width: number; height: number },
  path = `/dashboard?canteen=${canteen}&date=${day}`,
) {
  const page = await browser.newPage({ viewport });
  const problems: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error' || message.type() === 'warning')
      problems.push(`console.${message.type()}: ${message.text()}`);
  });
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  await page.goto(`${origin}${path}`);
  await page.locator('#status[data-kind="live"]').waitFor();
  return { page, problems };
}

/** The little of the page's globals these tests read: they are compiled without the DOM's types. */
interface PageGlobals {
  readonly document: {
    querySelector(selector: string): { readonly textContent: string | null } | null;
    readonly documentElement: { readonly scrollWidth: number };
  };
}

/**
 * Waits until the element's text is that, polling in the page (a function, not a string: the page's CSP refuses
 * eval, Playwright's included). No bound of its own: how soon depends on the machine, and is the bench's to show.
 */
const untilTextIs = (page: Page, selector: string, text: string) =>
  page.waitForFunction(
    ([selector, text]) => (globalThis as unknown as PageGlobals).document.querySelector(selector)?.textContent === text,
    [selector, text] as const,
  );

const countOf = (page: Page, mealId: number) => page.locator(`[data-meal-id="${mealId}"] .count`).textContent();

describe('the kitchen dashboard in a headless browser', () => {
  it('shows the menu, follows a rating sent through the API over the live stream, logs no error, and is photographed', async () => {
    const { page, problems } = await openDashboard({ width: 1600, height: 900 });
    // The menu, names as text (the <Pollock> is not markup), each with its figures and a five-bar chart.
    await expect(page.locator('#meals .meal-name').allTextContents()).resolves.toEqual(meals.map((meal) => meal.name));
    expect(await countOf(page, 1)).toBe('8 ratings · median 4.0');
    expect(await page.locator('[data-meal-id="1"] .average').textContent()).toBe('4.0');
    expect(await countOf(page, 4)).toBe('no ratings yet');
    expect(await page.locator('[data-meal-id="1"] .bar-row').count()).toBe(5);
    expect(await page.locator('[data-meal-id="1"] .bar-value').allTextContents()).toEqual(['3', '3', '1', '1', '0']);
    // The ranking of the day: the curry's five votes average 4.0 as the Spätzle's eight do, which the score prefers.
    await page.locator('#ranking .ranked').nth(3).waitFor();
    expect(await page.locator('#ranking .ranked-name').allTextContents()).toEqual([
      meals[0].name,
      meals[1].name,
      meals[2].name,
      meals[3].name,
    ]);
    expect(await page.locator('#canteen').inputValue()).toBe(canteen);
    expect(await page.locator('#date').inputValue()).toBe(day);

    // A rating through the API reaches the page over the live stream: no reload, no polling. The proof is what the
    // page asked for meanwhile (no menu read, no new page), not how fast it was: under load that is the bench's to say.
    const readsAfterRating: string[] = [];
    page.on('request', (request) => {
      const { pathname } = new URL(request.url());
      if (pathname === '/api/v1/meals' || pathname.startsWith('/dashboard')) readsAfterRating.push(pathname);
    });
    await rate('late-guest', 4, 5);
    await untilTextIs(page, '[data-meal-id="4"] .count', '1 rating · median 5.0');
    expect(readsAfterRating).toEqual([]);
    expect(await page.locator('[data-meal-id="4"] .average').textContent()).toBe('5.0');
    // The ranking follows (read again at most once a second): the soup is rated now.
    await untilTextIs(page, '#ranking [data-meal-id="4"] .ranked-figures', '5.0 (1 rating)');

    mkdirSync(dirname(screenshot), { recursive: true });
    await page.screenshot({ path: screenshot, fullPage: true });
    expect(problems).toEqual([]);
  }, 60_000);

  it('shows one column on a phone, and finds a canteen and day by itself', async () => {
    const { page, problems } = await openDashboard({ width: 390, height: 844 }, '/dashboard');
    // No canteen asked for: the first one, on today's date of its clocks (the real one: the browser reads the time).
    expect(await page.locator('#canteen').inputValue()).toBe('default');
    expect(await page.locator('#date').inputValue()).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    await page.locator('#canteen').selectOption(canteen);
    await page.locator('#date').fill(day);
    await page.locator('#status[data-kind="live"]').waitFor();
    await page.locator('[data-meal-id="4"]').waitFor();
    expect(new URL(page.url()).search).toBe(`?canteen=${canteen}&date=${day}`);
    const lefts = await page
      .locator('#meals .meal')
      .evaluateAll((cards) => cards.map((card) => card.getBoundingClientRect().left));
    expect(new Set(lefts).size).toBe(1);
    const width = await page.evaluate(
      () => (globalThis as unknown as PageGlobals).document.documentElement.scrollWidth,
    );
    expect(width).toBeLessThanOrEqual(390);
    expect(problems).toEqual([]);
  }, 60_000);
});
