#!/usr/bin/env node
// `pnpm bundle DIR` (issue 26): writes to DIR the built server and its production dependencies only, so that
// `node DIR/main.js` starts it on a machine with Node alone (no pnpm, no TypeScript, no dev dependency). main.js
// runs the bundled server (dist/bundle/server.js, made by apps/server/build-bundle.mjs; issue 30).
// Needs a build first (`pnpm bundle` runs `tsc -b`). pnpm's own `deploy` does the copying: the workspace packages
// as they would be packed (their `files`), and every production dependency from the lockfile.
//
//   node scripts/bundle.mjs DIR
//
// DIR must not exist or be empty. Copy it with its symbolic links as they are (`cp -a`, Docker's COPY): the
// dependencies are linked inside DIR/node_modules, relatively.
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, readlinkSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../', import.meta.url));
const [target] = process.argv.slice(2);
if (target === undefined || target.startsWith('-')) fail('usage: pnpm bundle DIR (a folder that does not exist yet, or is empty)');
const dir = resolve(process.env.INIT_CWD ?? process.cwd(), target);
if (existsSync(dir) && readdirSync(dir).length > 0) fail(`${dir} is not empty: name a new folder, or empty this one first`);
const server = join(root, 'apps/server');
if (!existsSync(join(server, 'dist/bundle/server.js'))) fail('apps/server/dist/bundle/server.js is missing: build first (pnpm build)');
const manifest = JSON.parse(readFileSync(join(server, 'package.json'), 'utf8'));

// `--legacy`: pnpm 10 deploys injected workspace packages only; this workspace links them (`--legacy` copies them).
// The store's built better-sqlite3 addon comes along (pnpm keeps the result of its allowed build script).
execFileSync('pnpm', ['--filter', manifest.name, 'deploy', '--legacy', '--prod', '--offline', dir], {
  cwd: root,
  stdio: ['ignore', 'ignore', 'inherit'],
});

// The bundler's record of its outputs is for the tests (start-imports.test.ts), not for a release.
rmSync(join(dir, 'dist/bundle-meta.json'), { force: true });

// The entry point at the top, and a manifest that names no workspace or catalog range (nothing is to be installed).
writeFileSync(
  join(dir, 'main.js'),
  '// The server: `node main.js` in the folder that holds its `.env` (and, with the default DATABASE_URL, its data/).\n' +
    "import './dist/bundle/server.js';\n",
);
writeFileSync(
  join(dir, 'package.json'),
  `${JSON.stringify(
    {
      name: manifest.name,
      version: manifest.version,
      private: true,
      description: 'The meals server, bundled with its production dependencies: node main.js',
      type: 'module',
      main: 'main.js',
      engines: { node: '>=20' },
      scripts: { start: 'node main.js' },
    },
    null,
    2,
  )}\n`,
);

// pnpm links the deployed package itself into node_modules/.pnpm/node_modules, pointing back into the workspace:
// a link that leaves the bundle would dangle in any copy of it.
for (const link of linksIn(dir)) {
  const target = resolve(dirname(link), readlinkSync(link));
  if (relative(dir, target).startsWith('..')) rmSync(link);
}

// The native addon must be in the bundle, built for this Node: a bundle that fails at its first query is no bundle.
const requireFromSqlite = createRequire(realpathSync(join(dir, 'node_modules/@canteen-meals/adapters-sqlite/package.json')));
try {
  const Database = requireFromSqlite('better-sqlite3');
  new Database(':memory:').close();
} catch (error) {
  fail(`the bundle's better-sqlite3 does not load (${error.message.split('\n')[0]}): run pnpm install (it builds the addon), then bundle again`);
}
console.log(`bundle: wrote ${dir}; start it with: node ${join(dir, 'main.js')}`);

function* linksIn(folder) {
  for (const entry of readdirSync(folder, { withFileTypes: true })) {
    const path = join(folder, entry.name);
    if (entry.isSymbolicLink()) yield path;
    else if (entry.isDirectory()) yield* linksIn(path);
  }
}

function fail(message) {
  console.error(`bundle: ${message}`);
  process.exit(1);
}
