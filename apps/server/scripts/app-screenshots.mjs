#!/usr/bin/env node
// The students' app's screenshots in docs/ (docs/app.md, the README): the built server (`pnpm build` first) started
// on a fresh SQLite database in a temporary folder, its demo menu seeded, a phone's screen in the packaged Chromium,
// signed in with a pasted token (the demo has no identity provider), a meal rated and one marked, in English and
// German, light and dark. Run: node apps/server/scripts/app-screenshots.mjs
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import chromium from '@sparticuz/chromium';
import { chromium as playwright } from 'playwright-core';

const server = fileURLToPath(new URL('../dist/bundle/server.js', import.meta.url));
const issueToken = fileURLToPath(new URL('../dist/cli/issue-token.js', import.meta.url));
const docs = fileURLToPath(new URL('../../../docs/', import.meta.url));
const folder = mkdtempSync(join(tmpdir(), 'app-screenshots-'));
const child = spawn(process.execPath, [server], {
  cwd: folder,
  env: { ...process.env, PORT: '0', LOG_LEVEL: 'warn' },
  stdio: ['ignore', 'pipe', 'inherit'],
});
const origin = await new Promise((resolve, reject) => {
  let output = '';
  child.stdout.on('data', (chunk) => {
    output += chunk;
    const listening = /listening on (http:\/\/\S+)/.exec(output);
    if (listening) resolve(listening[1]);
  });
  child.on('exit', (code) => reject(new Error(`the server ended (${code}): ${output}`)));
});
try {
  const token = execFileSync(process.execPath, [issueToken, 'student-sam'], { cwd: folder, encoding: 'utf8' }).trim();
  const call = (path, body) =>
    fetch(`${origin}/api/v1${path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
  await call('/rate-meal', { meal_id: 2, rating: 4 });
  await call('/mark-meal', { meal_id: 2, marked: true });
  const browser = await playwright.launch({
    executablePath: await chromium.executablePath(),
    args: chromium.args.filter((arg) => arg !== '--single-process'),
    headless: true,
  });
  for (const [language, scheme] of [
    ['en', 'light'],
    ['en', 'dark'],
    ['de', 'light'],
    ['de', 'dark'],
  ]) {
    const context = await browser.newContext({
      viewport: { width: 390, height: 844 },
      deviceScaleFactor: 2,
      isMobile: true,
      hasTouch: true,
      colorScheme: scheme,
    });
    await context.addInitScript((pasted) => sessionStorage.setItem('canteen-meals.token', pasted), token);
    const page = await context.newPage();
    await page.goto(`${origin}/?canteen=default&lang=${language}`);
    await page.locator('article[data-meal="2"] fieldset').waitFor();
    await page.locator('.live').waitFor();
    await page.screenshot({ path: join(docs, `app-${language}-${scheme}.png`) });
    await context.close();
  }
  await browser.close();
} finally {
  child.kill();
  rmSync(folder, { recursive: true, force: true });
}
