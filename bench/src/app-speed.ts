// The students' app's speed (the app of issue 40, at `/`): Lighthouse's scores of its first view on a phone, the bytes
// that first view loads, and a repeat visit that paints the kept menu before the network answers. On a server of its
// own (the bundle, started as production runs it, on a fresh SQLite file), whose canteen has 24 meals today on its
// clocks, seeded through the admin API.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { gzipSync } from 'node:zlib';
import { adminScope, signHmacToken } from '@canteen-meals/adapters-http';
import chromium from '@sparticuz/chromium';
import lighthouse from 'lighthouse';
import { chromium as playwright, type Page } from 'playwright-core';
import { send, type Target } from './processes.js';
import type { TargetCheck } from './report.js';
import { repositoryRoot, startServer } from './server-under-test.js';

/** The BENCH_ONLY names of the three measurements. */
export const appLighthouseName = 'app-lighthouse';
export const appBytesName = 'app-first-view-bytes';
export const appRepeatVisitName = 'app-repeat-visit';
export const appSpeedNames = [appLighthouseName, appBytesName, appRepeatVisitName] as const;

/** Lighthouse's categories and the least score each must reach. */
const lighthouseTargets = [
  { id: 'performance', minimum: 0.95 },
  { id: 'accessibility', minimum: 1 },
  { id: 'best-practices', minimum: 1 },
] as const;
type CategoryId = (typeof lighthouseTargets)[number]['id'];

/** The first view's budget, gzip -9 (in bytes: 1 KB = 1000 bytes). */
const scriptBudget = 40_000;
const styleBudget = 10_000;
/** Lighthouse runs (BENCH_LIGHTHOUSE_RUNS, default 3): each category's figure is its median over them. */
export function lighthouseRuns(env: Readonly<Record<string, string | undefined>>): number {
  const raw = env.BENCH_LIGHTHOUSE_RUNS;
  if (raw === undefined || raw === '') return 3;
  if (!/^\d+$/.test(raw) || Number(raw) < 1)
    throw new Error(`BENCH_LIGHTHOUSE_RUNS must be a positive integer, not "${raw}"`);
  return Number(raw);
}

/** How long every API answer is held back on the repeat visit. */
const apiDelayMs = 3000;

const webDist = join(repositoryRoot, 'packages/web/dist');
const canteenId = 'bench-mensa';
const mealCount = 24;
const minute = 60_000;
const hour = 60 * minute;

export interface LighthouseRun {
  readonly scores: Readonly<Record<CategoryId, number | null>>;
  /** Per category, the audits that cost it points: id, score and what Lighthouse shows for it. */
  readonly failing: Readonly<Record<CategoryId, readonly string[]>>;
  /** The metrics of the performance category (FCP, LCP, TBT, CLS, SI), as Lighthouse shows them. */
  readonly metrics: string;
  readonly runtimeError: string | undefined;
  readonly warnings: readonly string[];
  /** Lighthouse's measure of the host's CPU speed (the 4x slowdown it simulates assumes a fast one). */
  readonly benchmarkIndex: number | undefined;
}

export interface LighthouseResult {
  /** Every run, in order; each category's figure is its median over the runs (`medianRun`). */
  readonly runs: readonly LighthouseRun[];
  readonly chromiumVersion: string;
}

export interface FirstViewBytes {
  readonly scripts: readonly { name: string; raw: number; gzip: number }[];
  readonly style: { name: string; raw: number; gzip: number } | null;
  readonly scriptGzip: number;
  readonly styleGzip: number;
}

export interface RepeatVisitResult {
  /** From the start of the third visit's navigation to the first meal (`article`) visible. */
  readonly firstMealMs: number;
  /** From the same start to the first delayed API request let through (no answer can come before). */
  readonly firstReleaseMs: number | undefined;
  /** API requests held back on the third visit, and how many of them the service worker made. */
  readonly delayedRequests: number;
  readonly delayedFromWorker: number;
  /** Meals (`article`s) on screen when the first one showed. */
  readonly mealsShown: number;
  /** The first visit until a meal showed, for comparison (a cold start from the network). */
  readonly firstVisitMs: number;
  /** Errors the app's pages logged or threw over the three visits. */
  readonly problems: readonly string[];
}

