import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { kitchenScope, signHmacToken } from '@canteen-meals/adapters-http';
import { createMealsClient, type LiveEvent } from '@canteen-meals/client';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  call,
  canteen,
  day,
  launchBrowser,
  openPage,
  secret,
  seed,
  seriousViolations,
  startServer,
  thirtyMeals,
  type Server,
} from './support/kitchen-browser.js';

// The kitchen's mode in a real headless Chromium: a cook on a tablet taps a meal sold out, a wall screen strikes it
// through, an SSE client hears it; the undo takes it back.
const docs = fileURLToPath(new URL('../../../docs/', import.meta.url));
const cook = signHmacToken(secret, { sub: 'cook', scope: kitchenScope });
const meals = thirtyMeals.slice(0, 6);

let server: Server;
let origin: string;
let browser: Browser;

beforeAll(async () => {
  ({ server, origin } = await startServer());
  await seed(origin, meals);
  // Tomorrow's soup: not the kitchen's to change yet (409 for meals:kitchen).
  await call(origin, 'PUT', '/admin/meals', {
    meals: [
      { meal_id: 50, name: 'Pea soup', served_at: '2026-03-11T11:30:00+01:00', rateable: true, canteen_id: canteen },
    ],
  });
  browser = await launchBrowser();
  mkdirSync(docs, { recursive: true });
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await server?.app.close();
});

/** The staff page on a tablet, signed in with a pasted kitchen token. */
async function staffPage(lang: 'en' | 'de', bypassCSP = false, date = day) {
  const url = `${origin}/dashboard?canteen=${canteen}&date=${date}&mode=kitchen&lang=${lang}`;
  const opened = await openPage(browser, url, { viewport: { width: 1280, height: 800 }, hasTouch: true, bypassCSP });
  await opened.page.locator('#pasted-token').fill(cook);
  await opened.page.locator('#pasted-token').press('Enter');
  await opened.page.locator('#status[data-kind="live"]').waitFor();
  return opened;
}

const button = (page: Page, mealId: number) => page.locator(`[data-meal-id="${mealId}"] .availability-button`);

/**
 * How the page draws a name's line: "line-through" when struck through (the test is compiled without the DOM's types).
 */
const strikeOf = (name: unknown) =>
  (globalThis as unknown as { getComputedStyle(node: unknown): { textDecorationLine: string } }).getComputedStyle(name)
    .textDecorationLine;

/** Now on the page's own clock (the milliseconds since the epoch): both pages run in one browser on one machine. */
const pageNow = (page: Page) => page.evaluate(() => Date.now());

