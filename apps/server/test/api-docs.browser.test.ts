import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, openPage, startServer, type Server } from './support/kitchen-browser.js';

// Issue 39: /docs (Swagger UI under the service's CSP) logged a violation for an inline style in the browser console.
let server: Server;
let origin: string;
let browser: Browser;

beforeAll(async () => {
  ({ server, origin } = await startServer());
  browser = await launchBrowser();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await server?.app.close();
});

describe('the API docs page', () => {
  it('renders every operation under its Content-Security-Policy with no violation and no console error', async () => {
    const violations: string[] = [];
    const { page, problems } = await openPage(browser, `${origin}/docs`, {}, async (context) => {
      await context.exposeBinding('reportViolation', (_source, text: string) => void violations.push(text));
      await context.addInitScript(() => {
        const page = globalThis as unknown as {
          reportViolation(text: string): void;
          addEventListener(type: string, listener: (event: unknown) => void): void;
        };
        page.addEventListener('securitypolicyviolation', (event) => {
          const violation = event as unknown as { violatedDirective: string; blockedURI: string; sample: string };
          page.reportViolation(`${violation.violatedDirective} ${violation.blockedURI} ${violation.sample}`);
        });
      });
    });
    await page.locator('.opblock').first().waitFor();
    expect(await page.locator('.opblock').count()).toBeGreaterThan(20);
    await page.locator('.opblock-summary').first().click();
    await page.locator('.opblock-body').first().waitFor();
    expect(violations).toEqual([]);
    expect(problems).toEqual([]);
  });
});
