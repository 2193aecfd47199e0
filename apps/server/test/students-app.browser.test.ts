import type { AddressInfo } from 'node:net';
import AxeBuilder from '@axe-core/playwright';
import type { UseCases } from '@canteen-meals/domain';
import { startTestOidcProvider, testUsers, type TestOidcProvider } from '@canteen-meals/test-oidc';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildServer, tokens } from '../src/composition-root.js';
import { loadConfig } from '../src/config.js';
import { launchBrowser } from './support/kitchen-browser.js';
import { providerSettings, signInAtProvider } from './support/provider-sign-in.js';

// The students' app at `/` in a real headless Chromium: a student filters the menu, signs in at a real
// OpenID provider (packages/test-oidc), rates with the stars (pointer and keyboard), marks a favourite, hides a dish,
// sees a meal go sold out live, downloads and erases their data, and starts the app offline on the last menu with a
// rating tapped offline sent once back online. axe-core checks every view in both languages, signed in and out.
const audience = 'https://meals.students-app.test/api';
const canteenId = 'mensa-campus';
let oidc: TestOidcProvider;
let server: Awaited<ReturnType<typeof buildServer>>;
let useCases: UseCases;
let origin: string;
let browser: Browser;
/** The canteen's zone: its clocks read about noon while the tests run. */
let zone: string;

/**
 * A zone whose clocks read about noon now, whatever the hour here: "today" on the canteen's clocks is then the
 * browser's today for the test's few minutes, and a meal served half an hour ago is today's lunch, open for rating.
 */
function noonZone(now: Date): string {
  const offset = Math.round(12 - (now.getUTCHours() + now.getUTCMinutes() / 60));
  return offset === 0 ? 'Etc/GMT' : `Etc/GMT${offset > 0 ? '-' : '+'}${Math.abs(offset)}`;
}

const minute = 60_000;
const day = 24 * 60 * minute;

beforeAll(async () => {
  oidc = await startTestOidcProvider({ audience });
  const config = loadConfig({
    DATABASE_URL: 'memory:',
    LOG_LEVEL: 'silent',
    ...providerSettings(oidc),
    FEED_CHECK_INTERVAL_S: '0',
  });
  server = await buildServer(config);
  await server.app.listen({ host: '127.0.0.1', port: 0 });
  origin = `http://127.0.0.1:${(server.app.server.address() as AddressInfo).port}`;
  oidc.registerPages(origin);
  useCases = server.container.resolve<UseCases>(tokens.useCases);

  const now = new Date();
  zone = noonZone(now);
  const ok = <T>(result: { ok: boolean; value?: T; error?: unknown }) => {
    expect(result.ok, JSON.stringify(result.error)).toBe(true);
    return result.value as T;
  };
  ok(
    await useCases.saveCanteen.execute({
      id: canteenId,
      name: 'Mensa am Campus',
      timeZone: zone,
      city: 'Aachen',
      address: null,
      coordinates: null,
      feeds: [],
    }),
  );
  const lunch = new Date(now.getTime() - 30 * minute);
  const prices = (student: string) => ({ student, employee: '5.20', pupil: student, other: '6.40' });
  ok(
    await useCases.upsertMeals.execute([
      {
        id: 1,
        name: 'Käsespätzle',
        servedAt: lunch,
        rateable: true,
        canteenId,
        category: 'Main course',
        labels: ['wheat', 'milk', 'eggs'],
        prices: prices('3.10'),
      },
      {
        id: 2,
        name: 'Vegan curry',
        servedAt: lunch,
        rateable: true,
        canteenId,
        category: 'Vegan',
        labels: ['vegan', 'celery'],
        prices: prices('2.90'),
      },
      {
        id: 3,
        name: 'Tomato soup',
        servedAt: lunch,
        rateable: true,
        canteenId,
        category: 'Soups',
        labels: ['celery'],
        prices: prices('1.50'),
      },
      {
        id: 4,
        name: 'Schnitzel',
        servedAt: new Date(now.getTime() + day),
        rateable: true,
        canteenId,
        category: 'Main course',
        labels: ['pork', 'wheat'],
        prices: prices('3.90'),
      },
      // A feed's "no offer" line: not a meal, never shown as one.
      {
        id: 6,
        name: 'Kein Angebot',
        servedAt: lunch,
        rateable: false,
        canteenId,
        category: 'Soups',
        labels: ['placeholder'],
      },
      {
        id: 5,
        name: 'Fish of the day',
        servedAt: new Date(now.getTime() - 9 * day),
        rateable: true,
        canteenId,
        category: 'Main course',
        labels: ['fish'],
        prices: prices('3.50'),
      },
    ]),
  );
  for (const [user, rating] of [
    ['ann', 5],
    ['ben', 4],
    ['cem', 4],
  ] as const)
    ok(await useCases.rateMeal.execute({ userId: user, mealId: 2, rating }));
  // The day after tomorrow the canteen is closed.
  ok(
    await useCases.setDayClosed.execute({
      canteenId,
      date: canteenDay(new Date(now.getTime() + 2 * day)),
      closed: true,
    }),
  );
  // Several contexts at once (a person each): the packaged Chromium not as one process.
  browser = await launchBrowser();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await server?.app.close();
  await oidc?.close();
});