export interface AppSpeedResult {
  readonly lighthouse?: LighthouseResult | undefined;
  readonly bytes?: FirstViewBytes | undefined;
  readonly repeatVisit?: RepeatVisitResult | undefined;
}

/** Runs the selected measurements on a server of their own; `workDir` holds its database. */
export async function measureAppSpeed(options: {
  readonly lighthouse: boolean;
  readonly bytes: boolean;
  readonly repeatVisit: boolean;
  readonly lighthouseRuns: number;
  readonly workDir: string;
  readonly log: (line: string) => void;
}): Promise<AppSpeedResult> {
  const { log } = options;
  const bytes = options.bytes ? firstViewBytes() : undefined;
  if (bytes !== undefined) {
    log(`bench: app first view: scripts ${kb(bytes.scriptGzip)} gzip, style ${kb(bytes.styleGzip)} gzip`);
  }
  if (!options.lighthouse && !options.repeatVisit) return { bytes };

  const { server, page } = await startAppServer(options.workDir);
  try {
    log(`bench: app: ${mealCount} meals of today at ${page}`);
    let result: LighthouseResult | undefined;
    if (options.lighthouse) {
      const runs: LighthouseRun[] = [];
      let chromiumVersion = '';
      for (let run = 1; run <= options.lighthouseRuns; run++) {
        const outcome = await runLighthouse(page);
        chromiumVersion = outcome.chromiumVersion;
        runs.push(outcome.run);
        log(`bench: app: Lighthouse run ${run} of ${options.lighthouseRuns}: ${scoresText(outcome.run)}`);
      }
      result = { runs, chromiumVersion };
      for (const line of failingLines(runs)) log(`bench: app: Lighthouse: ${line}`);
      if (runs.some((run) => run.runtimeError !== undefined))
        log(`bench: app: the server's last output:\n${server.output().slice(-4000)}`);
    }
    const repeatVisit = options.repeatVisit ? await measureRepeatVisit(page, server.url) : undefined;
    if (repeatVisit !== undefined) {
      log(
        `bench: app: repeat visit with every API answer held ${apiDelayMs} ms: first meal after ${repeatVisit.firstMealMs.toFixed(0)} ms ` +
          `(${repeatVisit.delayedRequests} API requests held, ${repeatVisit.delayedFromWorker} of them the service worker's)`,
      );
    }
    return { lighthouse: result, bytes, repeatVisit };
  } finally {
    await server.stop();
  }
}

/**
 * The bundled server on a fresh SQLite file in `workDir`, its canteen's menu of today seeded; `page` is the app's
 * address.
 */
export async function startAppServer(workDir: string): Promise<{ server: Target; page: string }> {
  const jwtSecret = randomBytes(32).toString('hex');
  const server = await startServer({
    name: 'server for the app',
    databaseUrl: `sqlite:${join(workDir, 'app.db')}`,
    jwtSecret,
    probe: { method: 'GET', path: '/readyz', headers: {} },
  });
  try {
    await seedMenu(server, jwtSecret);
  } catch (error) {
    await server.stop();
    throw error;
  }
  return { server, page: `${server.url}/?canteen=${canteenId}` };
}

/**
 * Gzip -9 of the app's script, its preloaded chunks and its style sheet, as packages/web/dist/manifest.json names them.
 */
export function firstViewBytes(): FirstViewBytes {
  const manifest = JSON.parse(readFileSync(join(webDist, 'manifest.json'), 'utf8')) as {
    pages: Record<string, { script: string; style: string | null; preload: readonly string[] } | undefined>;
  };
  const app = manifest.pages.app;
  if (app === undefined)
    throw new Error('packages/web/dist/manifest.json has no page "app": build it with node packages/web/build.mjs');
  const measure = (name: string) => {
    const content = readFileSync(join(webDist, 'assets', name));
    return { name, raw: content.length, gzip: gzipSync(content, { level: 9 }).length };
  };
  const scripts = [app.script, ...app.preload].map(measure);
  const style = app.style === null ? null : measure(app.style);
  return { scripts, style, scriptGzip: scripts.reduce((sum, file) => sum + file.gzip, 0), styleGzip: style?.gzip ?? 0 };
}

/**
 * A zone whose clocks read about noon now, whatever the hour here: "today" on the canteen's clocks is the browser's
 * today for the bench's few minutes, and a meal served half an hour ago is today's lunch, open for rating.
 */
