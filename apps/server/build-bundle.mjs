#!/usr/bin/env node
// Bundles the built server (part of `pnpm build`, after `tsc -b` and the web pages) into dist/bundle/: `server.js`
// and its chunks, made by esbuild from dist/main.js. Loading some 800 modules was most of a start; one
// bundle starts with half the CPU. What only some requests need (the API docs, the feed reader, the outbound
// clients, the database adapter not configured, prom-client, jose) stays in chunks loaded by `import()` on first use.
//
//   node apps/server/build-bundle.mjs
//
// Files a module finds next to itself through `import.meta.url` (migrations, worker threads, the web pages) are not
// where a bundle's chunk stands. The one rule: every such file is copied into dist/bundle/ (or, for a worker thread,
// bundled as an entry point of its own), and the module's relative URL is rewritten at bundle time to point there,
// so the module's code is the same in both builds. A use of `import.meta.url` this script does not know fails the
// build instead of failing at run time.
import { cpSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import * as esbuild from 'esbuild';

const root = fileURLToPath(new URL('../../', import.meta.url));
const server = join(root, 'apps/server');
const out = join(server, 'dist/bundle');
const at = (path) => join(root, path);

/** Worker threads started by path: bundled as entry points, beside server.js. */
const workers = {
  'checkpoint-worker': at('packages/adapters-sqlite/dist/checkpoint-worker.js'),
  'feed-reading-worker': at('apps/server/dist/feeds/feed-reading-worker.js'),
  // Web Push's encryption and VAPID, off the event loop.
  'send-push-thread': at('packages/adapters-outbound/dist/send-push-thread.js'),
};

/** Folders read at run time, and their names in dist/bundle/. */
const folders = {
  'sqlite-migrations': at('packages/adapters-sqlite/migrations'),
  'postgres-migrations': at('packages/adapters-postgres/migrations'),
  // manifest.json and assets/ (packages/web/build.mjs): the dashboard's and the console's pages.
  web: at('packages/web/dist'),
};

/**
 * Left to Node's resolution at run time (apps/server's dependencies): native addons, and packages that read files
 * next to themselves (Swagger UI serves its own static/ folder, @fastify/swagger reads its package.json). All but
 * better-sqlite3 are loaded by lazy chunks only. (pino's transports would start a worker by path too; none is used.)
 */
const external = ['better-sqlite3', 'pg', '@fastify/swagger', '@fastify/swagger-ui'];

/** The path a module's file reference points to, as seen from dist/bundle/ (where every chunk is). */
function besideTheBundle(target, importer) {
  for (const [name, path] of Object.entries(workers)) if (target === path) return `./${name}.js`;
  for (const [name, folder] of Object.entries(folders)) {
    const inside = relative(folder, target);
    if (inside === '' || (!inside.startsWith('..') && !inside.startsWith(sep))) {
      return `./${[name, ...inside.split(sep).filter((part) => part !== '')].join('/')}${target.endsWith('/') ? '/' : ''}`;
    }
  }
  throw new Error(
    `${relative(root, importer)} reads ${relative(root, target)} next to itself, which the bundle does not carry: add it to apps/server/build-bundle.mjs`,
  );
}

/** Rewrites the file references of our own modules (see the top of this file). */
const filesBesideTheBundle = {
  name: 'files-beside-the-bundle',
  setup(build) {
    build.onLoad({ filter: /\.js$/ }, (args) => {
      if (args.path.includes(`${sep}node_modules${sep}`) || !args.path.startsWith(root)) return undefined;
      const source = readFileSync(args.path, 'utf8');
      if (!source.includes('import.meta.url')) return undefined;
      const here = pathToFileURL(args.path);
      const contents = source
        .replace(/new URL\((['"])([^'"]+)\1, import\.meta\.url\)/g, (_match, _quote, path) => {
          const target = fileURLToPath(new URL(path, here));
          return `new URL(${JSON.stringify(besideTheBundle(target, args.path))}, import.meta.url)`;
        })
        .replace(/createRequire\(import\.meta\.url\)\.resolve\((['"])([^'"]+)\1\)/g, (_match, _quote, specifier) => {
          const target = createRequire(args.path).resolve(specifier);
          return `createRequire(import.meta.url).resolve(${JSON.stringify(besideTheBundle(target, args.path))})`;
        });
      const unknown = contents
        .split('\n')
        .find(
          (line) =>
            line.includes('import.meta.url') &&
            !/(new URL\("\.\/|createRequire\(import\.meta\.url\)\.resolve\("\.\/)/.test(line),
        );
      if (unknown !== undefined)
        throw new Error(
          `${relative(root, args.path)}: a use of import.meta.url the bundle cannot follow: ${unknown.trim()}`,
        );
      return { contents, loader: 'js', resolveDir: dirname(args.path) };
    });
  },
};

rmSync(out, { recursive: true, force: true });
const result = await esbuild.build({
  entryPoints: { server: join(server, 'dist/main.js'), ...workers },
  outdir: out,
  entryNames: '[name]',
  chunkNames: 'chunk-[hash]',
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  external,
  // CommonJS dependencies (fastify's, tsyringe, prom-client) call require() for Node's modules; an ES module has no
  // require of its own. Named apart from any import a chunk may carry.
  banner: {
    js: "import { createRequire as __bundleCreateRequire } from 'node:module';\nconst require = __bundleCreateRequire(import.meta.url);",
  },
  plugins: [filesBesideTheBundle],
  metafile: true,
  // Paths in the metafile relative to the repository, wherever the build is started.
  absWorkingDir: root,
  logLevel: 'warning',
});
for (const [name, folder] of Object.entries(folders)) {
  cpSync(folder, join(out, name), { recursive: true, filter: (path) => !/\.tsbuildinfo$|[\\/]types$/.test(path) });
}
// What each output holds and imports, for apps/server/test/start-imports.test.ts (outside the bundle's folder).
writeFileSync(join(server, 'dist/bundle-meta.json'), JSON.stringify(result.metafile));
console.log(
  `bundle: ${relative(process.cwd(), resolve(out, 'server.js'))} and ${Object.keys(result.metafile.outputs).length - 1} more files`,
);