/** A student's phone: a small screen, touch, its own storage; every error of the app's pages collected. */
async function phone(options: { colorScheme?: 'light' | 'dark'; locale?: string } = {}) {
  const context = await browser.newContext({
    viewport: { width: 390, height: 844 },
    hasTouch: true,
    isMobile: true,
    colorScheme: options.colorScheme ?? 'light',
    locale: options.locale ?? 'en-GB',
    acceptDownloads: true,
  });
  // A step that waits longer than this failed: its error names it, before the test's own time runs out.
  context.setDefaultTimeout(15_000);
  const page = await context.newPage();
  const problems: string[] = [];
  page.on('console', (message) => {
    // Offline, Chromium logs each request that found no network; the app's own errors are what counts.
    if (message.text().includes('net::ERR_INTERNET_DISCONNECTED')) return;
    if (message.type() === 'error' && page.url().startsWith(origin)) problems.push(`console.error: ${message.text()}`);
  });
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  return { context, page, problems };
}

const meal = (page: Page, name: string) => page.getByRole('article', { name });

/** axe-core's violations of WCAG 2.1 A and AA on the page as it is now. */
async function wcagViolations(page: Page): Promise<string[]> {
  const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
  return results.violations.map(
    (violation) =>
      `${violation.id}: ${violation.help} (${violation.nodes.map((node) => node.target.join(' ')).join(', ')})`,
  );
}

const signIn = (page: Page, login: string, buttonName = 'Sign in') =>
  signInAtProvider(page, oidc, origin, login, buttonName);

async function labelName(code: string, language: 'en' | 'de'): Promise<string> {
  const answer = (await (await fetch(`${origin}/api/v1/labels`)).json()) as {
    data: { labels: { code: string; name: Record<string, string> }[] };
  };
  return answer.data.labels.find((label) => label.code === code)!.name[language]!;
}

async function close(context: BrowserContext, problems: readonly string[]) {
  await context.close();
  expect(problems).toEqual([]);
}

