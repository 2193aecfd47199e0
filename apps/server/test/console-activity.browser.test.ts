import { signHmacToken } from '@canteen-meals/adapters-http';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  call,
  day,
  launchBrowser,
  openPage,
  secret,
  seriousViolations,
  startServer,
  type Server,
} from './support/kitchen-browser.js';

// The console's Activity tab in a real headless Chromium: the audit trail of the changes made
// before through the API by an admin, a manager and a kitchen, filtered by canteen, person and change, in English and
// German; a manager sees their canteen's entries only.
const manager = signHmacToken(secret, { sub: 'nora', scope: 'meals:manage@mensa-nord' });
const cook = signHmacToken(secret, { sub: 'sami', scope: 'meals:kitchen@mensa-nord' });

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
  await call(
    origin,
    'PUT',
    '/admin/meals',
    {
      meals: [
        {
          meal_id: 1,
          name: 'Currywurst',
          served_at: `${day}T11:30:00+01:00`,
          rateable: true,
          canteen_id: 'mensa-nord',
        },
      ],
    },
    manager,
  );
  await call(origin, 'PUT', '/kitchen/meals/1/availability', { status: 'sold_out' }, cook);
  await call(origin, 'PUT', '/admin/canteens/mensa-sued', { name: 'Mensa Süd am See', timezone: 'Europe/Berlin' });
  browser = await launchBrowser();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await server?.app.close();
});

async function activity(token: string, lang: 'en' | 'de') {
  const opened = await openPage(browser, `${origin}/admin?lang=${lang}&section=activity`, {
    viewport: { width: 1280, height: 900 },
    bypassCSP: true,
  });
  await opened.page.locator('#pasted-token').fill(token);
  await opened.page.locator('#pasted-token').press('Enter');
  await opened.page.locator('#activity-list tbody tr').first().waitFor();
  return opened;
}

const rows = (page: Page) =>
  page
    .locator('#activity-list tbody tr')
    .evaluateAll((nodes) =>
      nodes.map((node) =>
        [...(node as unknown as { cells: Iterable<{ textContent: string }> }).cells].map((cell) => cell.textContent),
      ),
    );

describe('the Activity tab of the console', () => {
  it('lists who changed what, newest first, and filters by canteen, person and change', async () => {
    const { page, problems } = await activity(signHmacToken(secret, { sub: 'ada', scope: 'meals:write' }), 'en');
    expect(await page.getByRole('heading', { level: 2, name: 'Activity' }).count()).toBe(1);
    const all = await rows(page);
    expect(all.map(([, who, change, canteen]) => [who, change, canteen])).toEqual([
      ['kitchen-admin', 'Canteen edited', 'mensa-sued'],
      ['sami', 'Availability set', 'mensa-nord'],
      ['nora', 'Menu written', 'mensa-nord'],
      ['kitchen-admin', 'Canteen created', 'mensa-sued'],
      ['kitchen-admin', 'Canteen created', 'mensa-nord'],
    ]);
    expect(all[1]![4]).toBe('meal 1: available → sold_out');

    await page.getByLabel('Canteen').selectOption('mensa-nord');
    await page.getByLabel('Change').selectOption({ label: 'Availability set' });
    await page.getByRole('button', { name: 'Show', exact: true }).click();
    await page.getByRole('status').filter({ hasText: '1 change shown.' }).waitFor();
    expect((await rows(page)).map((row) => row[1])).toEqual(['sami']);
    // The choice's whole trail as CSV: a download link to a file made from the export's answer.
    await page.getByRole('button', { name: 'Prepare CSV of this choice' }).click();
    const link = page.getByRole('link', { name: 'Download activity.csv' });
    await link.waitFor();
    const csv = await link.evaluate(async (anchor) =>
      (await fetch((anchor as unknown as { href: string }).href)).text(),
    );
    expect(csv.replace(/^\uFEFF/, '').split('\r\n')[1]).toContain(',availability.set,mensa-nord,');

    await page.getByLabel('Change').selectOption('');
    await page.getByLabel('Canteen').selectOption('');
    await page.getByLabel('Person (user id)').fill('nobody');
    await page.getByRole('button', { name: 'Show', exact: true }).click();
    await page.getByRole('status').filter({ hasText: 'No changes recorded for this choice.' }).waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it("shows a manager their canteen's activity only, in German", async () => {
    const { page, problems } = await activity(manager, 'de');
    expect(await page.getByRole('heading', { level: 2, name: 'Aktivität' }).count()).toBe(1);
    const mine = await rows(page);
    expect(new Set(mine.map((row) => row[3]))).toEqual(new Set(['mensa-nord']));
    expect(mine.map((row) => row[2])).toEqual(['Verfügbarkeit gesetzt', 'Speiseplan geschrieben', 'Mensa angelegt']);
    const offered = await page
      .locator('#activity-canteen option')
      .evaluateAll((nodes) => nodes.map((node) => (node as unknown as { value: string }).value));
    expect(offered).toEqual(['', 'mensa-nord']);
    expect(problems).toEqual([]);
    await page.context().close();
  });
});
