import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  canteen,
  day,
  launchBrowser,
  openPage,
  rate,
  seed,
  startServer,
  thirtyMeals,
  untilTextIs,
  type Server,
} from './support/kitchen-browser.js';

// A wall screen outlives the server: it restarts (closed, then listening again on the same port with the same SQLite
// database), and the wall shows new ratings again without a reload or a click.
const folder = mkdtempSync(join(tmpdir(), 'kitchen-restart-'));
const databaseUrl = `sqlite:${join(folder, 'meals.db')}`;

let server: Server;
let origin: string;
let browser: Browser;

beforeAll(async () => {
  ({ server, origin } = await startServer(databaseUrl));
  await seed(origin, thirtyMeals.slice(0, 4));
  browser = await launchBrowser();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await server?.app.close();
  rmSync(folder, { recursive: true, force: true });
});

describe('the wall across a server restart', () => {
  it('says it is away while the server is down, and follows new ratings again once it is back', async () => {
    const { page, problems } = await openPage(browser, `${origin}/dashboard?canteen=${canteen}&date=${day}&mode=wall`, {
      viewport: { width: 1920, height: 1080 },
    });
    await page.locator('#status[data-kind="live"]').waitFor();
    const loads: string[] = [];
    page.on('framenavigated', (frame) => loads.push(frame.url()));

    const port = Number(new URL(origin).port);
    await server.app.close();
    await page.locator('#status[data-kind="warning"]').waitFor();
    expect(await page.locator('#status').textContent()).toBe('Reconnecting…');

    ({ server } = await startServer(databaseUrl, port));
    await page.locator('#status[data-kind="live"]').waitFor({ timeout: 30_000 });
    await rate(origin, 'after-restart', 4, 3);
    await untilTextIs(page, '[data-meal-id="4"] .count', '2 ratings · median 4.0');
    expect(loads).toEqual([]);
    // While the server was away the browser's reconnecting attempts failed: that is what it logs, nothing else.
    expect(problems.filter((problem) => !problem.includes('/api/v1/live'))).toEqual([]);
  }, 60_000);
});
