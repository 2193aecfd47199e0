import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { signHmacToken } from '@meals/adapters-http';
import { benchSettings, type BenchSettings } from './bench-settings.js';
import { heavyRatings, lightRatings, mealsWithDriftedHistograms, menuSize, seedDatabase } from './fixture.js';
import { comparePair, median, type PairResult } from './pair.js';
import { freePort, peakRssBytes, send, startProcess, type ProbeRequest, type Target } from './processes.js';
import { seededRandom } from './random.js';
import { resultsMarkdown, withResults, type TargetCheck } from './report.js';
import { markMealScenario, menuReadScenario, rateMealScenario, type Scenario } from './scenarios.js';

const repositoryRoot = fileURLToPath(new URL('../../', import.meta.url));
const serverScript = join(repositoryRoot, 'apps/server/dist/main.js');
const referenceScript = fileURLToPath(new URL('./reference-server.js', import.meta.url));
const benchmarksDocument = join(repositoryRoot, 'docs/benchmarks.md');
const log = (line: string) => console.log(line);

async function main(): Promise<number> {
  const settings = benchSettings(process.env);
  const workDir = mkdtempSync(join(tmpdir(), 'meals-bench-'));
  const stopAll: Array<() => Promise<void>> = [];
  try {
    return await runBench(settings, workDir, stopAll);
  } finally {
    for (const stop of stopAll.reverse()) await stop().catch((error: unknown) => log(`bench: ${String(error)}`));
    rmSync(workDir, { recursive: true, force: true });
  }
}

