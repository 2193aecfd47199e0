#!/usr/bin/env node
// `pnpm bundle DIR`: writes to DIR the built server and its production dependencies only, so that
// `node DIR/main.js` starts it on a machine with Node alone (no pnpm, no TypeScript, no dev dependency). main.js
// runs the bundled server (dist/bundle/server.js, made by apps/server/build-bundle.mjs).
//
//   node scripts/bundle.mjs DIR
//
// Needs a build first (`pnpm bundle` runs it). The dependencies are copied from this workspace's node_modules, which
// `pnpm install --frozen-lockfile` lays out exactly as the lockfile pins them: nothing is resolved again and no pnpm
// cache or registry is asked (pnpm's own `deploy --legacy` resolved ranges again, which needs pnpm's metadata cache,
// empty on a clean machine). The layout is pnpm's: every package in node_modules/.pnpm/<name@version>/node_modules/
// with relative links to its dependencies beside it, the workspace packages as they are packed (their `files`).
//
// DIR must not exist or be empty. The bundle is written into a folder beside it and renamed into place only when
// complete, so a failure leaves nothing behind. Copy it with its symbolic links as they are (`cp -a`, Docker's COPY).
import {
  chmodSync,
  cpSync,
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  renameSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { basename, dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../', import.meta.url));
const store = join(root, 'node_modules/.pnpm');
const server = join(root, 'apps/server');

const [target] = process.argv.slice(2);
if (target === undefined || target.startsWith('-'))
  fail('usage: pnpm bundle DIR (a folder that does not exist yet, or is empty)');
const dir = resolve(process.env.INIT_CWD ?? process.cwd(), target);
if (existsSync(dir) && readdirSync(dir).length > 0)
  fail(`${dir} is not empty: name a new folder, or empty this one first`);
if (!existsSync(join(server, 'dist/bundle/server.js')))
  fail('apps/server/dist/bundle/server.js is missing: build first (pnpm build)');
if (!existsSync(store)) fail(`${store} is missing: install first (pnpm install --frozen-lockfile)`);

mkdirSync(dirname(dir), { recursive: true });
const partial = mkdtempSync(join(dirname(dir), `.${basename(dir)}.partial-`));
// mkdtemp makes a folder only its owner may read: the bundle gets a folder's usual mode (the image's user reads it).
chmodSync(partial, 0o777 & ~process.umask());
try {
  writeBundle(partial);
  renameSync(partial, dir);
} catch (error) {
  rmSync(partial, { recursive: true, force: true });
  fail(error instanceof Error ? error.message : String(error));
}
console.log(`bundle: wrote ${dir}; start it with: node ${join(dir, 'main.js')}`);

function writeBundle(out) {
  const manifest = readJson(join(server, 'package.json'));
  copyPackedFiles(server, manifest, out);
  // The bundler's record of its outputs is for the tests (start-imports.test.ts), not for a release.
  rmSync(join(out, 'dist/bundle-meta.json'), { force: true });

  /** Every production package reached from the server: its real path in the workspace -> where it goes in `out`. */
  const placed = new Map();
  const pending = [];
  const place = (source) => {
    if (!placed.has(source)) {
      placed.set(
        source,
        join(
          out,
          'node_modules/.pnpm',
          storeKeyOf(source),
          'node_modules',
          readJson(join(source, 'package.json')).name,
        ),
      );
      pending.push(source);
    }
    return placed.get(source);
  };
  for (const [name, source] of dependenciesOf(server, manifest)) link(join(out, 'node_modules', name), place(source));
  while (pending.length > 0) {
    const source = pending.shift();
    const destination = placed.get(source);
    if (isWorkspacePackage(source)) {
      const packageManifest = readJson(join(source, 'package.json'));
      copyPackedFiles(source, packageManifest, destination);
      writeJson(join(destination, 'package.json'), pinned(source, packageManifest));
    } else {
      cpSync(source, destination, { recursive: true, verbatimSymlinks: true });
    }
    // Beside it in the node_modules folder that holds it (above its scope folder, for a scoped package).
    const modules = join(
      destination,
      ...readJson(join(source, 'package.json'))
        .name.split('/')
        .map(() => '..'),
    );
    for (const [name, dependency] of dependenciesOf(source)) link(join(modules, name), place(dependency));
  }
  hoistAsPnpmDoes(out, placed);

  // The entry point at the top, and a manifest that names no workspace or catalog range (nothing is to be installed).
  writeFileSync(
    join(out, 'main.js'),
    '// The server: `node main.js` in the folder that holds its `.env` (and, with the default DATABASE_URL, its data/).\n' +
      "import './dist/bundle/server.js';\n",
  );
  writeJson(join(out, 'package.json'), {
    name: manifest.name,
    version: manifest.version,
    private: true,
    description: 'The meals server, bundled with its production dependencies: node main.js',
    type: 'module',
    main: 'main.js',
    engines: { node: '>=20' },
    scripts: { start: 'node main.js' },
  });
  if (process.env.BUNDLE_FAIL_FOR_TEST === 'after-copy')
    throw new Error('failing on purpose after the copy (BUNDLE_FAIL_FOR_TEST)');

  // The native addon must be in the bundle, built for this Node: a bundle that fails at its first query is no bundle.
  const requireFromSqlite = createRequire(
    realpathSync(join(out, 'node_modules/@canteen-meals/adapters-sqlite/package.json')),
  );
  try {
    const Database = requireFromSqlite('better-sqlite3');
    new Database(':memory:').close();
  } catch (error) {
    throw new Error(
      `the bundle's better-sqlite3 does not load (${error.message.split('\n')[0]}): run pnpm install (it builds the addon), then bundle again`,
    );
  }
}

/**
 * A package's production dependencies as installed: name -> real path. A registry package's are the links pnpm put
 * beside it (its dependencies, the optional ones installed, its peers); a workspace package's come from its manifest.
 */
function dependenciesOf(source, manifest = readJson(join(source, 'package.json'))) {
  const found = new Map();
  if (isWorkspacePackage(source)) {
    const optional = manifest.optionalDependencies ?? {};
    for (const name of [...Object.keys(manifest.dependencies ?? {}), ...Object.keys(optional)]) {
      const path = join(source, 'node_modules', name);
      if (!existsSync(path)) {
        if (name in optional) continue;
        throw new Error(
          `${relative(root, source)} depends on ${name}, which is not installed: run pnpm install --frozen-lockfile`,
        );
      }
      found.set(name, realpathSync(path));
    }
    return found;
  }
  const beside = join(store, storeKeyOf(source), 'node_modules');
  const own = relative(beside, source).split(sep).join('/');
  for (const name of namesIn(beside)) {
    if (name === own || name === '.bin') continue;
    const path = join(beside, name);
    if (existsSync(path)) found.set(name, realpathSync(path));
  }
  return found;
}

/** The package names in a node_modules folder (`@scope/name` for scoped ones). */
function namesIn(folder) {
  return readdirSync(folder).flatMap((entry) =>
    entry.startsWith('@') ? readdirSync(join(folder, entry)).map((inner) => `${entry}/${inner}`) : [entry],
  );
}

function isWorkspacePackage(source) {
  return !relative(root, source).split(sep).includes('node_modules');
}

/** pnpm's folder name for a package: the one it has in the store, or `@scope+name@version` for a workspace package. */
function storeKeyOf(source) {
  if (!isWorkspacePackage(source)) return relative(store, source).split(sep)[0];
  const { name, version } = readJson(join(source, 'package.json'));
  return `${name.replace('/', '+')}@${version}`;
}

/** What `pnpm pack` puts in a package's tarball: its `files`, its manifest, README and LICENSE. */
function copyPackedFiles(source, manifest, destination) {
  mkdirSync(destination, { recursive: true });
  for (const entry of manifest.files ?? []) {
    if (/[*?{}[\]!]/.test(entry))
      throw new Error(
        `${relative(root, source)}/package.json: the files entry ${entry} is a pattern, which the bundle does not read`,
      );
    const from = join(source, entry);
    if (!existsSync(from)) throw new Error(`${relative(root, from)} is missing: build first (pnpm build)`);
    cpSync(from, join(destination, entry), { recursive: true, filter: (path) => !path.endsWith('.tsbuildinfo') });
  }
  for (const name of readdirSync(source)) {
    if (/^(readme|license|licence)(\.|$)/i.test(name)) cpSync(join(source, name), join(destination, name));
  }
  writeJson(join(destination, 'package.json'), manifest);
}

/** A workspace package's manifest as packed: `workspace:` and `catalog:` ranges replaced by the installed versions. */
function pinned(source, manifest) {
  const { devDependencies: _dev, scripts: _scripts, ...packed } = manifest;
  for (const field of ['dependencies', 'optionalDependencies']) {
    if (packed[field] === undefined) continue;
    packed[field] = Object.fromEntries(
      Object.keys(packed[field])
        .filter((name) => existsSync(join(source, 'node_modules', name)))
        .map((name) => [name, readJson(join(source, 'node_modules', name, 'package.json')).version]),
    );
  }
  return packed;
}

/**
 * pnpm links every package also into node_modules/.pnpm/node_modules, where a package that requires a dependency it
 * forgot to declare still finds it; the bundle keeps the links of the packages it carries.
 */
function hoistAsPnpmDoes(out, placed) {
  const hoisted = join(store, 'node_modules');
  if (!existsSync(hoisted)) return;
  for (const name of namesIn(hoisted)) {
    const path = join(hoisted, name);
    const destination = existsSync(path) ? placed.get(realpathSync(path)) : undefined;
    if (destination !== undefined) link(join(out, 'node_modules/.pnpm/node_modules', name), destination);
  }
}

/** A relative link, so that the bundle can be copied anywhere. */
function link(path, to) {
  if (lstatSync(path, { throwIfNoEntry: false }) !== undefined) return;
  mkdirSync(dirname(path), { recursive: true });
  symlinkSync(relative(dirname(path), to), path, 'junction');
}

function readJson(path) {
  return JSON.parse(readFileSync(path, 'utf8'));
}

function writeJson(path, value) {
  writeFileSync(path, `${JSON.stringify(value, null, 2)}\n`);
}

function fail(message) {
  console.error(`bundle: ${message}`);
  process.exit(1);
}