function noonZone(now: Date): string {
  const offset = Math.round(12 - (now.getUTCHours() + now.getUTCMinutes() / 60));
  return offset === 0 ? 'Etc/GMT' : `Etc/GMT${offset > 0 ? '-' : '+'}${Math.abs(offset)}`;
}

const dishes: readonly { name: string; category: string; labels: readonly string[]; student: string }[] = [
  {
    name: 'Käsespätzle with fried onions',
    category: 'Main course',
    labels: ['wheat', 'milk', 'eggs'],
    student: '3.10',
  },
  { name: 'Lentil curry with rice', category: 'Vegan', labels: ['vegan'], student: '2.90' },
  { name: 'Pollock fillet with dill sauce', category: 'Main course', labels: ['fish', 'milk'], student: '3.60' },
  { name: 'Tomato soup', category: 'Soups', labels: ['vegan', 'celery'], student: '1.50' },
  {
    name: 'Chicken schnitzel with fries',
    category: 'Main course',
    labels: ['poultry', 'wheat', 'eggs'],
    student: '3.90',
  },
  { name: 'Vegan chili sin carne', category: 'Vegan', labels: ['vegan'], student: '2.90' },
  { name: 'Spaghetti bolognese', category: 'Pasta', labels: ['beef', 'wheat'], student: '3.20' },
  { name: 'Falafel wrap with hummus', category: 'Vegan', labels: ['vegan', 'wheat', 'sesame'], student: '3.00' },
  { name: 'Potato goulash', category: 'Main course', labels: ['vegetarian', 'celery'], student: '2.60' },
  {
    name: 'Beef stew with bread dumplings',
    category: 'Main course',
    labels: ['beef', 'wheat', 'milk', 'eggs'],
    student: '4.10',
  },
  { name: 'Mushroom risotto', category: 'Vegetarian', labels: ['vegetarian', 'milk'], student: '3.30' },
  { name: 'Greek salad', category: 'Salads', labels: ['vegetarian', 'milk'], student: '2.40' },
  { name: 'Currywurst with fries', category: 'Main course', labels: ['pork', 'mustard'], student: '2.80' },
  { name: 'Vegetable lasagne', category: 'Pasta', labels: ['vegetarian', 'wheat', 'milk', 'eggs'], student: '3.40' },
  { name: 'Pumpkin soup', category: 'Soups', labels: ['vegan'], student: '1.50' },
  { name: 'Turkey kebab with rice', category: 'Main course', labels: ['poultry'], student: '3.70' },
  { name: 'Sweet and sour tofu', category: 'Vegan', labels: ['vegan', 'soy'], student: '3.10' },
  { name: 'Flammkuchen', category: 'Vegetarian', labels: ['vegetarian', 'wheat', 'milk'], student: '2.90' },
  { name: 'Baked potato with herb quark', category: 'Vegetarian', labels: ['vegetarian', 'milk'], student: '2.50' },
  { name: 'Pasta arrabbiata', category: 'Pasta', labels: ['vegan', 'wheat'], student: '2.70' },
  { name: 'Ratatouille with rice', category: 'Vegan', labels: ['vegan'], student: '2.80' },
  {
    name: 'Apple strudel with vanilla sauce',
    category: 'Desserts',
    labels: ['vegetarian', 'wheat', 'milk', 'eggs'],
    student: '1.40',
  },
  { name: 'Fruit salad', category: 'Desserts', labels: ['vegan'], student: '1.20' },
  {
    name: 'Semolina pudding with cherries',
    category: 'Desserts',
    labels: ['vegetarian', 'wheat', 'milk'],
    student: '1.30',
  },
];

/** A few ratings of the first dishes (each by a user of its own): their stars, and the day's best three. */
const seededRatings: readonly (readonly number[])[] = [[5, 5, 4, 4, 3], [4, 5, 4], [3, 2, 4, 3], [5, 4], [4], [2, 3]];

/**
 * The canteen and its 24 meals of today through the admin API, a few ratings through rate-meal, as a kitchen's tools
 * would.
 */