describe("the students' app", () => {
  it('shows the day’s menu by category with prices and labels, filters it signed out (kept over a reload), and passes axe in English and German', async () => {
    const { context, page, problems } = await phone();
    await page.goto(`${origin}/?canteen=${canteenId}`);
    const spaetzle = meal(page, 'Käsespätzle');
    await spaetzle.waitFor();
    await expect.poll(() => page.locator('html').getAttribute('lang')).toBe('en');
    // Grouped by category, each a section named by its heading, in menu order; tomorrow's meal is not today's.
    expect(await page.locator('section.category h2').allTextContents()).toEqual(['Main course', 'Vegan', 'Soups']);
    expect(await page.getByRole('article').count()).toBe(3);
    await spaetzle.getByText('€3.10').waitFor();
    await spaetzle.getByText(await labelName('milk', 'en'), { exact: true }).waitFor();
    await meal(page, 'Vegan curry').getByText('4.3 of 5 stars from 3 ratings').waitFor();
    // The day's best by the ranking (the only rated meal: first).
    await meal(page, 'Vegan curry').getByText('Top 1 of the day').waitFor();
    expect(await spaetzle.getByText(/^Top \d of the day$/).count()).toBe(0);
    await spaetzle.getByText('Sign in to rate meals and mark favourites.').waitFor();
    expect(await spaetzle.getByRole('radiogroup').count()).toBe(0);
    await page.getByRole('button', { name: 'Sign in' }).waitFor();
    expect(await wcagViolations(page)).toEqual([]);

    // The day strip: a closed day says so, and its menu too.
    const closedDay = page.getByRole('navigation', { name: 'Days' }).getByRole('link', { name: /closed/ });
    expect(await closedDay.count()).toBe(1);
    await closedDay.click();
    await page.getByText('The canteen is closed on this day.').waitFor();
    expect(new URL(page.url()).searchParams.get('date')).toBe(canteenDay(new Date(Date.now() + 2 * day)));
    await page.getByRole('navigation', { name: 'Days' }).getByRole('link', { name: /Today/ }).click();
    await spaetzle.waitFor();

    // The price for another group, remembered.
    await page.getByLabel('Prices for').selectOption('employee');
    await spaetzle.getByText('€5.20').waitFor();

    // Filters: leave out celery; the two meals with it are hidden, counted, and can be shown.
    await page.getByRole('button', { name: 'Filters' }).click();
    const leaveOut = page.getByRole('group', { name: 'Leave out' });
    await leaveOut.getByRole('checkbox', { name: await labelName('celery', 'en'), exact: true }).check();
    await meal(page, 'Vegan curry').waitFor({ state: 'detached' });
    expect(await page.getByRole('article').count()).toBe(1);
    await page.getByText('2 meals are hidden by your filters.').waitFor();
    expect(
      await page
        .getByRole('group', { name: 'Only' })
        .getByRole('checkbox', { name: await labelName('vegan', 'en'), exact: true })
        .count(),
    ).toBe(1);
    expect(await wcagViolations(page)).toEqual([]);
    await page.getByRole('button', { name: 'Show them' }).click();
    await meal(page, 'Tomato soup').getByText('Hidden by your filters').waitFor();
    await page.getByRole('button', { name: 'Hide them again' }).click();
    await meal(page, 'Tomato soup').waitFor({ state: 'detached' });

    // A reload keeps the filter and the price group (signed out: in this browser); the app without a link opens the
    // canteen chosen last (not the first of the list, the demo's `default`).
    await page.goto(`${origin}/`);
    await page.getByRole('heading', { level: 1, name: /Mensa am Campus/ }).waitFor();
    await page.getByRole('button', { name: 'Filters (1)' }).waitFor();
    await spaetzle.getByText('€5.20').waitFor();
    expect(await page.getByRole('article').count()).toBe(1);

    // The other views, signed out, say what signing in brings.
    await page.getByRole('link', { name: 'Favourites' }).click();
    await page.getByText('Sign in to see your favourites coming up.').waitFor();
    expect(await wcagViolations(page)).toEqual([]);
    await page.getByRole('link', { name: 'My data' }).click();
    await page.getByText('Sign in to see and manage your data.').waitFor();
    expect(page.url()).toBe(`${origin}/?view=data`);
    expect(await wcagViolations(page)).toEqual([]);
    await page.goBack();
    await page.getByText('Sign in to see your favourites coming up.').waitFor();
    await close(context, problems);

    // In German, chosen by the browser's language: the texts, the prices and the label names.
    const german = await phone({ locale: 'de-DE', colorScheme: 'dark' });
    await german.page.goto(`${origin}/?canteen=${canteenId}`);
    await meal(german.page, 'Käsespätzle').getByText('3,10 €').waitFor();
    expect(await german.page.locator('html').getAttribute('lang')).toBe('de');
    await meal(german.page, 'Tomato soup')
      .getByText(await labelName('celery', 'de'), { exact: true })
      .waitFor();
    await german.page.getByRole('button', { name: 'Anmelden' }).waitFor();
    await german.page.getByText('Melde dich an, um Gerichte zu bewerten und Favoriten zu merken.').first().waitFor();
    expect(await wcagViolations(german.page)).toEqual([]);
    await german.page.getByRole('button', { name: 'Filter' }).click();
    await german.page.getByRole('group', { name: 'Ohne' }).waitFor();
    await german.page.getByRole('group', { name: 'Nur' }).waitFor();
    expect(await wcagViolations(german.page)).toEqual([]);
    await close(german.context, german.problems);
  }, 120_000);

  it('signs in at the provider, merges the filter into the preferences, rates with the stars (keyboard too), marks, and both show after a reload', async () => {
    // Saved from another device: leaving out fish.
    await useCases.savePreferences.execute({ userId: testUsers.nobody.login, without: ['fish'], only: [] });
    const { context, page, problems } = await phone();
    await page.goto(`${origin}/?canteen=${canteenId}`);
    await meal(page, 'Käsespätzle').waitFor();
    await page.getByRole('button', { name: 'Filters' }).click();
    await page
      .getByRole('group', { name: 'Leave out' })
      .getByRole('checkbox', { name: await labelName('celery', 'en'), exact: true })
      .check();
    await page.getByText('2 meals are hidden by your filters.').waitFor();

    await signIn(page, testUsers.nobody.login);
    await page.getByText(`Signed in as ${testUsers.nobody.name}`).waitFor();
    // No role needed; the token never in the address; the filter of this browser and the saved one, merged.
    expect(page.url()).toBe(`${origin}/?canteen=${canteenId}`);
    // The tokens stay in this tab's sessionStorage: nothing in localStorage looks like one.
    const kept = await page.evaluate(() => {
      const storage = (
        globalThis as unknown as {
          localStorage: {
            readonly length: number;
            key(index: number): string | null;
            getItem(key: string): string | null;
          };
        }
      ).localStorage;
      return Array.from({ length: storage.length }, (_, index) => storage.getItem(storage.key(index)!) ?? '').join(
        '\n',
      );
    });
    expect(kept).not.toMatch(/eyJ|access_token|refresh_token/);
    await page.getByRole('button', { name: 'Filters (2)' }).waitFor();
    expect(await useCases.getPreferences.execute({ userId: testUsers.nobody.login })).toMatchObject({
      filter: { without: ['celery', 'fish'], only: [] },
    });
    await page.getByRole('button', { name: 'Filters (2)' }).click();
    await page
      .getByRole('group', { name: 'Leave out' })
      .getByRole('checkbox', { name: await labelName('celery', 'en'), exact: true })
      .uncheck();
    await meal(page, 'Vegan curry').waitFor();
    await expect
      .poll(async () => (await useCases.getPreferences.execute({ userId: testUsers.nobody.login })).filter.without)
      .toEqual(['fish']);

    // Rating in one tap: the answer's figures at once.
    const curry = meal(page, 'Vegan curry');
    const stars = curry.getByRole('radiogroup', { name: 'Your rating' });
    await stars.getByRole('radio', { name: '1 star' }).waitFor();
    expect(await stars.getByRole('radio').count()).toBe(5);
    await stars.getByRole('radio', { name: '2 stars' }).check();
    await curry.getByText('3.8 of 5 stars from 4 ratings').waitFor();
    // The keyboard: the arrow key moves to the next star and rates with it.
    await stars.getByRole('radio', { name: '2 stars' }).focus();
    await page.keyboard.press('ArrowRight');
    await curry.getByText('4.0 of 5 stars from 4 ratings').waitFor();
    expect(await stars.getByRole('radio', { name: '3 stars' }).isChecked()).toBe(true);
    await expect
      .poll(async () => (await useCases.getMeal.execute({ userId: testUsers.nobody.login, mealId: 2 })).ok)
      .toBe(true);

    // Marking: a toggle button.
    const favourite = curry.getByRole('button', { name: 'Favourite' });
    expect(await favourite.getAttribute('aria-pressed')).toBe('false');
    await favourite.click();
    await expect.poll(() => favourite.getAttribute('aria-pressed')).toBe('true');
    // A meal not served yet, and one served more than a week ago, say why they take no rating.
    await page.goto(`${origin}/?canteen=${canteenId}&date=${await dayOf(4)}`);
    await meal(page, 'Schnitzel').getByText('Rating opens when it is served').waitFor();
    await page.goto(`${origin}/?canteen=${canteenId}&date=${await dayOf(5)}`);
    // Fish is left out by the preferences merged above: shown on request.
    await page.getByText('1 meal is hidden by your filters.').waitFor();
    await page.getByRole('button', { name: 'Show them' }).click();
    await meal(page, 'Fish of the day').getByText('Rating closed a week after serving').waitFor();
    expect(await wcagViolations(page)).toEqual([]);

    // After a reload, from the server: three stars, marked.
    await page.goto(`${origin}/?canteen=${canteenId}`);
    await expect.poll(() => meal(page, 'Vegan curry').getByRole('radio', { name: '3 stars' }).isChecked()).toBe(true);
    await expect
      .poll(() => meal(page, 'Vegan curry').getByRole('button', { name: 'Favourite' }).getAttribute('aria-pressed'))
      .toBe('true');
    expect(await wcagViolations(page)).toEqual([]);

    // "Remove my rating" deletes it.
    await meal(page, 'Käsespätzle').getByRole('radio', { name: '5 stars' }).check();
    await meal(page, 'Käsespätzle').getByText('5.0 of 5 stars from 1 rating').waitFor();
    await meal(page, 'Käsespätzle').getByRole('button', { name: 'Remove my rating' }).click();
    await meal(page, 'Käsespätzle').getByText('Not rated yet').waitFor();

    // Hiding a dish, with an undo; the hidden dishes listed to bring back.
    await meal(page, 'Tomato soup').getByRole('button', { name: 'Hide this dish' }).click();
    await meal(page, 'Tomato soup').waitFor({ state: 'detached' });
    await page.getByRole('button', { name: 'Undo' }).click();
    await meal(page, 'Tomato soup').waitFor();
    await meal(page, 'Tomato soup').getByRole('button', { name: 'Hide this dish' }).click();
    await meal(page, 'Tomato soup').waitFor({ state: 'detached' });

    // Favourites: the marked dish's servings coming up, linking to their day; the hidden dish, to bring back.
    await page.getByRole('link', { name: 'Favourites' }).click();
    await page.getByRole('link', { name: /Vegan curry/ }).waitFor();
    await page.getByRole('button', { name: 'Show “Tomato soup” again' }).waitFor();
    expect(await wcagViolations(page)).toEqual([]);
    await page.getByRole('button', { name: 'Show “Tomato soup” again' }).click();
    await page.getByText('You hide no dish.').waitFor();

    // My data: what was rated and marked, the export as a file, the erasure after a confirmation.
    await page.getByRole('link', { name: 'My data' }).click();
    await page.getByRole('region', { name: 'Meals you rated' }).getByText('Your rating: 3 of 5').waitFor();
    await page.getByRole('region', { name: 'Meals you marked' }).getByText('Vegan curry').waitFor();
    expect(await wcagViolations(page)).toEqual([]);
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Download my data' }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/^canteen-meals-my-data-\d{4}-\d{2}-\d{2}\.json$/);
    const exported = JSON.parse(await streamText(await download.createReadStream())) as {
      ratings: { meal_id: number; rating: number }[];
    };
    expect(exported.ratings).toEqual([expect.objectContaining({ meal_id: 2, rating: 3 })]);
    await page.getByRole('button', { name: 'Erase my data' }).click();
    await page.getByRole('button', { name: 'Yes, erase everything' }).click();
    await page.getByText('Erased 1 rating and 1 marking.').waitFor();
    const after = await useCases.exportUserData.execute({ userId: testUsers.nobody.login });
    expect(after).toMatchObject({ ratings: [], markings: [] });
    await close(context, problems);
  }, 120_000);

  it('shows a meal going sold out and new ratings live, without a reload', async () => {
    const { context, page, problems } = await phone();
    await page.goto(`${origin}/?canteen=${canteenId}`);
    const soup = meal(page, 'Tomato soup');
    await soup.getByText('Not rated yet').waitFor();
    await page.getByText('Live', { exact: true }).waitFor();
    await useCases.setMealAvailability.execute({ mealId: 3, status: 'sold_out', anyDay: true });
    await soup.getByText('Sold out').waitFor();
    await useCases.rateMeal.execute({ userId: 'dora', mealId: 3, rating: 2 });
    await soup.getByText('2.0 of 5 stars from 1 rating').waitFor();
    await useCases.setMealAvailability.execute({ mealId: 3, status: 'few_left', anyDay: true });
    await soup.getByText('Few left').waitFor();
    expect(await wcagViolations(page)).toEqual([]);
    await useCases.setMealAvailability.execute({ mealId: 3, status: 'available', anyDay: true });
    await soup.getByText('Few left').waitFor({ state: 'detached' });

    // Hidden (another tab, the phone locked): the stream closes; back, it opens again and catches up.
    const setVisibility = (state: 'hidden' | 'visible') =>
      page.evaluate((visibility) => {
        const document = (globalThis as unknown as { document: { dispatchEvent(event: Event): boolean } }).document;
        Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => visibility });
        document.dispatchEvent(new Event('visibilitychange'));
      }, state);
    await setVisibility('hidden');
    await page.getByText('Live', { exact: true }).waitFor({ state: 'detached' });
    await useCases.setMealAvailability.execute({ mealId: 3, status: 'sold_out', anyDay: true });
    await setVisibility('visible');
    await page.getByText('Live', { exact: true }).waitFor();
    await soup.getByText('Sold out').waitFor();
    await useCases.setMealAvailability.execute({ mealId: 3, status: 'available', anyDay: true });
    await close(context, problems);
  }, 60_000);

  it('works by keyboard with a visible focus, at 320 px and at 200 % text without scrolling sideways, light and dark, in German signed in', async () => {
    const { context, page, problems } = await phone({ locale: 'de-DE', colorScheme: 'dark' });
    await page.goto(`${origin}/?canteen=${canteenId}`);
    await meal(page, 'Käsespätzle').waitFor();
    await signIn(page, testUsers.admin.login, 'Anmelden');
    await page.getByText(`Angemeldet als ${testUsers.admin.name}`).waitFor();
    await meal(page, 'Vegan curry')
      .getByRole('radiogroup', { name: 'Deine Bewertung' })
      .getByRole('radio', { name: '2 Sterne' })
      .waitFor();

    // Keyboard only: Tab reaches the controls, each with a visible focus ring; the arrow keys choose a star.
    const focusedOutline = () =>
      page.evaluate(() => {
        const globals = globalThis as unknown as LayoutGlobals;
        return globals.getComputedStyle(globals.document.activeElement).outlineStyle;
      });
    await page.keyboard.press('Tab');
    expect(await focusedOutline()).not.toBe('none');
    for (let presses = 0; presses < 60; presses += 1) {
      const name = await page.evaluate(() =>
        (
          globalThis as unknown as { document: { activeElement: { getAttribute(name: string): string | null } } }
        ).document.activeElement.getAttribute('name'),
      );
      if (name === 'rating-1') break;
      await page.keyboard.press('Tab');
    }
    // The radio itself is see-through (its own ring would not show): its star draws the ring (:focus-within).
    const starRing = await page.evaluate(() => {
      const globals = globalThis as unknown as LayoutGlobals;
      return globals.getComputedStyle(globals.document.querySelector('.star:focus-within')).outlineStyle;
    });
    expect(starRing).toBe('solid');
    await page.keyboard.press('ArrowRight');
    await meal(page, 'Käsespätzle').getByRole('button', { name: 'Bewertung löschen' }).waitFor();
    await page.keyboard.press('Space');

    const sidewaysScroll = () =>
      page.evaluate(() => {
        const globals = globalThis as unknown as LayoutGlobals;
        return globals.document.documentElement.scrollWidth - globals.innerWidth;
      });
    for (const view of ['menu', 'favourites', 'data'] as const) {
      await page.goto(`${origin}/?canteen=${canteenId}${view === 'menu' ? '' : `&view=${view}`}`);
      await page.getByText(`Angemeldet als ${testUsers.admin.name}`).first().waitFor();
      if (view === 'menu') await meal(page, 'Käsespätzle').waitFor();
      for (const colorScheme of ['dark', 'light'] as const) {
        await page.emulateMedia({ colorScheme });
        expect(await wcagViolations(page), `${view}, ${colorScheme}`).toEqual([]);
      }
      await page.setViewportSize({ width: 320, height: 640 });
      expect(await sidewaysScroll(), `${view} at 320 px`).toBeLessThanOrEqual(0);
      await page.evaluate(() => {
        (globalThis as unknown as LayoutGlobals).document.documentElement.style.fontSize = '200%';
      });
      expect(await sidewaysScroll(), `${view} at 320 px and 200 % text`).toBeLessThanOrEqual(0);
      await page.setViewportSize({ width: 390, height: 844 });
    }

    // Motion only for those who do not ask for less.
    await page.goto(`${origin}/?canteen=${canteenId}`);
    await meal(page, 'Käsespätzle').waitFor();
    const transition = () =>
      page.evaluate(() => {
        const globals = globalThis as unknown as LayoutGlobals;
        return globals.getComputedStyle(globals.document.querySelector('.meal')).transitionDuration;
      });
    expect(await transition()).not.toBe('0s');
    await page.emulateMedia({ reducedMotion: 'reduce' });
    expect(await transition()).toBe('0s');
    await close(context, problems);
  }, 120_000);

  it('narrows the canteen picker with a search field when there are more than eight canteens', async () => {
    for (const [index, city] of ['Bonn', 'Köln', 'Jülich', 'Düren', 'Aachen', 'Bonn', 'Köln', 'Siegen'].entries()) {
      await useCases.saveCanteen.execute({
        id: `mensa-${index}`,
        name: `Mensa ${index}`,
        timeZone: zone,
        city,
        address: null,
        coordinates: null,
        feeds: [],
      });
    }
    const { context, page, problems } = await phone();
    await page.goto(`${origin}/?canteen=${canteenId}`);
    const picker = page.getByLabel('Canteen', { exact: true });
    await expect.poll(() => picker.locator('option').count()).toBeGreaterThan(8);
    await page.getByLabel('Search canteens').fill('siegen');
    // The chosen canteen stays in the list (the field shows it), and the one in Siegen.
    await expect
      .poll(() => picker.locator('option').allTextContents())
      .toEqual(['Mensa am Campus (Aachen)', 'Mensa 7 (Siegen)']);
    await picker.selectOption('mensa-7');
    await page.getByRole('heading', { level: 1, name: /Mensa 7/ }).waitFor();
    expect(new URL(page.url()).searchParams.get('canteen')).toBe('mensa-7');
    await page.getByText('No meals on this day.').waitFor();
    expect(await wcagViolations(page)).toEqual([]);
    await page.getByLabel('Search canteens').fill('nowhere');
    await page.getByText('No canteen has that name.').waitFor();
    await close(context, problems);
  }, 60_000);

  it('starts offline on the last menu, says since when, and sends a rating tapped offline once back online', async () => {
    const { context, page, problems } = await phone();
    await page.goto(`${origin}/?canteen=${canteenId}`);
    await meal(page, 'Käsespätzle').waitFor();
    await signIn(page, testUsers.kitchen.login);
    await page.getByText(`Signed in as ${testUsers.kitchen.name}`).waitFor();
    // The worker installed and in control: the menu read through it is kept.
    await page.evaluate(
      () =>
        (globalThis as unknown as { navigator: { serviceWorker: { ready: Promise<unknown> } } }).navigator.serviceWorker
          .ready,
    );
    await page.reload();
    await meal(page, 'Käsespätzle').waitFor();
    await expect
      .poll(() =>
        page.evaluate(() => (globalThis as unknown as WorkerGlobals).navigator.serviceWorker.controller !== null),
      )
      .toBe(true);
    await meal(page, 'Vegan curry').getByRole('radiogroup', { name: 'Your rating' }).waitFor();

    await context.setOffline(true);
    await page.reload();
    // The app from the worker's cache, the menu from its copy, and when that is from.
    await meal(page, 'Käsespätzle').getByText('€3.10').waitFor();
    await page.getByText(/^Offline – as of \d{2}:\d{2}$/).waitFor();
    expect(await wcagViolations(page)).toEqual([]);

    // A rating tapped offline waits, shown as waiting, and reaches the server when the browser is online again.
    const curry = meal(page, 'Vegan curry');
    await curry.getByRole('radio', { name: '1 star' }).check();
    await curry.getByText('Waiting to send').waitFor();
    const ratingOf = async () => {
      const read = await useCases.getMeal.execute({ userId: testUsers.kitchen.login, mealId: 2 });
      return read.ok ? read.value.personalRating : 'unknown';
    };
    expect(await ratingOf()).toBeNull();
    await context.setOffline(false);
    await page.evaluate(() =>
      (globalThis as unknown as { dispatchEvent(event: Event): boolean }).dispatchEvent(new Event('online')),
    );
    await curry.getByText('Waiting to send').waitFor({ state: 'detached' });
    await expect.poll(ratingOf).toBe(1);
    await close(context, problems);
  }, 120_000);
});

interface LayoutGlobals {
  readonly innerWidth: number;
  readonly document: {
    readonly documentElement: { readonly scrollWidth: number; readonly style: { fontSize: string } };
    readonly activeElement: unknown;
    querySelector(selector: string): unknown;
  };
  getComputedStyle(element: unknown): { readonly outlineStyle: string; readonly transitionDuration: string };
}

interface WorkerGlobals {
  readonly navigator: { readonly serviceWorker: { readonly controller: unknown } };
}

/** The canteen's day (YYYY-MM-DD) of an instant. */
const canteenDay = (instant: Date) =>
  new Intl.DateTimeFormat('en-CA', { timeZone: zone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(
    instant,
  );

/** The canteen's day of a seeded meal, as the API says. */
async function dayOf(mealId: number): Promise<string> {
  const read = await useCases.getMeal.execute({ userId: 'someone', mealId });
  if (!read.ok) throw new Error(`meal ${mealId}: ${JSON.stringify(read.refusal)}`);
  return canteenDay(read.value.meal.servedAt);
}

async function streamText(stream: NodeJS.ReadableStream): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.from(chunk as Uint8Array));
  return Buffer.concat(chunks).toString('utf8');
}
