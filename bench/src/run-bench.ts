import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { adminScope, signHmacToken } from '@canteen-meals/adapters-http';
import {
  appBytesName,
  appLighthouseName,
  appRepeatVisitName,
  appSpeedFacts,
  appSpeedFailures,
  appSpeedNames,
  appSpeedTargets,
  lighthouseRuns,
  measureAppSpeed,
} from './app-speed.js';
import { benchSettings, type BenchSettings } from './bench-settings.js';
import {
  measurePushDigest,
  pushDigestFacts,
  pushDigestFailures,
  pushDigestName,
  pushDigestTargets,
  pushRatingSeconds,
} from './push-digest.js';
import {
  heavyRatings,
  lightRatings,
  mealsWithDriftedHistograms,
  menuSize,
  seedDatabase,
  type BenchFixture,
} from './fixture.js';
import { comparePair, median, type PairResult } from './pair.js';
import { startPostgresSide } from './postgres-side.js';
import { measureLiveStreams, type LiveResult } from './live.js';
import { measureLiveBurst, type LiveBurstResult } from './live-burst.js';
import { openFileLimits, peakRssBytes, raiseOpenFileLimit, type ProbeRequest, type Target } from './processes.js';
import { seededRandom } from './random.js';
import { batchReadRoundTrips } from './read-round-trips.js';
import { resultsMarkdown, withResults, type TargetCheck } from './report.js';
import { recordScenario } from './recording.js';
import type { ReferenceAnswers } from './reference-app.js';
import {
  markMealScenario,
  mixedScenario,
  overlayScenario,
  personalizedMenuScenario,
  publicMenuRevalidationScenario,
  openMensaDayScenario,
  publicMenuScenario,
  filteredPublicMenuScenario,
  rateMealScenario,
  type Scenario,
  type ScenarioUsers,
} from './scenarios.js';
import { benchLiveStreamLimit, repositoryRoot, startReference, startServer } from './server-under-test.js';

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

