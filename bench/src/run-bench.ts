import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { adminScope, signHmacToken } from '@canteen-meals/adapters-http';
import { benchSettings, type BenchSettings } from './bench-settings.js';
import { heavyRatings, lightRatings, mealsWithDriftedHistograms, menuSize, seedDatabase, type BenchFixture } from './fixture.js';
import { comparePair, median, type PairResult } from './pair.js';
import { startPostgresSide } from './postgres-side.js';
import { peakRssBytes, send, type ProbeRequest, type Target } from './processes.js';
import { seededRandom } from './random.js';
import { batchReadRoundTrips } from './read-round-trips.js';
import { resultsMarkdown, withResults, type TargetCheck } from './report.js';
import { markMealScenario, menuReadScenario, rateMealScenario, type Scenario, type ScenarioUsers } from './scenarios.js';
import { repositoryRoot, startReference, startServer } from './server-under-test.js';

const benchmarksDocument = join(repositoryRoot, 'docs/benchmarks.md');
const log = (line: string) => console.log(line);
const hour = 60 * 60 * 1000;

async function main(): Promise<number> {
  const settings = benchSettings(process.env);
  const workDir = mkdtempSync(join(tmpdir(), 'meals-bench-'));
  const cleanups: Array<() => Promise<void>> = [];
  try {
    return await runBench(settings, workDir, cleanups);
  } finally {
    for (const cleanup of cleanups.reverse()) await cleanup().catch((error: unknown) => log(`bench: ${String(error)}`));
    rmSync(workDir, { recursive: true, force: true });
  }
}

async function runBench(settings: BenchSettings, workDir: string, cleanups: Array<() => Promise<void>>): Promise<number> {
  const databasePath = join(workDir, 'meals.db');
  log(`bench: seeding ${databasePath}: ${settings.users} users, a meal with ${heavyRatings} ratings, a menu of ${menuSize}`);
  const fixture = await seedDatabase(databasePath, { users: settings.users, now: new Date() });
  const jwtSecret = randomBytes(32).toString('hex');
  const bearer = (sub: string, scope?: string) =>
    `Bearer ${signHmacToken(jwtSecret, { sub, scope, expiresInMs: 2 * hour })}`;
  const users: ScenarioUsers = { authorizations: fixture.userIds.map((sub) => bearer(sub)), random: seededRandom(42) };
  const startProbe: ProbeRequest = {
    method: 'POST',
    path: '/api/v1/mark-meal',
    headers: { authorization: users.authorizations[0]!, 'content-type': 'application/json' },
    body: JSON.stringify({ meal_id: fixture.openMealIds[0], marked: true }),
  };
  const only = (process.env.BENCH_ONLY ?? '').split(',').filter((name) => name !== '');
  const selected = (name: string) => only.length === 0 || only.includes(name);
  const notices: string[] = [];
  const notice = (text: string) => {
    notices.push(text);
    log(`bench: ${text}`);
  };

  // Start time: three starts on the seeded database, each until the first answered rating request.
  const startTimes: number[] = [];
  let server: Target | undefined;
  for (let attempt = 1; attempt <= 3; attempt++) {
    server = await startServer({ name: 'server', databaseUrl: `sqlite:${databasePath}`, jwtSecret, probe: startProbe });
    startTimes.push(server.startMs);
    if (attempt < 3) await server.stop();
  }
  const sqliteServer = server!;
  cleanups.push(() => sqliteServer.stop());
  log(`bench: server start to first answer: ${startTimes.map((ms) => `${ms.toFixed(0)} ms`).join(', ')}`);

  const rate = rateMealScenario('rate-meal', users, fixture.openMealIds);
  const mark = markMealScenario('mark-meal', users, fixture.openMealIds);
  const menu = menuReadScenario('menu-read', users, fixture.menuDay);

  // Each scenario's first request checks it on the server; its answer becomes the reference's constant body.
  const bodies: Record<string, string> = {};
  let menuRouteExists = true;
  for (const scenario of [rate, mark, menu]) {
    const answer = await send(sqliteServer.url, scenario.nextRequest());
    if (scenario === menu && answer.status === 404 && answer.body.includes('"not_found"')) {
      menuRouteExists = false;
      notice(`SKIPPED: "${menu.name}": the server has no GET /api/v1/meals?date= route yet (issue 3).`);
      continue;
    }
    if (answer.status !== 200) throw new Error(`${scenario.name}: the server answered ${answer.status}: ${answer.body}`);
    bodies[scenario.route] = answer.body;
  }
  const bodiesFile = join(workDir, 'reference-bodies.json');
  writeFileSync(bodiesFile, JSON.stringify(bodies));
  const reference = await startReference(bodiesFile, startProbe);
  cleanups.push(() => reference.stop());

  const roundTrips = menuRouteExists ? await batchReadRoundTrips() : undefined;

  const pairs: PairResult[] = [];
  const compare = async (name: string, measured: Parameters<typeof comparePair>[1], baseline: Parameters<typeof comparePair>[2]) => {
    log(`bench: ${name}: ${measured.label} against ${baseline.label}`);
    pairs.push(await comparePair(name, measured, baseline, settings, log));
  };
  const versusReference = async (scenario: Scenario) => {
    if (!selected(scenario.name)) return;
    await compare(scenario.name, { label: 'server', target: sqliteServer, scenario }, { label: 'reference', target: reference, scenario });
  };

  await versusReference(rate);
  // VmHWM is the highest resident set since the start: here, under the rate-meal load.
  const peakRss = peakRssBytes(sqliteServer.pid);
  await versusReference(mark);
  if (menuRouteExists) await versusReference(menu);
  if (selected('100k')) {
    await compare(
      'rate-meal, 100k ratings vs 10',
      { label: `meal with ${heavyRatings} ratings`, target: sqliteServer, scenario: rateMealScenario('rate heavy', users, [fixture.heavyMealId]) },
      { label: `meal with ${lightRatings} ratings`, target: sqliteServer, scenario: rateMealScenario('rate light', users, [fixture.lightMealId]) },
    );
  }
  await reference.stop();
  if (selected('postgres')) await comparePostgres({ fixture, jwtSecret, bearer, startProbe, sqliteServer, rate, compare, notice, cleanups });

  await sqliteServer.stop();
  cleanups.length = 0;
  const failures = pairs.flatMap((pair) => pair.failures);
  const drifted = mealsWithDriftedHistograms(databasePath);
  if (drifted.length > 0) failures.push(`after the load, histograms differ from the ratings rows for meals ${drifted.join(', ')}`);

  const startMedian = median(startTimes);
  const roundTripCounts = roundTrips === undefined ? [] : [...roundTrips.byMenuSize.values()];
  const targets: TargetCheck[] = [
    ratioTarget(pairs, 'rate-meal throughput / reference', 'rate-meal', 0.45),
    ratioTarget(pairs, 'mark-meal throughput / reference', 'mark-meal', 0.55),
    ratioTarget(pairs, 'rate-meal on 100 000 ratings / on 10', 'rate-meal, 100k ratings vs 10', 0.95),
    {
      what: 'batch read of a day: database round trips',
      target: 'constant (1 to 3)',
      measured: roundTrips === undefined ? 'not run' : [...roundTrips.byMenuSize].map(([size, n]) => `${n} for ${size} meals`).join(', '),
      pass: roundTrips === undefined ? undefined : new Set(roundTripCounts).size === 1 && roundTripCounts[0]! >= 1 && roundTripCounts[0]! <= 3,
    },
    {
      what: 'peak RSS of the server under the rate-meal load',
      target: '<= 150 MB',
      measured: peakRss === undefined ? 'no /proc here' : `${(peakRss / 1e6).toFixed(0)} MB`,
      pass: peakRss === undefined ? undefined : peakRss <= 150e6,
    },
    { what: 'server start to first answered request (median of 3)', target: '<= 1 s', measured: `${startMedian.toFixed(0)} ms`, pass: startMedian <= 1000 },
  ];
  const facts = [
    { what: 'server start to first answered rating request (3 starts)', value: startTimes.map((ms) => `${ms.toFixed(0)} ms`).join(', ') },
    { what: 'peak RSS (VmHWM) of the server after the rate-meal load', value: peakRss === undefined ? 'n/a' : `${(peakRss / 1e6).toFixed(0)} MB` },
  ];
  const results = resultsMarkdown({ date: new Date(), settings, pairs, facts, targets, notices });
  log(`\n${results}\n`);
  if (failures.length > 0) {
    log('bench: FAILED RUN (docs/benchmarks.md left as it was):');
    for (const failure of failures) log(`  ${failure}`);
    return 1;
  }
  if (only.length > 0) {
    log('bench: partial run (BENCH_ONLY): docs/benchmarks.md left as it was');
    return 0;
  }
  mkdirSync(dirname(benchmarksDocument), { recursive: true });
  writeFileSync(benchmarksDocument, withResults(readIfExists(benchmarksDocument), results));
  log(`bench: wrote ${benchmarksDocument}`);
  const missed = targets.filter((target) => target.pass === false);
  if (missed.length > 0) {
    log(`bench: ${missed.length} target(s) missed: ${missed.map((target) => target.what).join('; ')}`);
    return 1;
  }
  return 0;
}

