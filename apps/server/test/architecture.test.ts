import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { isBuiltin } from 'node:module';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../../', import.meta.url));

interface Manifest {
  readonly name: string;
  readonly private?: boolean;
  readonly dependencies?: Record<string, string>;
  readonly peerDependencies?: Record<string, string>;
  readonly devDependencies?: Record<string, string>;
  readonly optionalDependencies?: Record<string, string>;
}

const manifestOf = (packageDir: string): Manifest =>
  JSON.parse(readFileSync(join(root, packageDir, 'package.json'), 'utf8'));

/** What a package needs from its users' installation: dependencies, peer and optional dependencies (not dev). */
const dependenciesOf = (packageDir: string): string[] => {
  const manifest = manifestOf(packageDir);
  return Object.keys({ ...manifest.dependencies, ...manifest.peerDependencies, ...manifest.optionalDependencies });
};

/** Every module specifier imported by the TypeScript files under the given folders of one package (default: src). */
function importsOf(packageDir: string, folders: readonly string[] = ['src']): { file: string; specifier: string }[] {
  const found: { file: string; specifier: string }[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.name.endsWith('.ts')) {
        const source = readFileSync(path, 'utf8');
        for (const match of source.matchAll(/(?:^|\n)\s*(?:import|export)[^'"]*?from\s+['"]([^'"]+)['"]/g)) {
          found.push({ file: relative(root, path), specifier: match[1]! });
        }
        for (const match of source.matchAll(/import\(\s*['"]([^'"]+)['"]\s*\)/g)) {
          found.push({ file: relative(root, path), specifier: match[1]! });
        }
      }
    }
  };
  for (const folder of folders) walk(join(root, packageDir, folder));
  return found;
}