async function runBench(settings: BenchSettings, workDir: string, stopAll: Array<() => Promise<void>>): Promise<number> {
  const databasePath = join(workDir, 'meals.db');
  log(`bench: seeding ${databasePath} (${settings.users} users, a meal with ${heavyRatings} ratings, a menu of ${menuSize})`);
  const fixture = await seedDatabase(databasePath, { users: settings.users, now: new Date() });
  const secret = randomBytes(32).toString('hex');
  const users = {
    authorizations: fixture.userIds.map(
      (sub) => `Bearer ${signHmacToken(secret, { sub, expiresInMs: 2 * 60 * 60 * 1000 })}`,
    ),
    random: seededRandom(42),
  };
  const startProbe: ProbeRequest = {
    method: 'POST',
    path: '/api/v1/mark-meal',
    headers: { authorization: users.authorizations[0]!, 'content-type': 'application/json' },
    body: JSON.stringify({ meal_id: fixture.openMealIds[0], marked: true }),
  };
  const serverEnv = {
    PATH: process.env.PATH ?? '',
    NODE_ENV: 'production',
    HOST: '127.0.0.1',
    DATABASE_URL: `sqlite:${databasePath}`,
    JWT_SECRET: secret,
    LOG_LEVEL: 'warn',
    TZ_NAME: 'Europe/Berlin',
    // The bench is one client with many users: per-user and per-address limits (issue 5) would answer 429.
    RATE_LIMIT_USER_PER_MIN: '0',
    RATE_LIMIT_IP_PER_MIN: '0',
  };
  const serverNodeArgs = (process.env.BENCH_SERVER_NODE_ARGS ?? '').split(' ').filter((a) => a !== '');
  const startServer = async (name: string) => {
    const port = await freePort();
    return startProcess({ name, script: serverScript, nodeArgs: serverNodeArgs, env: { ...serverEnv, PORT: String(port) }, port, probe: startProbe });
  };

  // Start time: three starts on the seeded database; the last server stays up for the load.
  const startTimes: number[] = [];
  let server: Target | undefined;
  for (let attempt = 1; attempt <= 3; attempt++) {
    server = await startServer('server');
    startTimes.push(server.startMs);
    if (attempt < 3) await server.stop();
  }
  const theServer = server!;
  stopAll.push(() => theServer.stop());
  log(`bench: server start to first answer: ${startTimes.map((ms) => `${ms.toFixed(0)} ms`).join(', ')}`);

  const rate = rateMealScenario('rate-meal', users, fixture.openMealIds);
  const mark = markMealScenario('mark-meal', users, fixture.openMealIds);
  const menu = menuReadScenario('menu of the day', users, fixture.menuDay);
  const notices: string[] = [];

  // Each scenario's first request checks that it works on the server; its answer becomes the reference's constant.
  const bodies: Record<string, string> = {};
  let menuAvailable = true;
  for (const scenario of [rate, mark, menu]) {
    const answer = await send(theServer.url, scenario.nextRequest());
    if (scenario === menu && answer.status === 404 && answer.body.includes('"not_found"')) {
      menuAvailable = false;
      const notice = `SKIPPED: "${menu.name}" (GET /api/v1/meals?date=) — the server has no such route yet (issue 3).`;
      notices.push(notice);
      log(`bench: ${notice}`);
      continue;
    }
    if (answer.status !== 200) throw new Error(`${scenario.name}: the server answered ${answer.status}: ${answer.body}`);
    bodies[scenario.route] = answer.body;
  }
  const bodiesFile = join(workDir, 'reference-bodies.json');
  writeFileSync(bodiesFile, JSON.stringify(bodies));
  const referencePort = await freePort();
  const reference = await startProcess({
    name: 'reference',
    script: referenceScript,
    env: { PATH: serverEnv.PATH, NODE_ENV: 'production', PORT: String(referencePort), REFERENCE_BODIES_FILE: bodiesFile },
    port: referencePort,
    probe: startProbe,
  });
  stopAll.push(() => reference.stop());

  const pairs: PairResult[] = [];
  // BENCH_ONLY=rate-meal,... runs a subset (for profiling); a partial run leaves docs/benchmarks.md alone.
  const only = (process.env.BENCH_ONLY ?? '').split(',').filter((name) => name !== '');
  const selected = (name: string) => only.length === 0 || only.includes(name);
  const versusReference = async (scenario: Scenario) => {
    if (!selected(scenario.name)) return;
    log(`bench: ${scenario.name}: server against reference`);
    pairs.push(
      await comparePair(scenario.name, { label: 'server', target: theServer, scenario }, { label: 'reference', target: reference, scenario }, settings, log),
    );
  };
  await versusReference(rate);
  // VmHWM: the highest resident set the server has had, which so far means under the rate-meal load.
  const peakRss = peakRssBytes(theServer.pid);
  await versusReference(mark);
  if (menuAvailable) await versusReference(menu);

  if (selected('100k')) {
    log(`bench: rate-meal on a meal with ${heavyRatings} ratings against one with ${lightRatings}`);
    pairs.push(
      await comparePair(
      'rate-meal, 100k ratings vs 10',
      { label: `${heavyRatings} ratings`, target: theServer, scenario: rateMealScenario('rate heavy', users, [fixture.heavyMealId]) },
      { label: `${lightRatings} ratings`, target: theServer, scenario: rateMealScenario('rate light', users, [fixture.lightMealId]) },
      settings,
      log,
    ),
    );
  }

  await reference.stop();
  await theServer.stop();
  stopAll.length = 0;
  const failures = pairs.flatMap((p) => p.failures);
  const drifted = mealsWithDriftedHistograms(databasePath);
  if (drifted.length > 0) failures.push(`histograms differ from the ratings rows for meals ${drifted.join(', ')}`);

  const pair = (name: string) => pairs.find((p) => p.name === name);
  const ratioCheck = (what: string, name: string, minimum: number): TargetCheck => {
    const found = pair(name);
    return { what, target: `>= ${minimum}`, measured: found === undefined ? 'not run' : found.ratio.toFixed(2), pass: found === undefined ? undefined : found.ratio >= minimum };
  };
  const startMedian = median(startTimes);
  const targets: TargetCheck[] = [
    ratioCheck('rate-meal throughput / reference', 'rate-meal', 0.45),
    ratioCheck('mark-meal throughput / reference', 'mark-meal', 0.55),
    ratioCheck('rate-meal on 100 000 ratings / on 10', 'rate-meal, 100k ratings vs 10', 0.95),
    {
      what: 'peak RSS of the server under the rate-meal load',
      target: '<= 150 MB',
      measured: peakRss === undefined ? 'no /proc here' : `${(peakRss / 1e6).toFixed(0)} MB`,
      pass: peakRss === undefined ? undefined : peakRss <= 150e6,
    },
    { what: 'server start to first answered request (median of 3)', target: '<= 1 s', measured: `${startMedian.toFixed(0)} ms`, pass: startMedian <= 1000 },
  ];
  const facts = [
    { what: 'server start to first answered request (3 starts)', value: startTimes.map((ms) => `${ms.toFixed(0)} ms`).join(', ') },
    { what: 'peak RSS (VmHWM) after the rate-meal load', value: peakRss === undefined ? 'n/a' : `${(peakRss / 2 ** 20).toFixed(0)} MiB` },
  ];
  const results = resultsMarkdown({ date: new Date(), settings, pairs, facts, targets, notices });
  log('');
  log(results);
  log('');
  if (failures.length > 0) {
    log('bench: FAILED RUN (docs/benchmarks.md left as it was):');
    for (const failure of failures) log(`  ${failure}`);
    return 1;
  }
  let document: string | undefined;
  try {
    document = readFileSync(benchmarksDocument, 'utf8');
  } catch {
    document = undefined;
  }
  mkdirSync(dirname(benchmarksDocument), { recursive: true });
  if (only.length > 0) {
    log('bench: partial run (BENCH_ONLY): docs/benchmarks.md left as it was');
    return 0;
  }
  writeFileSync(benchmarksDocument, withResults(document, results));
  log(`bench: wrote ${benchmarksDocument}`);
  const missed = targets.filter((t) => t.pass === false);
  if (missed.length > 0) {
    log(`bench: ${missed.length} target(s) missed: ${missed.map((t) => t.what).join('; ')}`);
    return 1;
  }
  return 0;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error('bench: failed:', error);
    process.exit(1);
  },
);