async function runBench(
  settings: BenchSettings,
  workDir: string,
  cleanups: Array<() => Promise<void>>,
): Promise<number> {
  const only = benchOnly(process.env);
  const databasePath = join(workDir, 'meals.db');
  log(
    `bench: seeding ${databasePath}: ${settings.users} users, a meal with ${heavyRatings} ratings, a menu of ${menuSize}`,
  );
  const fixture = await seedDatabase(databasePath, { users: settings.users, now: new Date() });
  const jwtSecret = randomBytes(32).toString('hex');
  const bearer = (sub: string, scope?: string) =>
    `Bearer ${signHmacToken(jwtSecret, { sub, scope, expiresInMs: 2 * hour })}`;
  const users: ScenarioUsers = { authorizations: fixture.userIds.map((sub) => bearer(sub)), random: seededRandom(42) };
  const pickyUsers: ScenarioUsers = {
    authorizations: fixture.pickyUserIds.map((sub) => bearer(sub)),
    random: seededRandom(43),
  };
  // Start time is measured to the first answered rating: a route whose validator and serializer are
  // compiled on that first request, after a token check, a read and a write.
  const startProbe: ProbeRequest = {
    method: 'POST',
    path: '/api/v1/rate-meal',
    headers: { authorization: users.authorizations[0]!, 'content-type': 'application/json' },
    body: JSON.stringify({ meal_id: fixture.openMealIds[0], rating: 4 }),
  };
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
  const personalized = personalizedMenuScenario('personalized-menu', users, fixture.menuDay);
  const overlay = overlayScenario('overlay', users, fixture.menuDay);
  const publicMenu = publicMenuScenario('public-menu', fixture.menuDay);
  const openMensaDay = openMensaDayScenario(openMensaDayName, fixture.menuDay);
  const filteredMenu = filteredPublicMenuScenario(filteredMenuName, fixture.menuDay);
  // 90 % public menu reads, 10 % ratings of the menu's meals that can be rated.
  const mixedRatings = rateMealScenario('mixed ratings', users, fixture.rateableMenuMealIds);
  const mixed = mixedScenario('mixed', users.random, publicMenu, mixedRatings, mixedRatingShare);

  const pairs: PairResult[] = [];
  const compare = async (
    name: string,
    measured: Parameters<typeof comparePair>[1],
    baseline: Parameters<typeof comparePair>[2],
  ) => {
    log(`bench: ${name}: ${measured.label} against ${baseline.label}`);
    pairs.push(await comparePair(name, measured, baseline, settings, log));
  };
  const skipped = (name: string, reason: string) => notice(`SKIPPED: "${name}": ${reason}.`);
  /**
   * The scenario against a reference of its own, which replays the server's answers to the scenario's first
   * requests (sent just before, so that they answer the data as the load finds it). False when it did not run.
   */
  const versusReference = async (scenario: Scenario): Promise<boolean> => {
    if (!selected(scenario.name)) return false;
    const recording = await recordScenario(sqliteServer.url, scenario);
    if (recording.missing) {
      skipped(scenario.name, recording.reason);
      return false;
    }
    const reference = await startRecordedReference(workDir, scenario, recording.answers);
    cleanups.push(() => reference.stop());
    await compare(
      scenario.name,
      { label: 'server', target: sqliteServer, scenario },
      { label: 'reference', target: reference, scenario },
    );
    await reference.stop();
    cleanups.pop();
    return true;
  };

  await versusReference(rate);
  // VmHWM is the highest resident set since the start: here, under the rate-meal load.
  const peakRss = peakRssBytes(sqliteServer.pid);
  await versusReference(mark);
  const roundTrips = (await versusReference(personalized)) ? await batchReadRoundTrips() : undefined;
  await versusReference(overlay);
  await versusReference(publicMenu);
  await versusReference(filteredMenu);
  if (selected(publicMenuRevalidationName)) {
    const revalidation = await publicMenuRevalidation(sqliteServer.url, publicMenu, fixture.menuDay);
    if (typeof revalidation === 'string') skipped(publicMenuRevalidationName, revalidation);
    else await versusReference(revalidation);
  }
  await versusReference(openMensaDay);
  // Last of the menu scenarios: its ratings change the menu, and with it the etag the revalidation sends.
  await versusReference(mixed);
  // After the menu scenarios too: its ratings (of users of its own) change the menu's figures.
  const live = selected('live')
    ? await measureLive({ settings, fixture, bearer, server: sqliteServer, notice, skipped, log })
    : undefined;
  const burst = selected(liveBurstName)
    ? await measureLiveBurst(sqliteServer, {
        streams: burstStreams,
        taps: burstTaps,
        day: fixture.menuDay,
        menuMealIds: fixture.menuMealIds,
        rateMealIds: fixture.openMealIds,
        userAuthorizations: users.authorizations,
        adminAuthorization: bearer('bench-admin', adminScope),
        random: seededRandom(44),
        log,
      })
    : undefined;
  if (selected('100k')) {
    await compare(
      'rate-meal, 100k ratings vs 10',
      {
        label: `meal with ${heavyRatings} ratings`,
        target: sqliteServer,
        scenario: rateMealScenario('rate heavy', users, [fixture.heavyMealId]),
      },
      {
        label: `meal with ${lightRatings} ratings`,
        target: sqliteServer,
        scenario: rateMealScenario('rate light', users, [fixture.lightMealId]),
      },
    );
  }
  // What applying a person's preferences costs the personalized menu, on the same server.
  if (selected(preferencesPairName)) {
    await compare(
      preferencesPairName,
      {
        label: 'users with preferences',
        target: sqliteServer,
        scenario: personalizedMenuScenario('personalized picky', pickyUsers, fixture.menuDay),
      },
      {
        label: 'users without',
        target: sqliteServer,
        scenario: personalizedMenuScenario('personalized plain', users, fixture.menuDay),
      },
    );
  }
  if (selected('postgres'))
    await comparePostgres({
      fixture,
      jwtSecret,
      bearer,
      startProbe,
      sqliteServer,
      rate,
      mark,
      users,
      compare,
      notice,
      cleanups,
    });

  await sqliteServer.stop();
  cleanups.length = 0;
  // The students' app, last, on a server of its own, with nothing else running (Lighthouse's scores count CPU time).
  const app = await measureAppSpeed({
    lighthouse: selected(appLighthouseName),
    bytes: selected(appBytesName),
    repeatVisit: selected(appRepeatVisitName),
    lighthouseRuns: lighthouseRuns(process.env),
    workDir,
    log,
  });
  // Web Push at lunch-peak scale, on a server and database of its own. The ratings are measured over the digest's
  // delivery (its first 10 s), not over its first BENCH_SECONDS alone, and the baseline over as long, before and after.
  const push = selected(pushDigestName)
    ? await measurePushDigest({
        workDir,
        jwtSecret,
        log,
        ratingSeconds: pushRatingSeconds,
        connections: settings.connections,
        cleanups,
      })
    : undefined;
  const failures = [
    ...pairs.flatMap((pair) => pair.failures),
    ...(push === undefined ? [] : pushDigestFailures(push)),
    ...(live === undefined ? [] : liveFailures(live)),
    ...(burst === undefined ? [] : burstFailures(burst)),
    ...appSpeedFailures(app),
  ];
  const drifted = mealsWithDriftedHistograms(databasePath);
  if (drifted.length > 0)
    failures.push(`after the load, histograms differ from the ratings rows for meals ${drifted.join(', ')}`);

  const startMedian = median(startTimes);
  const roundTripCounts = roundTrips === undefined ? [] : [...roundTrips.byMenuSize.values()];
  const targets: TargetCheck[] = [
    ratioTarget(pairs, 'rate-meal throughput / reference', 'rate-meal', 0.45),
    ratioTarget(pairs, 'mark-meal throughput / reference', 'mark-meal', 0.55),
    ratioTarget(pairs, 'rate-meal on 100 000 ratings / on 10', 'rate-meal, 100k ratings vs 10', 0.95),
    ratioTarget(pairs, 'public menu, 200, throughput / reference', publicMenu.name, 0.7),
    ratioTarget(pairs, 'public menu, 304, throughput / reference', publicMenuRevalidationName, 0.8),
    ratioTarget(pairs, 'OpenMensa API v2, a day of 50 meals, throughput / reference', openMensaDay.name, 0.7),
    ratioTarget(pairs, 'public menu with a filter, 200, throughput / reference', filteredMenuName, 0.7),
    ratioTarget(pairs, 'personalized menu throughput / reference', personalized.name, 0.5),
    ratioTarget(pairs, 'overlay throughput / reference', overlay.name, 0.5),
    ratioTarget(
      pairs,
      'personalized menu: users with preferences / without (preferences cost <= 10 %)',
      preferencesPairName,
      0.9,
    ),
    ratioReported(pairs, `mixed: ${mixedDescription}, throughput / reference`, mixed.name),
    ...postgresTargets(pairs),
    {
      what: 'batch read of a day: database round trips',
      target: 'constant (1 to 3)',
      measured:
        roundTrips === undefined
          ? 'not run'
          : [...roundTrips.byMenuSize].map(([size, n]) => `${n} for ${size} meals`).join(', '),
      pass:
        roundTrips === undefined
          ? undefined
          : new Set(roundTripCounts).size === 1 && roundTripCounts[0]! >= 1 && roundTripCounts[0]! <= 3,
    },
    {
      what: 'peak RSS of the server under the rate-meal load',
      target: '<= 150 MB',
      measured: peakRss === undefined ? 'no /proc here' : `${(peakRss / 1e6).toFixed(0)} MB`,
      pass: peakRss === undefined ? undefined : peakRss <= 150e6,
    },
    {
      what: 'server start to first answered rating request (median of 3)',
      target: '<= 0.6 s',
      measured: `${startMedian.toFixed(0)} ms`,
      pass: startMedian <= 600,
    },
    ...liveTargets(live),
    ...burstTargets(burst),
    ...appSpeedTargets(app),
    ...pushDigestTargets(push),
  ];
  const facts = [
    {
      what: 'server start to first answered rating request (3 starts)',
      value: startTimes.map((ms) => `${ms.toFixed(0)} ms`).join(', '),
    },
    {
      what: 'peak RSS (VmHWM) of the server after the rate-meal load',
      value: peakRss === undefined ? 'n/a' : `${(peakRss / 1e6).toFixed(0)} MB`,
    },
    ...mixFacts(pairs.find((pair) => pair.name === mixed.name)),
    ...(live === undefined ? [] : liveFacts(live)),
    ...(burst === undefined ? [] : burstFacts(burst)),
    ...appSpeedFacts(app),
    ...pushDigestFacts(push),
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

/** Issue 19's spread load: open meals of their own on PostgreSQL, over three days (a canteen day holds at most 500). */
const spreadMealCount = 1000;
const firstSpreadMealId = 1_000_001;
const hotMealCount = 3;

/**
 * Rate-meal on one server instance over PostgreSQL against one over SQLite. Issue 19: on PostgreSQL, the
 * same load all on 3 hot meals against spread over 1000 meals, and two instances on one database against one.
 * Mark-meal on PostgreSQL against SQLite too.
 */
async function comparePostgres(context: {
  fixture: BenchFixture;
  jwtSecret: string;
  bearer: (sub: string, scope?: string) => string;
  startProbe: ProbeRequest;
  sqliteServer: Target;
  rate: Scenario;
  mark: Scenario;
  users: ScenarioUsers;
  compare: (
    name: string,
    measured: Parameters<typeof comparePair>[1],
    baseline: Parameters<typeof comparePair>[2],
  ) => Promise<void>;
  notice: (text: string) => void;
  cleanups: Array<() => Promise<void>>;
}): Promise<void> {
  const servedAt = (hoursAgo: number) => new Date(Date.now() - hoursAgo * hour).toISOString();
  const spreadIds = Array.from({ length: spreadMealCount }, (_, index) => firstSpreadMealId + index);
  const postgres = await startPostgresSide({
    jwtSecret: context.jwtSecret,
    probe: context.startProbe,
    adminAuthorization: context.bearer('bench-admin', adminScope),
    meals: [
      ...context.fixture.openMealIds.map((id) => ({
        meal_id: id,
        name: `Open meal ${id}`,
        served_at: servedAt(1),
        rateable: true,
      })),
      ...spreadIds.map((id, index) => ({
        meal_id: id,
        name: `Spread meal ${id}`,
        served_at: servedAt(1 + 24 * (index % 3)),
        rateable: true,
      })),
    ],
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
  await context.compare(
    postgresMarkName,
    { label: 'server on PostgreSQL', target: postgres.server, scenario: context.mark },
    { label: 'server on SQLite', target: context.sqliteServer, scenario: context.mark },
  );
  await context.compare(
    postgresHotName,
    {
      label: `${hotMealCount} hot meals`,
      target: postgres.server,
      scenario: rateMealScenario('rate hot', context.users, spreadIds.slice(0, hotMealCount)),
    },
    {
      label: `${spreadMealCount} meals`,
      target: postgres.server,
      scenario: rateMealScenario('rate spread', context.users, spreadIds),
    },
  );
  const second = await postgres.startAnother();
  await context.compare(
    postgresInstancesName,
    { label: 'two instances', target: [postgres.server, second], scenario: context.rate },
    { label: 'one instance', target: postgres.server, scenario: context.rate },
  );
  if (availableParallelism() < 4) {
    context.notice(
      `"${postgresInstancesName}": ${availableParallelism()} cores run the load generator, both servers and PostgreSQL, so a second ` +
        'instance has no core of its own: its target (>= 1.6) needs at least 4 and is marked not applicable',
    );
  }
  await postgres.stop();
  context.cleanups.pop();
}

const postgresMarkName = 'mark-meal, PostgreSQL vs SQLite';
const postgresHotName = 'PostgreSQL, 3 hot meals vs 1000 meals';
const postgresInstancesName = 'PostgreSQL, two instances vs one';

/** Issue 19's targets for PostgreSQL, raised by issue 30; the one of two instances applies where the cores allow it. */
function postgresTargets(pairs: readonly PairResult[]): TargetCheck[] {
  const instances = ratioTarget(
    pairs,
    'PostgreSQL: two instances / one instance (rate-meal)',
    postgresInstancesName,
    1.6,
  );
  const cores = availableParallelism();
  return [
    ratioTarget(pairs, 'rate-meal on PostgreSQL / on SQLite', 'rate-meal, PostgreSQL vs SQLite', 0.5),
    ratioTarget(pairs, 'mark-meal on PostgreSQL / on SQLite', postgresMarkName, 0.5),
    ratioTarget(pairs, 'PostgreSQL: rate-meal on 3 hot meals / on 1000 meals', postgresHotName, 0.9),
    cores >= 4 || instances.pass === undefined
      ? instances
      : { ...instances, target: `>= 1.6 (not applicable: ${cores} cores)`, pass: 'reported' },
  ];
}

/** The streams the students' app holds open, and the kitchen's burst of availability taps. */
const liveBurstName = 'live-burst';
const burstStreams = burstStreamCount(process.env.BENCH_BURST_STREAMS);
const burstTaps = 2000;
const burstTargetMs = 50;

function burstStreamCount(raw: string | undefined): number {
  if (raw === undefined || raw === '') return 500;
  if (!/^\d+$/.test(raw) || Number(raw) > benchLiveStreamLimit) {
    throw new Error(`BENCH_BURST_STREAMS must be an integer from 0 to ${benchLiveStreamLimit}, not "${raw}"`);
  }
  return Number(raw);
}

function burstTargets(burst: LiveBurstResult | undefined): TargetCheck[] {
  const row = (what: string, pick: (phase: LiveBurstResult['burst']) => { p99: number }): TargetCheck => ({
    what: `live burst: ${what} p99 during ${burstTaps} availability taps with ${burstStreams} streams open`,
    target: `<= ${burstTargetMs} ms`,
    measured:
      burst === undefined
        ? 'not run'
        : `${pick(burst.burst).p99.toFixed(0)} ms (baseline ${pick(burst.baseline).p99.toFixed(0)} ms)`,
    pass: burst === undefined ? undefined : pick(burst.burst).p99 <= burstTargetMs,
  });
  return [row('public menu', (phase) => phase.menu), row('rate-meal', (phase) => phase.rating)];
}

function burstFacts(burst: LiveBurstResult): { what: string; value: string }[] {
  const phase = (name: string, figures: LiveBurstResult['burst']) =>
    `${name}: public menu ${figures.menu.requests} reads, p50 ${figures.menu.p50.toFixed(1)} ms, p99 ${figures.menu.p99.toFixed(1)} ms; ` +
    `rate-meal ${figures.rating.requests}, p50 ${figures.rating.p50.toFixed(1)} ms, p99 ${figures.rating.p99.toFixed(1)} ms (over ${figures.seconds.toFixed(1)} s)`;
  return [
    {
      what: `live burst: ${menuProbeRates}: no taps and no streams (baseline), the taps alone, the taps with the streams open`,
      value: `${phase('baseline', burst.baseline)}; ${phase('taps without streams', burst.tapsAlone)}; ${phase('burst', burst.burst)}`,
    },
    {
      what: 'live burst: streams, availability events read, final states',
      value:
        `${burst.streamsHeld} streams, ${burst.availabilityEvents} availability events read (${burstTaps} taps x ${burst.streamsHeld} streams ` +
        `= ${burstTaps * burst.streamsHeld} without coalescing); ${burst.streamsBehind} streams not showing every meal's last status; ` +
        `${burst.dropped} dropped`,
    },
    {
      what: 'live burst: CPU during the burst (share of one core)',
      value:
        `server ${burst.serverCpu === undefined ? 'n/a' : `${Math.round(burst.serverCpu * 100)}%`}, ` +
        `bench (probe, taps, and the streams' reader in a worker thread) ${Math.round(burst.benchCpu * 100)}%`,
    },
  ];
}

const menuProbeRates = 'public menu reads (200/s) and ratings (100/s)';

function burstFailures(burst: LiveBurstResult): string[] {
  const failures: string[] = [];
  const probeFailures = [burst.baseline, burst.burst].flatMap((phase) => [
    ...phase.menu.failures,
    ...phase.rating.failures,
  ]);
  if (probeFailures.length > 0)
    failures.push(`live burst: ${probeFailures.length} probe requests failed: ${probeFailures.slice(0, 3).join('; ')}`);
  if (burst.tapFailures.length > 0)
    failures.push(`live burst: ${burst.tapFailures.length} taps failed: ${burst.tapFailures.slice(0, 3).join('; ')}`);
  if (burst.streamsBehind > 0)
    failures.push(`live burst: ${burst.streamsBehind} streams never showed every meal's last status`);
  return failures;
}

/** Spare open files beyond one per stream: the database, the rating connections, the listening socket, stdio. */
const spareFiles = 256;

/**
 * Streams held open on the server while ratings arrive; the memory per stream and the delivery latency.
 * Undefined when it did not run (the route is missing, or no stream can be opened under the open-file limits).
 */
async function measureLive(context: {
  settings: BenchSettings;
  fixture: BenchFixture;
  bearer: (sub: string) => string;
  server: Target;
  notice: (text: string) => void;
  skipped: (name: string, reason: string) => void;
  log: (line: string) => void;
}): Promise<LiveResult | undefined> {
  const { settings } = context;
  if (settings.liveStreams > benchLiveStreamLimit) {
    throw new Error(
      `BENCH_LIVE_STREAMS is ${settings.liveStreams}: the bench's server allows ${benchLiveStreamLimit} (LIVE_MAX_STREAMS)`,
    );
  }
  // Each stream is a socket in this process and one in the server: both need an open file per stream and some more.
  const wanted = settings.liveStreams + spareFiles;
  const softLimits = [raiseOpenFileLimit(process.pid, wanted), raiseOpenFileLimit(context.server.pid, wanted)];
  const known = softLimits.filter((limit): limit is number => limit !== undefined);
  let streams = settings.liveStreams;
  if (known.length < 2)
    context.notice(`live: the open-file limits could not be read from /proc; ${streams} streams asked for as they are`);
  const lowest = Math.min(...known);
  if (lowest < wanted) {
    streams = Math.max(0, Math.min(streams, lowest - spareFiles));
    context.notice(
      `live: the open-file limit (ulimit -n) of ${softLimits[0] === lowest ? 'the bench' : 'the server'} is ${lowest} and could not be ` +
        `raised to ${wanted} (hard limit ${openFileLimits(softLimits[0] === lowest ? process.pid : context.server.pid)?.hard}): ` +
        `${streams} streams instead of ${settings.liveStreams}`,
    );
  }
  if (streams === 0) {
    context.skipped('live', 'no stream can be opened under the open-file limit');
    return undefined;
  }
  context.log(
    `bench: live: ${streams} streams of ${context.fixture.menuDay}, then ${settings.liveRatingsPerSecond} ratings/s for ` +
      `${settings.liveSeconds} s (open files: bench ${softLimits[0]}, server ${softLimits[1]})`,
  );
  const outcome = await measureLiveStreams(context.server, {
    streams,
    batch: 250,
    ratingsPerSecond: settings.liveRatingsPerSecond,
    seconds: settings.liveSeconds,
    day: context.fixture.menuDay,
    mealIds: context.fixture.rateableMenuMealIds,
    // Users of their own, none of whom has rated: every rating adds one to its meal's count.
    authorization: (index) => context.bearer(`bench-live-user-${String(index + 1).padStart(6, '0')}`),
    random: seededRandom(17),
    log: context.log,
  });
  if (outcome.missing) {
    context.skipped('live', outcome.reason);
    return undefined;
  }
  if (outcome.dropped > 0) {
    context.notice(
      `live: the server dropped ${outcome.dropped} of ${outcome.streamsHeld} streams as slow readers (the bench did not keep up)`,
    );
  }
  return outcome;
}

const megabytes = (bytes: number | undefined) => (bytes === undefined ? 'n/a' : `${(bytes / 1e6).toFixed(1)} MB`);

/** Memory per stream: what the resident set grew by while the streams opened, shared among them. */
function bytesPerStream(live: LiveResult): number | undefined {
  if (live.rssBefore === undefined || live.rssOpen === undefined || live.streamsHeld === 0) return undefined;
  return (live.rssOpen - live.rssBefore) / live.streamsHeld;
}

function liveFacts(live: LiveResult): { what: string; value: string }[] {
  const perStream = bytesPerStream(live);
  const latency = live.latencyMs;
  return [
    {
      what: 'live: streams held open on the server (one day, 50 meals)',
      value: `${live.streamsHeld}, opened in ${live.openSeconds.toFixed(1)} s`,
    },
    {
      what: 'live: server RSS (VmRSS) before the streams, with all open, after the ratings',
      value: `${megabytes(live.rssBefore)}, ${megabytes(live.rssOpen)}, ${megabytes(live.rssAfterRatings)}`,
    },
    {
      what: 'live: memory per stream (RSS growth / streams; no GC forced)',
      value: perStream === undefined ? 'n/a' : `${(perStream / 1024).toFixed(1)} KiB`,
    },
    {
      what: 'live: ratings sent while the streams were open',
      value:
        `${live.ratingsSent} (${live.ratingFailures.length} failed), answered in p50 ${live.ratingAnswerMs?.p50.toFixed(0) ?? 'n/a'} ms, ` +
        `p99 ${live.ratingAnswerMs?.p99.toFixed(0) ?? 'n/a'} ms`,
    },
    {
      what: 'live: CPU while the ratings were sent and shown (share of one core)',
      value:
        `server ${live.serverCpu === undefined ? 'n/a' : `${Math.round(live.serverCpu * 100)}%`}, bench (reads every stream) ` +
        `${Math.round(live.benchCpu * 100)}%, over ${live.ratingPhaseSeconds.toFixed(1)} s` +
        (live.serverCpu === undefined || live.statsEvents === 0
          ? ''
          : `; server CPU per stats event read: ${((1e6 * live.serverCpu * live.ratingPhaseSeconds) / live.statsEvents).toFixed(1)} µs`),
    },
    {
      what: 'live: deliveries (stats events showing new ratings, over all streams)',
      value: `${live.deliveries} of ${live.statsEvents} stats events; ${live.undelivered} ratings not shown on open streams; ${live.dropped} streams dropped`,
    },
    {
      what: 'live: delivery latency, rating sent to stats event read (includes the 250 ms coalescing window)',
      value:
        latency === undefined
          ? 'n/a'
          : `p50 ${latency.p50.toFixed(0)} ms, p99 ${latency.p99.toFixed(0)} ms, max ${latency.max.toFixed(0)} ms`,
    },
  ];
}

/** Issue 17 asks to report these, not to meet a figure: rows of the targets table marked `reported`. */
function liveTargets(live: LiveResult | undefined): TargetCheck[] {
  const perStream = live === undefined ? undefined : bytesPerStream(live);
  return [
    {
      what: `live: memory per stream${live === undefined ? '' : ` with ${live.streamsHeld} streams open`}`,
      target: 'none (reported)',
      measured:
        live === undefined
          ? 'not run'
          : perStream === undefined
            ? 'no /proc here'
            : `${(perStream / 1024).toFixed(1)} KiB`,
      pass: live === undefined ? undefined : 'reported',
    },
    {
      what: 'live: delivery latency p99 (rating sent to stats event read)',
      target: 'none (reported)',
      measured: live?.latencyMs === undefined ? 'not run' : `${live.latencyMs.p99.toFixed(0)} ms`,
      pass: live === undefined ? undefined : 'reported',
    },
  ];
}

/**
 * A stream that could not be opened, a rating not answered 200, or a rating an open stream never showed fails the run.
 */
function liveFailures(live: LiveResult): string[] {
  const failures: string[] = [];
  if (live.openFailures.length > 0) failures.push(`live: streams could not be opened: ${live.openFailures.join('; ')}`);
  if (live.ratingFailures.length > 0) {
    failures.push(`live: ${live.ratingFailures.length} ratings failed: ${live.ratingFailures.slice(0, 3).join('; ')}`);
  }
  if (live.undelivered > 0)
    failures.push(`live: ${live.undelivered} ratings (summed over the open streams) never showed`);
  return failures;
}

/** Issue 16's revalidation scenario: answered 304, so it runs against the public menu's etag of the moment. */
const publicMenuRevalidationName = 'public-menu-304';
/** A day of 50 meals through OpenMensa's API v2. */
const openMensaDayName = 'openmensa-v2-day';
/** The public menu with a label filter. */
const filteredMenuName = 'public-menu-filtered';
const mixedRatingShare = 0.1;
const mixedDescription = "90 % public menu reads, 10 % ratings of the menu's meals";

/** Its BENCH_ONLY name; its rows are the pair `personalized-menu-preferences`. */
const preferencesPairName = 'personalized-menu-preferences';

/** The names BENCH_ONLY may list; `menu-read` became `personalized-menu` with issue 16. */
const benchNames = [
  'rate-meal',
  'mark-meal',
  'personalized-menu',
  'overlay',
  'personalized-menu-preferences',
  'public-menu',
  publicMenuRevalidationName,
  openMensaDayName,
  filteredMenuName,
  'mixed',
  'live',
  'live-burst',
  '100k',
  'postgres',
  ...appSpeedNames,
  pushDigestName,
] as const;

/** BENCH_ONLY's names; one the bench does not know fails before the seeding, rather than run nothing. */
function benchOnly(env: Readonly<Record<string, string | undefined>>): string[] {
  const only = (env.BENCH_ONLY ?? '').split(',').filter((name) => name !== '');
  const unknown = only.filter((name) => !(benchNames as readonly string[]).includes(name));
  if (unknown.length > 0)
    throw new Error(`BENCH_ONLY names ${unknown.join(', ')}: not one of ${benchNames.join(', ')}`);
  return only;
}

/**
 * The revalidation of the public menu with the etag the server gives it now (the loads before may have changed the
 * menu), or why it cannot run.
 */
async function publicMenuRevalidation(
  serverUrl: string,
  publicMenu: Scenario,
  day: string,
): Promise<Scenario | string> {
  const recording = await recordScenario(serverUrl, publicMenu);
  if (recording.missing) return recording.reason;
  const etag = Object.values(recording.answers)[0]?.headers.etag;
  if (typeof etag !== 'string')
    throw new Error(`${publicMenu.name}: the server's answer has no etag header, which issue 16 asks for`);
  return publicMenuRevalidationScenario(publicMenuRevalidationName, day, etag);
}

/**
 * Writes the recorded answers for the reference process and starts it; ready when one of the scenario's requests is
 * answered.
 */
async function startRecordedReference(workDir: string, scenario: Scenario, answers: ReferenceAnswers): Promise<Target> {
  const answersFile = join(workDir, `reference-${scenario.name}.json`);
  writeFileSync(answersFile, JSON.stringify(answers));
  return startReference(answersFile, scenario.nextRequest(), scenario.expectedStatus);
}

/** Issue 16 asks for the mixed load "with the ratio of both": how many reads and ratings each side was sent. */
function mixFacts(pair: PairResult | undefined): { what: string; value: string }[] {
  if (pair === undefined) return [];
  const shares = (counts: Readonly<Record<string, number>>) => {
    const total = Object.values(counts).reduce((sum, n) => sum + n, 0);
    return Object.entries(counts)
      .sort(([, a], [, b]) => b - a)
      .map(([kind, n]) => `${kind} ${n} (${((100 * n) / total).toFixed(1)} %)`)
      .join(', ');
  };
  return [
    {
      what: `mixed load (${mixedDescription}): requests sent in the measured rounds`,
      value: `server: ${shares(pair.measured.sentByKind)}; reference: ${shares(pair.baseline.sentByKind)}`,
    },
  ];
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

/** A ratio without a target: shown in the targets table next to the ones that have one. */
function ratioReported(pairs: readonly PairResult[], what: string, name: string): TargetCheck {
  const pair = pairs.find((p) => p.name === name);
  return {
    what,
    target: 'none (reported)',
    measured: pair === undefined ? 'not run' : pair.ratio.toFixed(2),
    pass: pair === undefined ? undefined : 'reported',
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