/** Every folder of a package but its tests and what is built or installed: what it ships or shows. */
const foldersBesidesTests = (packageDir: string) =>
  readdirSync(join(root, packageDir), { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && !['test', 'dist', 'node_modules'].includes(entry.name))
    .map((entry) => entry.name);

const external = (specifier: string) => !specifier.startsWith('.');
/** `@scope/name/sub/path` -> `@scope/name`, `name/sub` -> `name`. */
const packageName = (specifier: string) =>
  specifier
    .split('/')
    .slice(0, specifier.startsWith('@') ? 2 : 1)
    .join('/');
const ours = (name: string) => name.startsWith('@canteen-meals/');

const packageDirs = readdirSync(join(root, 'packages'))
  .map((name) => `packages/${name}`)
  .filter((dir) => existsSync(join(root, dir, 'package.json')));
const workspaceDirs = [...packageDirs, 'apps/server', 'bench'];
const installableDirs = packageDirs.filter((dir) => manifestOf(dir).private !== true);
const adapterDirs = packageDirs.filter((dir) => dir.startsWith('packages/adapters-'));
const serverTechnology = ['fastify', 'better-sqlite3', 'pg', 'tsyringe', 'reflect-metadata'];
// The wire contract: schemas, error codes and paths, shared by the HTTP adapter and the client; no server code.
const wireContract = '@canteen-meals/http-contract';
// The browser pages: their sources are bundled at build time (devDependencies), and the server serves the result.
const webPages = '@canteen-meals/web';
const bundledAtBuild = (packageDir: string) => packageDir === 'packages/web';
// The answers kept between requests and the live statistics: served by the HTTP plugins, free of any HTTP framework.
const readModels = '@canteen-meals/read-models';
// The HTTP adapter's plugin packages (adapters-http-*) build on its helpers and are registered into its app.
const httpAdapter = '@canteen-meals/adapters-http';
// The OpenAPI document and Swagger UI, which the HTTP adapter loads on their first request (not at start).
const apiDocs = '@canteen-meals/adapters-http-docs';
// The bearer tokens' verifiers, free of any HTTP framework, which the HTTP adapter uses and re-exports.
const tokens = '@canteen-meals/adapters-jwt';

describe('architecture: dependencies point inwards', () => {
  it('keeps the domain pure: it imports nothing outside itself and declares no dependency', () => {
    const outside = importsOf('packages/domain').filter(({ specifier }) => external(specifier));
    expect(outside).toEqual([]);
    expect(dependenciesOf('packages/domain')).toEqual([]);
  });

  it('keeps adapters out of the domain package: only its tests may use them, never its sources or examples', () => {
    const folders = foldersBesidesTests('packages/domain');
    expect(folders).toContain('src');
    const upward = importsOf('packages/domain', folders).filter(({ specifier }) => external(specifier));
    expect(upward).toEqual([]);
  });

  it.each(
    adapterDirs,
  )('lets %s depend on the domain but on no other adapter, and never on the DI container', (packageDir) => {
    // The wire contract is no adapter: the HTTP adapter serves it, and its pages plugin the built pages (static files,
    // no
    // code of theirs runs on the server).
    const inner =
      packageDir === 'packages/adapters-http'
        ? ['@canteen-meals/domain', wireContract, readModels, apiDocs, tokens]
        : packageDir.startsWith('packages/adapters-http-')
          ? ['@canteen-meals/domain', wireContract, readModels, httpAdapter, webPages]
          : ['@canteen-meals/domain'];
    const allowed = (name: string) =>
      !['tsyringe', 'reflect-metadata'].includes(name) && (!ours(name) || inner.includes(name));
    const forbiddenImports = importsOf(packageDir).filter(({ specifier }) => !allowed(packageName(specifier)));
    expect(forbiddenImports).toEqual([]);
    expect(dependenciesOf(packageDir).filter((name) => !allowed(name))).toEqual([]);
  });

  it('keeps the read models free of HTTP: they depend on the domain and the wire contract alone', () => {
    const allowed = ['@canteen-meals/domain', wireContract];
    expect(dependenciesOf('packages/read-models').sort()).toEqual(allowed);
    const imported = importsOf('packages/read-models')
      .map(({ specifier }) => specifier)
      .filter((specifier) => external(specifier) && !isBuiltin(specifier))
      .map(packageName);
    expect([...new Set(imported)].filter((name) => !allowed.includes(name))).toEqual([]);
  });

  it('lets the repository contract depend on the domain, with vitest supplied by its user (a peer dependency)', () => {
    const manifest = manifestOf('packages/repository-contract');
    expect(dependenciesOf('packages/repository-contract').filter(ours)).toEqual(['@canteen-meals/domain']);
    expect(Object.keys(manifest.peerDependencies ?? {})).toEqual(['vitest']);
    expect(Object.keys(manifest.dependencies ?? {})).not.toContain('vitest');
  });

  it('keeps the wire contract to schemas: it depends on the domain and TypeBox alone', () => {
    expect(dependenciesOf('packages/http-contract').sort()).toEqual(['@canteen-meals/domain', '@sinclair/typebox']);
    const imported = new Set(
      importsOf('packages/http-contract')
        .map(({ specifier }) => specifier)
        .filter(external)
        .map(packageName),
    );
    expect([...imported].sort()).toEqual(['@canteen-meals/domain', '@sinclair/typebox']);
  });

  it('keeps the client free of server technology: no server library, no adapter but the wire types it reads', () => {
    const dependencies = dependenciesOf('packages/client');
    expect(dependencies.filter((name) => serverTechnology.includes(name))).toEqual([]);
    expect(dependencies.filter((name) => ours(name) && name !== wireContract)).toEqual([]);
  });

  it.each(workspaceDirs)('declares in %s/package.json every package its sources import', (packageDir) => {
    const build = bundledAtBuild(packageDir) ? Object.keys(manifestOf(packageDir).devDependencies ?? {}) : [];
    const declared = new Set([...dependenciesOf(packageDir), ...build]);
    const undeclared = importsOf(packageDir).filter(
      ({ specifier }) => external(specifier) && !isBuiltin(specifier) && !declared.has(packageName(specifier)),
    );
    expect(undeclared).toEqual([]);
  });

  it('keeps the packages below the server: no package depends on apps/server or the bench', () => {
    const upward = packageDirs.flatMap((dir) =>
      [...dependenciesOf(dir), ...importsOf(dir).map(({ specifier }) => packageName(specifier))]
        .filter((name) => name === '@canteen-meals/server' || name === '@canteen-meals/bench')
        .map((name) => `${dir} -> ${name}`),
    );
    expect(upward).toEqual([]);
  });

  it('lets an installable package depend only on installable packages of ours (test infrastructure stays private)', () => {
    const privateNames = new Set(
      packageDirs.filter((dir) => manifestOf(dir).private === true).map((dir) => manifestOf(dir).name),
    );
    const onPrivate = installableDirs.flatMap((dir) =>
      dependenciesOf(dir)
        .filter((name) => privateNames.has(name))
        .map((name) => `${dir} -> ${name}`),
    );
    expect(onPrivate).toEqual([]);
  });

  it('imports every workspace package through its public entry points only', () => {
    // An entry point besides the main one is one the package's `exports` declare (issue 30: the start-time entry points
    // of adapters-openmensa and adapters-outbound); any other path into a package is its private code.
    const declared = (specifier: string) => {
      const [, dir, ...entry] = specifier.split('/');
      const manifest = JSON.parse(readFileSync(join(root, 'packages', dir!, 'package.json'), 'utf8')) as {
        exports?: Record<string, unknown>;
      };
      return Object.hasOwn(manifest.exports ?? {}, `./${entry.join('/')}`);
    };
    const deep = workspaceDirs
      .flatMap((dir) => importsOf(dir))
      .filter(({ specifier }) => /^@canteen-meals\/[^/]+\/.+/.test(specifier) && !declared(specifier));
    expect(deep).toEqual([]);
  });
});