async function seedMenu(server: Target, jwtSecret: string): Promise<void> {
  const now = new Date();
  const admin = `Bearer ${signHmacToken(jwtSecret, { sub: 'bench-app-admin', scope: adminScope, expiresInMs: hour })}`;
  const call = async (method: 'PUT' | 'POST', path: string, body: unknown, authorization = admin) => {
    const answer = await send(server.url, {
      method,
      path,
      headers: { authorization, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    if (answer.status >= 300) throw new Error(`${method} ${path}: ${answer.status} ${answer.body}`);
  };
  await call('PUT', `/api/v1/admin/canteens/${canteenId}`, {
    name: 'Mensa am Campus',
    timezone: noonZone(now),
    city: 'Aachen',
  });
  const lunch = new Date(now.getTime() - 30 * minute).toISOString();
  if (dishes.length !== mealCount) throw new Error(`the bench's menu has ${dishes.length} dishes, not ${mealCount}`);
  await call('PUT', '/api/v1/admin/meals', {
    meals: dishes.map((dish, index) => ({
      meal_id: index + 1,
      name: dish.name,
      category: dish.category,
      served_at: lunch,
      rateable: true,
      canteen_id: canteenId,
      labels: dish.labels,
      prices: {
        student: dish.student,
        employee: (Number(dish.student) + 1.6).toFixed(2),
        other: (Number(dish.student) + 2.5).toFixed(2),
      },
    })),
  });
  for (const [index, ratings] of seededRatings.entries()) {
    for (const [k, rating] of ratings.entries()) {
      const user = `Bearer ${signHmacToken(jwtSecret, { sub: `bench-app-guest-${index}-${k}`, expiresInMs: hour })}`;
      await call('POST', '/api/v1/rate-meal', { meal_id: index + 1, rating }, user);
    }
  }
}

/** The packaged Chromium's arguments: several pages and a debugging port need more than one process. */
const chromiumArgs = () => chromium.args.filter((arg) => arg !== '--single-process');

/**
 * Chromium started by hand with a debugging port (Lighthouse connects to it), a profile of its own, stopped after.
 * One browser per Lighthouse run: nothing of a run (a service worker, the HTTP cache) is left for the next.
 */
async function withDebuggingChromium<T>(use: (port: number) => Promise<T>): Promise<T> {
  const profile = mkdtempSync(join(tmpdir(), 'meals-bench-chromium-'));
  const child = spawn(
    await chromium.executablePath(),
    [...chromiumArgs(), '--remote-debugging-port=0', `--user-data-dir=${profile}`, 'about:blank'],
    {
      stdio: ['ignore', 'ignore', 'pipe'],
    },
  );
  try {
    const port = await debuggingPort(child);
    return await use(port);
  } finally {
    await stopChild(child);
    rmSync(profile, { recursive: true, force: true });
  }
}

/** The port Chromium prints once it listens ("DevTools listening on ws://127.0.0.1:PORT/..."). */
function debuggingPort(child: ChildProcess): Promise<number> {
  return new Promise((resolve, reject) => {
    let output = '';
    const timer = setTimeout(
      () => reject(new Error(`Chromium did not open its debugging port within 30 s:\n${output}`)),
      30_000,
    );
    child.stderr!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const match = /DevTools listening on ws:\/\/[^:]+:(\d+)\//.exec(output);
      if (match !== null) {
        clearTimeout(timer);
        resolve(Number(match[1]));
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`Chromium exited with ${code} before opening its debugging port:\n${output}`));
    });
  });
}

async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  if ((await Promise.race([exited, sleep(5000).then(() => 'timeout')])) === 'timeout') {
    child.kill('SIGKILL');
    await exited;
  }
}