/** Issue 6: rate-meal on one server instance over PostgreSQL against one over SQLite. */
async function comparePostgres(context: {
  fixture: BenchFixture;
  jwtSecret: string;
  bearer: (sub: string, scope?: string) => string;
  startProbe: ProbeRequest;
  sqliteServer: Target;
  rate: Scenario;
  compare: (name: string, measured: Parameters<typeof comparePair>[1], baseline: Parameters<typeof comparePair>[2]) => Promise<void>;
  notice: (text: string) => void;
  cleanups: Array<() => Promise<void>>;
}): Promise<void> {
  const servedAt = new Date(Date.now() - hour).toISOString();
  const postgres = await startPostgresSide({
    jwtSecret: context.jwtSecret,
    probe: context.startProbe,
    adminAuthorization: context.bearer('bench-admin', adminScope),
    meals: context.fixture.openMealIds.map((id) => ({ meal_id: id, name: `Open meal ${id}`, served_at: servedAt, rateable: true })),
  });
  if (!postgres.available) {
    context.notice(`SKIPPED: rate-meal on PostgreSQL vs SQLite: ${postgres.reason}.`);
    return;
  }
  context.cleanups.push(() => postgres.stop());
  await context.compare(
    'rate-meal, PostgreSQL vs SQLite',
    { label: 'server on PostgreSQL', target: postgres.server, scenario: context.rate },
    { label: 'server on SQLite', target: context.sqliteServer, scenario: context.rate },
  );
  await postgres.stop();
  context.cleanups.pop();
}

function ratioTarget(pairs: readonly PairResult[], what: string, name: string, minimum: number): TargetCheck {
  const pair = pairs.find((p) => p.name === name);
  return {
    what,
    target: `>= ${minimum}`,
    measured: pair === undefined ? 'not run' : pair.ratio.toFixed(2),
    pass: pair === undefined ? undefined : pair.ratio >= minimum,
  };
}

function readIfExists(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error('bench: failed:', error);
    process.exit(1);
  },
);
