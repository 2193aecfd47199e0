import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  call,
  canteen,
  day,
  launchBrowser,
  openPage,
  type PageGlobals,
  seed,
  seriousViolations,
  startServer,
  thirtyMeals,
  untilTextIs,
  type Server,
} from './support/kitchen-browser.js';

// The wall mode and the phone in a real headless Chromium: 30 meals (and a placeholder) on one 1920x1080 screen,
// German and English, photographed for docs/kitchen.md.
const docs = fileURLToPath(new URL('../../../docs/', import.meta.url));
const placeholder = { meal_id: 31, name: 'Kein Angebot', category: 'Side', ratings: [], labels: ['placeholder'] };

let server: Server;
let origin: string;
let browser: Browser;

beforeAll(async () => {
  ({ server, origin } = await startServer());
  await seed(origin, [...thirtyMeals, placeholder]);
  browser = await launchBrowser();
  mkdirSync(docs, { recursive: true });
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await server?.app.close();
});

const wallUrl = (lang: 'en' | 'de') => `${origin}/dashboard?canteen=${canteen}&date=${day}&mode=wall&lang=${lang}`;
const live = (page: Page) => page.locator('#status[data-kind="live"]').waitFor();

describe('the wall mode', () => {
  it('shows 30 meals on a 1920x1080 screen without a scroll bar, hides the placeholder, and passes axe', async () => {
    const { page, problems } = await openPage(browser, wallUrl('en'), {
      viewport: { width: 1920, height: 1080 },
      bypassCSP: true,
    });
    await live(page);
    await page.locator('#ranking .ranked').nth(9).waitFor();
    expect(await page.locator('#meals .meal:visible').count()).toBe(30);
    expect(await page.locator('#meals .meal-name').allTextContents()).not.toContain('Kein Angebot');
    expect(await page.locator('h1').textContent()).toBe('Today at Mensa Nord');
    // Nothing to click on the wall, and nothing below the screen's edge.
    expect(await page.locator('select, input, button').count()).toBe(0);
    const { scrollHeight, innerHeight } = await page.evaluate(() => ({
      scrollHeight: (globalThis as unknown as PageGlobals).document.scrollingElement!.scrollHeight,
      innerHeight: (globalThis as unknown as PageGlobals).innerHeight,
    }));
    expect(scrollHeight).toBeLessThanOrEqual(innerHeight);
    // Every card lies within the screen (none is cut off by the layout's own clipping).
    const bottoms = await page
      .locator('#meals .meal')
      .evaluateAll((cards) => cards.map((card) => card.getBoundingClientRect().bottom));
    expect(Math.max(...bottoms)).toBeLessThanOrEqual(1080);
    // The ranking explained: the average with its count, and the lower bound as a bar.
    expect(await page.locator('#ranking [data-meal-id="2"] .ranked-figures').textContent()).toBe('4.0 (5 ratings)');
    expect(await page.locator('.ranking-explained').textContent()).toMatch(
      /^Ranked by how sure we are that it is good/,
    );
    expect(await seriousViolations(page)).toEqual([]);
    await page.screenshot({ path: `${docs}kitchen-wall-en.png` });
    expect(problems).toEqual([]);
  }, 60_000);

  it('speaks German, from ?lang= or Accept-Language', async () => {
    const { page, problems } = await openPage(browser, wallUrl('de'), { viewport: { width: 1920, height: 1080 } });
    await live(page);
    await page.locator('#ranking .ranked').nth(9).waitFor();
    expect(await page.locator('h1').textContent()).toBe('Heute in Mensa Nord');
    expect(await page.locator('#ranking [data-meal-id="2"] .ranked-figures').textContent()).toBe('4,0 (5 Bewertungen)');
    await page.screenshot({ path: `${docs}kitchen-wall-de.png` });
    const accepted = await openPage(browser, `${origin}/dashboard?canteen=${canteen}&date=${day}&mode=wall`, {
      viewport: { width: 1920, height: 1080 },
      locale: 'de-DE',
      extraHTTPHeaders: { 'accept-language': 'de-DE,de;q=0.9' },
    });
    await live(accepted.page);
    expect(await accepted.page.locator('#meals-heading').textContent()).toBe('Gerichte');
    expect([...problems, ...accepted.problems]).toEqual([]);
  }, 60_000);

  it('breaks long German names between words (or after a hyphen), never inside a word (issue 39: "Gemüselasagn e")', async () => {
    const names = [
      'Gemüselasagne mit Béchamelsauce',
      'Schweinerückensteak mit Kräuterbutter',
      'Hähnchenbrustfilet in Zitronen-Rahmsoße',
      'Kartoffel-Gemüse-Pfanne mit Sauerrahmdip',
      'Tomatensuppe',
    ];
    await call(origin, 'PUT', '/admin/canteens/mensa-west', {
      name: 'Mensa West',
      timezone: 'Europe/Berlin',
      city: 'Aachen',
    });
    await call(origin, 'PUT', '/admin/meals', {
      meals: [...names, ...thirtyMeals.slice(5).map((meal) => meal.name)].map((name, index) => ({
        meal_id: 300 + index,
        name,
        served_at: `${day}T11:30:00+01:00`,
        rateable: true,
        canteen_id: 'mensa-west',
      })),
    });
    const url = `${origin}/dashboard?canteen=mensa-west&date=${day}&mode=wall&lang=de`;
    const { page, problems } = await openPage(browser, url, { viewport: { width: 1920, height: 1080 } });
    await live(page);
    // Each part a line may break between (a word, a hyphenated word's part) lies on one line: one box.
    const broken = await page.locator('#meals .meal-name').evaluateAll((elements) =>
      elements.flatMap((element) => {
        const text = element.firstChild!;
        const content = text.textContent ?? '';
        const parts: string[] = [];
        for (const match of content.matchAll(/[^\s-]+-?/g)) {
          const range = element.ownerDocument.createRange();
          range.setStart(text, match.index);
          range.setEnd(text, match.index + match[0].length);
          if (range.getClientRects().length > 1) parts.push(match[0]);
        }
        return parts;
      }),
    );
    expect(broken).toEqual([]);
    // The names that needed it are written smaller, the others as they were.
    const sizes = await page
      .locator('#meals .meal-name')
      .evaluateAll((elements) => elements.slice(0, 5).map((element) => element.style.fontSize));
    expect(sizes[1]).not.toBe('');
    expect(sizes[4]).toBe('');
    expect(problems).toEqual([]);
  }, 60_000);

  it('shows the first 30 of 35 meals and says which page it shows (the pages turn every 15 s: paging.test.ts)', async () => {
    await call(origin, 'PUT', '/admin/canteens/mensa-sued', {
      name: 'Mensa Süd',
      timezone: 'Europe/Berlin',
      city: 'Aachen',
    });
    await call(origin, 'PUT', '/admin/meals', {
      meals: Array.from({ length: 35 }, (_, index) => ({
        meal_id: 100 + index,
        name: `${thirtyMeals[index % 30]!.name} (${index + 1})`,
        served_at: `${day}T11:30:00+01:00`,
        rateable: true,
        canteen_id: 'mensa-sued',
      })),
    });
    const url = `${origin}/dashboard?canteen=mensa-sued&date=${day}&mode=wall`;
    const { page, problems } = await openPage(browser, url, { viewport: { width: 1920, height: 1080 } });
    await live(page);
    expect(await page.locator('#meals .meal').count()).toBe(35);
    expect(await page.locator('#meals .meal:visible').count()).toBe(30);
    expect(await page.locator('#page-of').textContent()).toBe('Page 1 of 2');
    const { scrollHeight, innerHeight } = await page.evaluate(() => ({
      scrollHeight: (globalThis as unknown as PageGlobals).document.scrollingElement!.scrollHeight,
      innerHeight: (globalThis as unknown as PageGlobals).innerHeight,
    }));
    expect(scrollHeight).toBeLessThanOrEqual(innerHeight);
    expect(problems).toEqual([]);
  }, 60_000);

  it('turns to the next day by itself after midnight in the canteen’s zone, when no day was asked', async () => {
    const nextDay = '2026-03-11';
    await call(origin, 'PUT', '/admin/canteens/mensa-ost', {
      name: 'Mensa Ost',
      timezone: 'Europe/Berlin',
      city: 'Aachen',
    });
    await call(origin, 'PUT', '/admin/meals', {
      meals: [
        {
          meal_id: 200,
          name: 'Spätzle mit Linsen',
          served_at: `${day}T11:30:00+01:00`,
          rateable: true,
          canteen_id: 'mensa-ost',
        },
        {
          meal_id: 201,
          name: 'Fischstäbchen mit Kartoffelsalat',
          served_at: `${nextDay}T11:30:00+01:00`,
          rateable: true,
          canteen_id: 'mensa-ost',
        },
      ],
    });
    // The page's clock (Date and its timers) at 23:58 in Berlin (UTC+1 in March); the server's stays its own.
    const { page, problems } = await openPage(
      browser,
      `${origin}/dashboard?canteen=mensa-ost&mode=wall`,
      { viewport: { width: 1920, height: 1080 } },
      (context) => context.clock.install({ time: new Date(`${day}T22:58:00Z`) }),
    );
    await live(page);
    expect(await page.locator('#wall-day').textContent()).toBe(day);
    expect(await page.locator('#meals .meal-name').allTextContents()).toEqual(['Spätzle mit Linsen']);
    // Still the same day a minute later; the check after midnight (it runs every minute) shows the next day's menu.
    await page.clock.runFor(60_000);
    expect(await page.locator('#wall-day').textContent()).toBe(day);
    await page.clock.runFor(120_000);
    await untilTextIs(page, '#wall-day', nextDay);
    await live(page);
    await page.locator('#meals .meal-name', { hasText: 'Fischstäbchen mit Kartoffelsalat' }).waitFor();
    expect(await page.locator('#meals .meal-name').allTextContents()).toEqual(['Fischstäbchen mit Kartoffelsalat']);
    expect(problems).toEqual([]);
  }, 60_000);

  it('asks which canteen when opened without one, a link each', async () => {
    const { page, problems } = await openPage(browser, `${origin}/dashboard?mode=wall&date=${day}`, {
      viewport: { width: 1920, height: 1080 },
    });
    await page.locator('.canteen-choice a').nth(1).waitFor();
    expect(await page.locator('h1').textContent()).toBe('Which canteen should this screen show?');
    await page.getByRole('link', { name: 'Mensa Nord' }).click();
    await live(page);
    expect(new URL(page.url()).searchParams.get('canteen')).toBe(canteen);
    expect(await page.locator('#meals .meal').count()).toBe(30);
    expect(problems).toEqual([]);
  }, 60_000);
});

describe('the dashboard on a phone', () => {
  for (const lang of ['en', 'de'] as const) {
    it(`shows the ranking first, then the meals, in one column (${lang})`, async () => {
      const url = `${origin}/dashboard?canteen=${canteen}&date=${day}&lang=${lang}`;
      const { page, problems } = await openPage(browser, url, {
        viewport: { width: 390, height: 844 },
        isMobile: true,
        hasTouch: true,
      });
      await live(page);
      await page.locator('#ranking .ranked').nth(29).waitFor();
      const top = (selector: string) => page.locator(selector).evaluate((node) => node.getBoundingClientRect().top);
      expect(await top('#ranking-heading')).toBeLessThan(await top('#meals-heading'));
      const width = await page.evaluate(
        () => (globalThis as unknown as PageGlobals).document.documentElement.scrollWidth,
      );
      expect(width).toBeLessThanOrEqual(390);
      await page.screenshot({ path: `${docs}kitchen-phone-${lang}.png` });
      expect(problems).toEqual([]);
    }, 60_000);
  }
});