/** One Lighthouse run with its defaults (a phone: mobile emulation, simulated slow 4G and a 4x slower CPU). */
export async function runLighthouse(url: string): Promise<{ run: LighthouseRun; chromiumVersion: string }> {
  return withDebuggingChromium(async (port) => {
    const outcome = await lighthouse(url, {
      port,
      output: 'json',
      logLevel: 'error',
      onlyCategories: lighthouseTargets.map((target) => target.id),
    });
    if (outcome === undefined) throw new Error('Lighthouse gave no result');
    const { lhr } = outcome;
    // BENCH_LIGHTHOUSE_REPORTS=<folder>: each run's whole report (JSON), to open in the Lighthouse viewer.
    const reports = process.env.BENCH_LIGHTHOUSE_REPORTS;
    if (reports !== undefined && reports !== '') {
      mkdirSync(reports, { recursive: true });
      writeFileSync(join(reports, `lighthouse-${lhr.fetchTime.replace(/[:.]/g, '-')}.json`), JSON.stringify(lhr));
    }
    const scores = {} as Record<CategoryId, number | null>;
    const failing = {} as Record<CategoryId, string[]>;
    for (const { id } of lighthouseTargets) {
      const category = lhr.categories[id];
      scores[id] = category?.score ?? null;
      const audits = (category?.auditRefs ?? []).flatMap((ref) => {
        const audit = lhr.audits[ref.id];
        return audit === undefined || audit.score === null || audit.score >= 1 ? [] : [{ weight: ref.weight, audit }];
      });
      const shown = (audit: (typeof audits)[number]['audit']) =>
        `${audit.id} (${audit.score!.toFixed(2)}${audit.displayValue ? `, ${audit.displayValue}` : ''}`;
      failing[id] = [
        // The audits the score is made of (performance: its metrics; the others: every check).
        ...audits.filter(({ weight }) => weight > 0).map(({ audit }) => `${shown(audit)})`),
        // Performance: the opportunities Lighthouse flags, with what it reckons each would save of which metric.
        ...audits
          .filter(({ weight, audit }) => weight === 0 && audit.scoreDisplayMode === 'metricSavings')
          .map(({ audit }) => {
            const savings = Object.entries(audit.metricSavings ?? {}).filter(
              ([, value]) => typeof value === 'number' && value > 0,
            );
            return `opportunity ${shown(audit)}${savings.length === 0 ? '' : `; saves ${savings.map(([metric, value]) => `${metric} ${metric === 'CLS' ? value : `${value} ms`}`).join(', ')}`})`;
          }),
      ];
    }
    const metrics = [
      'first-contentful-paint',
      'largest-contentful-paint',
      'total-blocking-time',
      'cumulative-layout-shift',
      'speed-index',
    ]
      .map((id) => `${lhr.audits[id]?.title ?? id} ${lhr.audits[id]?.displayValue ?? 'n/a'}`)
      .join(', ');
    return {
      run: {
        scores,
        failing,
        metrics,
        runtimeError: lhr.runtimeError?.message,
        warnings: lhr.runWarnings,
        benchmarkIndex: lhr.environment.benchmarkIndex,
      },
      chromiumVersion: lhr.environment.hostUserAgent.match(/Chrome\/([\d.]+)/)?.[1] ?? lhr.environment.hostUserAgent,
    };
  });
}

function scoresText(run: LighthouseRun): string {
  return lighthouseTargets
    .map(({ id }) => `${id} ${run.scores[id] === null ? 'n/a' : run.scores[id]!.toFixed(2)}`)
    .join(', ');
}

/**
 * The run whose score of the category is the median of the runs' (the lower one of an even count), among the runs
 * that scored it (a run without a score failed, which fails the bench run anyway).
 */
function medianRun(runs: readonly LighthouseRun[], id: CategoryId): LighthouseRun {
  const scored = runs.filter((run) => run.scores[id] !== null);
  if (scored.length === 0) return runs[0]!;
  const sorted = [...scored].sort((a, b) => a.scores[id]! - b.scores[id]!);
  return sorted[Math.floor((sorted.length - 1) / 2)]!;
}

/** Per category, the audits that cost its median run points; Lighthouse's warnings and errors of any run. */
function failingLines(runs: readonly LighthouseRun[]): string[] {
  const lines: string[] = [];
  for (const { id } of lighthouseTargets) {
    const run = medianRun(runs, id);
    if (run.failing[id].length > 0) lines.push(`${id} (median run) loses points on ${run.failing[id].join('; ')}`);
  }
  for (const [index, run] of runs.entries()) {
    if (run.runtimeError !== undefined) lines.push(`run ${index + 1}: runtime error: ${run.runtimeError}`);
  }
  for (const warning of new Set(runs.flatMap((run) => run.warnings))) lines.push(`warning: ${warning}`);
  return lines;
}

/** The little of the page's globals read here (the bench is compiled without the DOM's types). */
interface AppGlobals {
  readonly navigator: { readonly serviceWorker: { readonly ready: Promise<unknown>; readonly controller: unknown } };
  readonly caches: { open(name: string): Promise<{ keys(): Promise<readonly { readonly url: string }[]> }> };
}