describe("the kitchen's mode", () => {
  it('taps a meal sold out: the wall strikes it through within 1 s, an SSE client gets the event, undo takes it back', async () => {
    const { page: staff, problems } = await staffPage('en', true);
    const wall = await openPage(browser, `${origin}/dashboard?canteen=${canteen}&date=${day}&mode=wall`, {
      viewport: { width: 1920, height: 1080 },
    });
    await wall.page.locator('#status[data-kind="live"]').waitFor();
    // The wall notes, on its own clock, when the curry's card turns sold out.
    await wall.page.evaluate(() => {
      const scope = globalThis as unknown as {
        document: { body: object; querySelector(selector: string): object | null };
        MutationObserver: new (callback: () => void) => { observe(node: object, options: object): void };
        soldOutAt?: number;
      };
      // The whole page, not one card: a snapshot may redraw the cards.
      new scope.MutationObserver(() => {
        if (
          scope.soldOutAt === undefined &&
          scope.document.querySelector('.meal[data-meal-id="2"][data-availability="sold_out"]') !== null
        ) {
          scope.soldOutAt = Date.now();
        }
      }).observe(scope.document.body, { attributes: true, childList: true, subtree: true });
    });

    const events: LiveEvent[] = [];
    const listening = new AbortController();
    const heard = (async () => {
      for await (const event of createMealsClient({ baseUrl: origin }).liveStatistics({
        canteen,
        date: day,
        signal: listening.signal,
      })) {
        events.push(event);
        if (event.type === 'availability' && event.meal.availability === 'sold_out') return event;
      }
      return null;
    })();

    expect(await button(staff, 2).textContent()).toBe('Available');
    expect(await button(staff, 2).getAttribute('aria-label')).toBe('Lentil curry & rice: Available. Tap for Few left');
    // Large enough for a finger on a tablet.
    const box = await button(staff, 2).boundingBox();
    expect(Math.min(box!.width, box!.height)).toBeGreaterThanOrEqual(44);
    await button(staff, 2).tap();
    await staff.locator('.meal[data-meal-id="2"][data-availability="few_left"]').waitFor();
    expect(await staff.locator('#undo-bar .undo-text').textContent()).toBe('Lentil curry & rice: Few left');
    const tappedAt = await pageNow(staff);
    await button(staff, 2).tap();
    await wall.page.locator('.meal[data-meal-id="2"][data-availability="sold_out"]').waitFor();
    const soldOutAt = await wall.page.evaluate(() => (globalThis as unknown as { soldOutAt: number }).soldOutAt);
    expect(soldOutAt - tappedAt).toBeLessThan(1000);
    const line = await wall.page.locator('[data-meal-id="2"] .meal-name').evaluate(strikeOf);
    expect(line).toBe('line-through');
    expect(await wall.page.locator('[data-meal-id="2"] .availability').textContent()).toBe('Sold out');
    // The ranking strikes it through too (its place stays: the kitchen's news is no verdict on the food).
    await wall.page.locator('#ranking .ranked[data-meal-id="2"][data-availability="sold_out"]').waitFor();

    const event = await heard;
    listening.abort();
    expect(event).toMatchObject({ type: 'availability', meal: { meal_id: 2, availability: 'sold_out' } });
    expect(
      events
        .filter((each) => each.type === 'availability')
        .map((each) => (each as { meal: { availability: string } }).meal.availability),
    ).toEqual(['few_left', 'sold_out']);

    expect(await seriousViolations(staff)).toEqual([]);
    await staff.locator('h1').scrollIntoViewIfNeeded();
    await staff.screenshot({ path: `${docs}kitchen-staff-en.png` });

    // The undo, within its 10 s: back to few left, everywhere.
    await staff.getByRole('button', { name: 'Undo: Lentil curry & rice back to Few left' }).tap();
    await wall.page.locator('.meal[data-meal-id="2"][data-availability="few_left"]').waitFor();
    expect(await wall.page.locator('[data-meal-id="2"] .meal-name').evaluate(strikeOf)).toBe('none');
    expect(await staff.locator('#undo-bar').isHidden()).toBe(true);
    expect(await button(staff, 2).textContent()).toBe('Few left');
    expect([...problems, ...wall.problems]).toEqual([]);
  }, 60_000);

  it('speaks German, and refuses a token without the kitchen scope', async () => {
    const { page, problems } = await staffPage('de');
    expect(await page.locator('h1').textContent()).toBe('Küche: was noch da ist');
    await button(page, 3).tap();
    await page.locator('.meal[data-meal-id="3"][data-availability="few_left"]').waitFor();
    expect(await page.locator('#undo-bar .undo-text').textContent()).toBe('Fish of the day <Pollock>: Nur noch wenige');
    await page.locator('h1').scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${docs}kitchen-staff-de.png` });

    const guest = await openPage(browser, `${origin}/dashboard?canteen=${canteen}&mode=kitchen`, {
      viewport: { width: 800, height: 600 },
    });
    await guest.page.locator('#pasted-token').fill(signHmacToken(secret, { sub: 'guest' }));
    await guest.page.locator('#pasted-token').press('Enter');
    // The page asked the API what the token may do (GET /me/access) before offering a button.
    await guest.page.getByRole('heading', { name: 'Not allowed' }).waitFor();
    expect(await guest.page.locator('main').textContent()).toContain('meals:kitchen');
    expect(await guest.page.locator('.meal').count()).toBe(0);
    expect([...problems, ...guest.problems]).toEqual([]);
  }, 60_000);

  it("says so when the API refuses a change (tomorrow's meal), and keeps the status as it was", async () => {
    const { page, problems } = await staffPage('en', false, '2026-03-11');
    await button(page, 50).tap();
    await page.locator('#status[data-kind="error"]').waitFor();
    expect(await page.locator('#status').textContent()).toMatch(/^Not changed: /);
    expect(await button(page, 50).textContent()).toBe('Available');
    expect(await page.locator('#undo-bar').isHidden()).toBe(true);
    // The refusal's 409 is what the browser logs; nothing else.
    expect(problems.filter((problem) => !problem.includes('409'))).toEqual([]);
  }, 60_000);
});
