import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { adminScope, signHmacToken } from '@canteen-meals/adapters-http';
import { FixedClock } from '@canteen-meals/adapters-memory';
import chromium from '@sparticuz/chromium';
import {
  chromium as playwright,
  type Browser,
  type BrowserContext,
  type BrowserContextOptions,
  type Page,
} from 'playwright-core';
import { expect } from 'vitest';
import { buildServer } from '../../src/composition-root.js';
import { loadConfig } from '../../src/config.js';

// What the kitchen page's browser tests share: a server on a port, meals seeded through the API as the kitchen's
// tools would, a headless Chromium from npm, pages whose console errors are collected, and axe-core's verdict.
export const secret = 'kitchen-browser-secret-of-at-least-32-bytes';
export const admin = signHmacToken(secret, { sub: 'kitchen-admin', scope: adminScope });
export const canteen = 'mensa-nord';
export const day = '2026-03-10';
/** 13:00 in Berlin: the day's lunch has been served, so its meals take ratings. */
export const clock = new FixedClock('2026-03-10T12:00:00Z');

export type Server = Awaited<ReturnType<typeof buildServer>>;

export async function startServer(databaseUrl = 'memory:', port = 0): Promise<{ server: Server; origin: string }> {
  const config = loadConfig({ JWT_SECRET: secret, DATABASE_URL: databaseUrl, LOG_LEVEL: 'silent' });
  const server = await buildServer(config, { clock });
  await server.app.listen({ host: '127.0.0.1', port });
  return { server, origin: `http://127.0.0.1:${(server.app.server.address() as AddressInfo).port}` };
}

export async function call(
  origin: string,
  method: 'PUT' | 'POST',
  path: string,
  body: unknown,
  token = admin,
): Promise<unknown> {
  const response = await fetch(`${origin}/api/v1${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  expect(response.status, `${method} ${path}: ${await response.clone().text()}`).toBeLessThan(300);
  return response.json();
}

export const rate = (origin: string, user: string, mealId: number, rating: number) =>
  call(origin, 'POST', '/rate-meal', { meal_id: mealId, rating }, signHmacToken(secret, { sub: user }));

export interface SeedMeal {
  readonly meal_id: number;
  readonly name: string;
  readonly category: string;
  readonly ratings: readonly number[];
  readonly labels?: readonly string[];
}

/** 30 meals of a large canteen's day (the wall's full page), a few rated, as a wall would see them at lunch. */
export const thirtyMeals: readonly SeedMeal[] = [
  'Käsespätzle with fried onions',
  'Lentil curry & rice',
  'Fish of the day <Pollock>',
  'Tomato soup',
  'Chicken schnitzel',
  'Vegan chili sin carne',
  'Spaghetti bolognese',
  'Falafel wrap',
  'Potato goulash',
  'Beef stew with dumplings',
  'Mushroom risotto',
  'Greek salad',
  'Currywurst with fries',
  'Vegetable lasagne',
  'Pumpkin soup',
  'Turkey kebab',
  'Sweet and sour tofu',
  'Flammkuchen',
  'Baked potato with quark',
  'Salmon with dill sauce',
  'Ratatouille with rice',
  'Pasta arrabbiata',
  'Chicken tikka masala',
  'Bean burger',
  'Cabbage rolls',
  'Apple strudel',
  'Semolina pudding',
  'Fruit salad',
  'Caesar salad',
  'Maultaschen in broth',
].map((name, index) => ({
  meal_id: index + 1,
  name,
  category: index % 3 === 0 ? 'Main course' : index % 3 === 1 ? 'Vegan' : 'Side',
  ratings:
    index < 6 ? [[5, 5, 4, 4, 4, 3, 5, 2], [4, 5, 3, 4, 4], [3, 2, 4, 1, 3, 3], [5], [4, 4], [3, 5, 4]][index]! : [],
}));

export async function seed(origin: string, meals: readonly SeedMeal[]): Promise<void> {
  await call(origin, 'PUT', `/admin/canteens/${canteen}`, {
    name: 'Mensa Nord',
    timezone: 'Europe/Berlin',
    city: 'Aachen',
  });
  await call(origin, 'PUT', '/admin/meals', {
    meals: meals.map(({ meal_id, name, category, labels }) => ({
      meal_id,
      name,
      category,
      served_at: `${day}T11:30:00+01:00`,
      rateable: true,
      canteen_id: canteen,
      ...(labels === undefined ? {} : { labels }),
    })),
  });
  for (const meal of meals) {
    for (const [index, rating] of meal.ratings.entries())
      await rate(origin, `guest-${meal.meal_id}-${index}`, meal.meal_id, rating);
  }
}

/** Chromium from npm; several pages at once, so not as one process (which ends with its last page). */
export async function launchBrowser(): Promise<Browser> {
  const args = chromium.args.filter((arg) => arg !== '--single-process');
  return playwright.launch({ executablePath: await chromium.executablePath(), args, headless: true });
}

/**
 * A new page in its own context, with every console error and uncaught exception of it collected; `prepare` runs on
 * the context before the page loads (e.g. to install a clock).
 */
export async function openPage(
  browser: Browser,
  url: string,
  options: BrowserContextOptions = {},
  prepare?: (context: BrowserContext) => Promise<void>,
) {
  const context = await browser.newContext(options);
  await prepare?.(context);
  const page = await context.newPage();
  const problems: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error' || message.type() === 'warning')
      problems.push(`console.${message.type()}: ${message.text()}`);
  });
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  await page.goto(url);
  return { page, problems };
}

/** The little of the page's globals these tests read: they are compiled without the DOM's types. */
export interface PageGlobals {
  readonly innerHeight: number;
  readonly document: {
    querySelector(selector: string): { readonly textContent: string | null } | null;
    readonly scrollingElement: { readonly scrollHeight: number; readonly scrollWidth: number } | null;
    readonly documentElement: { readonly scrollWidth: number };
  };
  readonly axe: {
    run(): Promise<{ violations: { id: string; impact: string | null; help: string; nodes: unknown[] }[] }>;
  };
}
export const pageGlobals = () => globalThis as unknown as PageGlobals;

/** Waits until the element's text is that, polling in the page (a function: the page's CSP refuses eval). */
export const untilTextIs = (page: Page, selector: string, text: string) =>
  page.waitForFunction(
    ([selector, text]) => (globalThis as unknown as PageGlobals).document.querySelector(selector)?.textContent === text,
    [selector, text] as const,
  );

/**
 * axe-core's serious and critical violations on the page. Its script is injected inline, which the page's CSP
 * refuses: the page must come from a context opened with `bypassCSP: true` (the page's own scripts are the same).
 */
export async function seriousViolations(page: Page): Promise<string[]> {
  await page.addScriptTag({ path: createRequire(import.meta.url).resolve('axe-core') });
  const { violations } = await page.evaluate(() => (globalThis as unknown as PageGlobals).axe.run());
  return violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map((violation) => `${violation.id}: ${violation.help} (${violation.nodes.length})`);
}