/**
 * Three visits in one browser context (a phone): the first installs the service worker, the second runs under it
 * and keeps the menu, the third holds back every API answer (the page's and the worker's requests alike) for
 * `apiDelayMs` and times the first meal on screen.
 */
async function measureRepeatVisit(url: string, origin: string): Promise<RepeatVisitResult> {
  const browser = await playwright.launch({
    executablePath: await chromium.executablePath(),
    args: chromiumArgs(),
    headless: true,
  });
  try {
    const context = await browser.newContext({
      viewport: { width: 390, height: 844 },
      isMobile: true,
      hasTouch: true,
      locale: 'en-GB',
    });
    context.setDefaultTimeout(30_000);
    const page = await context.newPage();
    const problems: string[] = [];
    page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
    page.on('console', (message) => {
      if (message.type() === 'error') problems.push(`console.error: ${message.text()}`);
    });
    const firstMeal = (on: Page) => on.locator('article').first().waitFor({ state: 'visible' });

    const firstStart = performance.now();
    await page.goto(url);
    await firstMeal(page);
    const firstVisitMs = performance.now() - firstStart;
    await page.evaluate(() =>
      (globalThis as unknown as AppGlobals).navigator.serviceWorker.ready.then(() => undefined),
    );
    await page.reload();
    await firstMeal(page);
    await page.waitForFunction(() => (globalThis as unknown as AppGlobals).navigator.serviceWorker.controller !== null);
    // The worker keeps the menu read it answered: wait until the copy is there.
    await page.waitForFunction(
      async () =>
        (await (await (globalThis as unknown as AppGlobals).caches.open('canteen-meals-api')).keys()).some((request) =>
          request.url.includes('/api/v1/meals?'),
        ),
      undefined,
      { polling: 100 },
    );

    let start = 0;
    let firstRelease: number | undefined;
    let delayed = 0;
    let fromWorker = 0;
    await context.route(`${origin}/api/v1/**`, async (route) => {
      delayed++;
      if (route.request().serviceWorker() !== null) fromWorker++;
      await sleep(apiDelayMs);
      firstRelease ??= performance.now() - start;
      await route.continue().catch(() => undefined);
    });
    start = performance.now();
    const navigation = page.goto(url, { waitUntil: 'commit' });
    await firstMeal(page);
    const firstMealMs = performance.now() - start;
    const mealsShown = await page.locator('article').count();
    await navigation;
    // Let the held requests through before the page closes, so that the count is complete.
    await sleep(apiDelayMs + 500);
    await context.unroute(`${origin}/api/v1/**`);
    await context.close();
    return {
      firstMealMs,
      firstReleaseMs: firstRelease,
      delayedRequests: delayed,
      delayedFromWorker: fromWorker,
      mealsShown,
      firstVisitMs,
      problems,
    };
  } finally {
    await browser.close();
  }
}

const kb = (bytes: number) => `${(bytes / 1000).toFixed(1)} KB`;

/** The targets' rows: Lighthouse's three scores, the first view's bytes, the repeat visit's first meal. */
export function appSpeedTargets(result: AppSpeedResult): TargetCheck[] {
  const runs = result.lighthouse?.runs ?? [];
  const notRun = (what: string, target: string): TargetCheck => ({
    what,
    target,
    measured: 'not run',
    pass: undefined,
  });
  const lighthouseRows = lighthouseTargets.map(({ id, minimum }): TargetCheck => {
    const scored = runs.filter((run) => run.scores[id] !== null).length;
    const what = `app: Lighthouse ${id} (phone, default throttling${result.lighthouse === undefined ? '' : scored === 1 ? ', one run' : `, median of ${scored} runs`})`;
    const target = minimum === 1 ? '= 1' : `>= ${minimum}`;
    if (runs.length === 0) return notRun(what, target);
    const run = medianRun(runs, id);
    const score = run.scores[id];
    const pass = score !== null && score >= minimum;
    return {
      what,
      target,
      measured: `${score === null ? 'n/a' : score.toFixed(2)}${pass ? '' : `: ${run.failing[id].join('; ') || (run.runtimeError ?? 'no score')}`}`,
      pass,
    };
  });
  const bytes = result.bytes;
  const bytesRows: TargetCheck[] = [
    bytes === undefined
      ? notRun('app: first view JavaScript (script + preloaded chunks), gzip -9', `<= ${kb(scriptBudget)}`)
      : {
          what: 'app: first view JavaScript (script + preloaded chunks), gzip -9',
          target: `<= ${kb(scriptBudget)}`,
          measured: `${kb(bytes.scriptGzip)} (${bytes.scriptGzip} bytes)`,
          pass: bytes.scriptGzip <= scriptBudget,
        },
    bytes === undefined
      ? notRun('app: first view CSS, gzip -9', `<= ${kb(styleBudget)}`)
      : {
          what: 'app: first view CSS, gzip -9',
          target: `<= ${kb(styleBudget)}`,
          measured: `${kb(bytes.styleGzip)} (${bytes.styleGzip} bytes)`,
          pass: bytes.styleGzip <= styleBudget,
        },
  ];
  const visit = result.repeatVisit;
  const visitWhat = `app: repeat visit, every API answer held ${apiDelayMs / 1000} s: first meal on screen`;
  const visitTarget = `before the first API answer (< ${apiDelayMs} ms)`;
  const visitRow: TargetCheck =
    visit === undefined
      ? notRun(visitWhat, visitTarget)
      : {
          what: visitWhat,
          target: visitTarget,
          measured: `${visit.firstMealMs.toFixed(0)} ms`,
          pass:
            visit.delayedRequests > 0 && visit.firstMealMs < Math.min(apiDelayMs, visit.firstReleaseMs ?? apiDelayMs),
        };
  return [...lighthouseRows, ...bytesRows, visitRow];
}

