import { existsSync, readFileSync } from 'node:fs';
import { isBuiltin } from 'node:module';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// A server's start is mostly loading modules (about 0.5 ms each on this machine). What only some requests
// or some configurations need is imported on first use (`await import(...)`). This follows the static imports from
// main.ts through the sources (workspace packages by their package.json exports, as Node resolves the built code)
// and names every other package the start loads, so that a new static import of a lazy one fails here. Production
// runs the bundle (apps/server/build-bundle.mjs): the same holds there for the chunks server.js imports statically,
// read from the bundle's metafile (built by `pnpm build`).

const root = fileURLToPath(new URL('../../../', import.meta.url));

/**
 * The statements that load a module when the importing one loads: not `import type`, not `export type`, not `import()`.
 */
const staticImport = /(?:^|\n)\s*(?:import|export)(?!\s+type\b)(?:[^'";]*?from)?\s*['"]([^'"]+)['"]/g;

/** `@canteen-meals/<dir>[/<entry>]` -> the source file its `exports` entry is built from. */
function workspaceSource(specifier: string): string {
  const [, dir, ...entry] = specifier.split('/');
  const packageDir = join(root, 'packages', dir!);
  const manifest = JSON.parse(readFileSync(join(packageDir, 'package.json'), 'utf8')) as {
    exports: Record<string, { default: string }>;
  };
  const built = manifest.exports[entry.length === 0 ? '.' : `./${entry.join('/')}`];
  if (built === undefined) throw new Error(`${specifier} is not an entry point of its package`);
  return join(packageDir, built.default.replace(/^\.\/dist\//, 'src/').replace(/\.js$/, '.ts'));
}

/** Every module the start loads: our source files (relative to the root) and the names of other packages. */
function loadedAtStart(entry: string): { files: Set<string>; packages: Set<string> } {
  const files = new Set<string>();
  const packages = new Set<string>();
  const visit = (file: string) => {
    const name = relative(root, file);
    if (files.has(name)) return;
    files.add(name);
    for (const [, specifier] of readFileSync(file, 'utf8').matchAll(staticImport)) {
      if (specifier!.startsWith('.')) {
        const target = join(dirname(file), specifier!.replace(/\.js$/, '.ts'));
        visit(existsSync(target) ? target : join(dirname(file), specifier!, 'index.ts'));
      } else if (specifier!.startsWith('@canteen-meals/')) {
        packages.add(specifier!);
        visit(workspaceSource(specifier!));
      } else {
        packages.add(
          specifier!
            .split('/')
            .slice(0, specifier!.startsWith('@') ? 2 : 1)
            .join('/'),
        );
      }
    }
  };
  visit(join(root, entry));
  return { files, packages };
}

/** What a start must not load, by what loads it later. */
const loadedLater: [string, string[]][] = [
  [
    'the OpenMensa XML parser and character decoders (the feed reading thread loads them)',
    ['@canteen-meals/adapters-openmensa', 'saxes', 'iconv-lite'],
  ],
  [
    'the HTTP clients and the webhook signer (the first fetch or delivery loads them)',
    ['@canteen-meals/adapters-outbound', 'standardwebhooks', 'node:https', 'node:zlib'],
  ],
  [
    'the database adapters (the configured one is loaded)',
    [
      '@canteen-meals/adapters-sqlite',
      '@canteen-meals/adapters-postgres',
      '@canteen-meals/adapters-memory',
      'pg',
      'better-sqlite3',
    ],
  ],
  ['metrics (prom-client, when METRICS is on)', ['prom-client']],
  [
    'the API docs (the first /openapi.json or /docs request)',
    ['@fastify/swagger', '@fastify/swagger-ui', '@fastify/static'],
  ],
  ['JWKS key sets (the first JWKS resolver)', ['jose']],
];

describe('what a server loads at start', () => {
  const start = loadedAtStart('apps/server/src/main.ts');

  it('follows the static imports (the walk itself works)', () => {
    expect(start.files).toContain('packages/adapters-http/src/build-http-app.ts');
    expect(start.files).toContain('packages/domain/src/use-cases/rate-meal.ts');
    expect(start.packages).toContain('fastify');
    expect(start.packages).toContain('@sinclair/typebox');
  });

  it.each(loadedLater)('not %s', (_what, names) => {
    for (const name of names) expect(start.packages, name).not.toContain(name);
  });

  it('of the OpenMensa and outbound adapters, only the start-time entry points', () => {
    expect(start.packages).toContain('@canteen-meals/adapters-openmensa/writer');
    expect(start.packages).toContain('@canteen-meals/adapters-outbound/policy');
    const adapterFiles = [...start.files].filter((file) => /packages\/adapters-(openmensa|outbound)\//.test(file));
    expect(adapterFiles.sort()).toEqual([
      'packages/adapters-openmensa/src/feed-error.ts',
      'packages/adapters-openmensa/src/openmensa-schema.ts',
      'packages/adapters-openmensa/src/write-openmensa-feed.ts',
      'packages/adapters-openmensa/src/writer.ts',
      'packages/adapters-outbound/src/address-policy.ts',
      'packages/adapters-outbound/src/policy.ts',
      // The push endpoint rule a subscription's save checks: no web-push, no HTTP client.
      'packages/adapters-outbound/src/push-endpoint.ts',
      'packages/adapters-outbound/src/webhook-secret.ts',
    ]);
  });
});

/** The part of esbuild's metafile read here: per output file, the inputs it holds and what it imports. */
interface BundleMetafile {
  readonly outputs: Record<
    string,
    {
      readonly inputs: Record<string, unknown>;
      readonly imports: readonly { path: string; kind: string; external?: boolean }[];
    }
  >;
}

/** The bundle's files that server.js loads before its first line runs, what they hold, and what they load lazily. */
function bundleLoadedAtStart(meta: BundleMetafile, entry: string) {
  const outputs = new Set<string>();
  const lazy = new Set<string>();
  const external = new Set<string>();
  const visit = (output: string) => {
    if (outputs.has(output)) return;
    outputs.add(output);
    for (const { path, kind, external: isExternal } of meta.outputs[output]!.imports) {
      if (isExternal === true) {
        // Node's own modules as the walk over the sources counts them: imported by ES modules (ours). Fastify, a
        // CommonJS package, requires node:https itself in either build.
        if (kind === 'import-statement' || (kind === 'require-call' && !isBuiltin(path))) external.add(path);
      } else if (kind === 'import-statement') visit(path);
      else if (kind === 'dynamic-import') lazy.add(path);
    }
  };
  visit(entry);
  const inputs = new Set([...outputs].flatMap((output) => Object.keys(meta.outputs[output]!.inputs)));
  return { outputs, lazy, external, inputs };
}

describe('what the bundled server loads at start', () => {
  const meta = JSON.parse(readFileSync(join(root, 'apps/server/dist/bundle-meta.json'), 'utf8')) as BundleMetafile;
  const start = bundleLoadedAtStart(meta, 'apps/server/dist/bundle/server.js');
  /**
   * Whether the start holds a package: ours by its main entry's built file, others by their folder or as an external.
   */
  const holds = (name: string) =>
    name.startsWith('node:')
      ? start.external.has(name) || start.external.has(name.slice('node:'.length))
      : name.startsWith('@canteen-meals/')
        ? start.inputs.has(
            relative(root, workspaceSource(name))
              .replace(/\/src\//, '/dist/')
              .replace(/\.ts$/, '.js'),
          )
        : start.external.has(name) || [...start.inputs].some((input) => input.includes(`/node_modules/${name}/`));

  it('follows the static imports between its files (the walk itself works)', () => {
    expect(start.inputs).toContain('packages/adapters-http/dist/build-http-app.js');
    expect(start.inputs).toContain('packages/domain/dist/use-cases/rate-meal.js');
    expect(holds('fastify')).toBe(true);
    expect(holds('@sinclair/typebox')).toBe(true);
    expect(start.lazy.size).toBeGreaterThan(0);
    const later = [...start.lazy].flatMap((output) => Object.keys(meta.outputs[output]!.inputs));
    expect(later).toContain('packages/adapters-sqlite/dist/index.js');
    expect(later).toContain('packages/adapters-http-docs/dist/docs-app.js');
  });

  it.each(loadedLater)('not %s', (_what, names) => {
    for (const name of names) expect(holds(name), name).toBe(false);
  });

  it('of the OpenMensa and outbound adapters, only the start-time entry points', () => {
    const adapterFiles = [...start.inputs].filter((file) => /packages\/adapters-(openmensa|outbound)\//.test(file));
    expect(adapterFiles.sort()).toEqual([
      'packages/adapters-openmensa/dist/feed-error.js',
      'packages/adapters-openmensa/dist/openmensa-schema.js',
      'packages/adapters-openmensa/dist/write-openmensa-feed.js',
      'packages/adapters-openmensa/dist/writer.js',
      'packages/adapters-outbound/dist/address-policy.js',
      'packages/adapters-outbound/dist/policy.js',
      'packages/adapters-outbound/dist/push-endpoint.js',
      'packages/adapters-outbound/dist/webhook-secret.js',
    ]);
  });
});