export function appSpeedFacts(result: AppSpeedResult): { what: string; value: string }[] {
  const facts: { what: string; value: string }[] = [];
  const lh = result.lighthouse;
  if (lh !== undefined) {
    facts.push({
      what: `app: Lighthouse 12 (Chromium ${lh.chromiumVersion}, phone, default throttling), ${mealCount} meals of today: scores per run`,
      value: lh.runs
        .map((run) => `${scoresText(run)} (benchmarkIndex ${run.benchmarkIndex?.toFixed(0) ?? 'n/a'})`)
        .join('; '),
    });
    facts.push({
      what: 'app: Lighthouse metrics (the run of the median performance score)',
      value: medianRun(lh.runs, 'performance').metrics,
    });
    const failing = failingLines(lh.runs);
    if (failing.length > 0)
      facts.push({ what: 'app: Lighthouse audits below 1, warnings', value: failing.join(' / ') });
  }
  const bytes = result.bytes;
  if (bytes !== undefined) {
    const file = (f: { name: string; raw: number; gzip: number }) => `${f.name} ${f.raw} bytes, ${f.gzip} gzip`;
    facts.push({
      what: 'app: first view files (packages/web/dist/manifest.json)',
      value: [...bytes.scripts.map(file), ...(bytes.style === null ? [] : [file(bytes.style)])].join('; '),
    });
  }
  const visit = result.repeatVisit;
  if (visit !== undefined) {
    facts.push({
      what: `app: first meal on screen: first visit (network) / repeat visit (API held ${apiDelayMs} ms)`,
      value:
        `${visit.firstVisitMs.toFixed(0)} ms / ${visit.firstMealMs.toFixed(0)} ms (${visit.mealsShown} meals shown then); ` +
        `${visit.delayedRequests} API requests held on the repeat visit, ` +
        `${visit.delayedFromWorker} of them the service worker's` +
        (visit.firstReleaseMs === undefined
          ? ''
          : `, the first let through after ${visit.firstReleaseMs.toFixed(0)} ms`),
    });
    if (visit.problems.length > 0)
      facts.push({
        what: 'app: errors the pages logged over the three visits',
        value: visit.problems.slice(0, 5).join('; '),
      });
  }
  return facts;
}

/** What makes the measurement itself wrong, not the app slow: a run that fails. */
export function appSpeedFailures(result: AppSpeedResult): string[] {
  const failures: string[] = [];
  for (const run of result.lighthouse?.runs ?? []) {
    if (run.runtimeError !== undefined) failures.push(`app: Lighthouse: ${run.runtimeError}`);
  }
  const visit = result.repeatVisit;
  if (visit !== undefined) {
    if (visit.delayedRequests === 0)
      failures.push('app: repeat visit: no API request was held back, so the delay measured nothing');
    else if (visit.delayedFromWorker === 0)
      failures.push("app: repeat visit: none of the service worker's requests was held back");
  }
  return failures;
}
