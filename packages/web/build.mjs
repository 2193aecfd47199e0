#!/usr/bin/env node
// Builds the browser pages into static files (part of `pnpm build`): every `src/<page>/main.ts(x)` is a page. esbuild
// bundles its script and the style sheet it imports into dist/assets under names that carry their content's hash
// (code shared by pages, or loaded only when needed, such as the sign-in library, in chunks of its own), and
// dist/manifest.json tells the server, per page, those names and the page's title and <noscript> text in each
// language (from the page's `texts.ts`, the same table its script shows). The students' app (`src/app`) also gets
// its icons, a web app manifest per language and its service worker, served from the site's root (dist/root). The
// server reads nothing else of this package.
import { createHash } from 'node:crypto';
import { mkdir, readdir, rm, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { basename, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as esbuild from 'esbuild';
import { drawIcon, iconColour } from './icons.mjs';

const here = fileURLToPath(new URL('.', import.meta.url));
const source = join(here, 'src');
const out = join(here, 'dist');
const assets = join(out, 'assets');
const root = join(out, 'root');
const languages = ['en', 'de'];
const hex = (rgb) => `#${rgb.map((value) => value.toString(16).padStart(2, '0')).join('')}`;

const mainOf = (page) =>
  ['main.tsx', 'main.ts'].map((name) => join(source, page, name)).find((path) => existsSync(path));
const pages = (await readdir(source, { withFileTypes: true }))
  .filter((entry) => entry.isDirectory() && mainOf(entry.name) !== undefined)
  .map((entry) => entry.name)
  .sort();

await rm(assets, { recursive: true, force: true });
await rm(root, { recursive: true, force: true });
await mkdir(assets, { recursive: true });
await mkdir(root, { recursive: true });

/** Browsers of the last few years; the pages use nothing newer. */
const target = ['es2022', 'chrome109', 'firefox115', 'safari16'];

/**
 * Each page on its own: what one page loads is only its own code (a chunk shared with the console would bring the
 * console's imports into the app's first view). Within a page, code loaded on demand (the sign-in library) is a chunk.
 */
const builds = await Promise.all(
  pages.map((page) =>
    esbuild.build({
      entryPoints: { [page]: mainOf(page) },
      outdir: assets,
      entryNames: '[name].[hash]',
      chunkNames: 'chunk.[hash]',
      bundle: true,
      splitting: true,
      format: 'esm',
      platform: 'browser',
      target,
      // The app's components: JSX compiled to Preact's calls (no runtime template parsing, nothing inline in the page).
      jsx: 'automatic',
      jsxImportSource: 'preact',
      minify: true,
      sourcemap: false,
      legalComments: 'none',
      metafile: true,
      logLevel: 'warning',
    }),
  ),
);

/** The page's texts module, bundled for Node and imported: titles and <noscript> lines come from the page's table. */
async function textsOf(page) {
  const bundled = await esbuild.build({
    entryPoints: [join(source, page, 'texts.ts')],
    bundle: true,
    format: 'esm',
    platform: 'node',
    write: false,
    logLevel: 'warning',
  });
  const module = await import(
    `data:text/javascript;base64,${Buffer.from(bundled.outputFiles[0].text).toString('base64')}`
  );
  return module.texts;
}

const outputs = Object.assign({}, ...builds.map((built) => built.metafile.outputs));
const nameOf = (file) => basename(file);
/**
 * The chunks a script imports, statically (`eager`: needed at start, preloaded) or all of them (for the offline cache).
 */
function importsOf(file, eager, seen = new Set()) {
  for (const imported of outputs[file]?.imports ?? []) {
    if (eager && imported.kind !== 'import-statement') continue;
    if (seen.has(imported.path)) continue;
    seen.add(imported.path);
    importsOf(imported.path, eager, seen);
  }
  return seen;
}

const manifest = { languages, pages: {}, rootFiles: [] };
const mains = new Map(pages.map((page) => [relative(process.cwd(), mainOf(page)), page]));
for (const [file, output] of Object.entries(outputs)) {
  // A page's script (a chunk loaded on demand has an entry point too: the module it starts with).
  const page = output.entryPoint === undefined ? undefined : mains.get(output.entryPoint);
  if (page === undefined) continue;
  const texts = await textsOf(page);
  manifest.pages[page] = {
    script: nameOf(file),
    style: output.cssBundle === undefined ? null : nameOf(output.cssBundle),
    preload: [...importsOf(file, true)].map(nameOf).sort(),
    title: Object.fromEntries(languages.map((language) => [language, texts[language].title])),
    noscript: Object.fromEntries(languages.map((language) => [language, texts[language].noscript])),
    // The kitchen's pages are dark (a wall screen, a kitchen's light); the app follows the person's setting.
    colorScheme: page === 'app' ? 'light dark' : 'dark',
    themeColor: null,
    webManifest: null,
  };
}

if (manifest.pages.app !== undefined) await buildApp(manifest.pages.app);
await writeFile(join(out, 'manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`);

/**
 * The students' app's extras: its icons (hashed names, kept a year like the scripts), a web app manifest per language
 * at the root (its name in that language), and the service worker at the root (its scope: the whole site), which
 * precaches the page, every script and chunk it may load, its style sheet, icons and manifests. The worker's text
 * names them all, so a new build is a new worker: browsers install it and it takes over at the app's next start.
 */
async function buildApp(app) {
  const texts = await textsOf('app');
  const icon = async (size, maskable) => {
    const bytes = drawIcon(size, { maskable });
    const name = `icon-${size}${maskable ? '-maskable' : ''}.${createHash('sha256').update(bytes).digest('hex').slice(0, 8).toUpperCase()}.png`;
    await writeFile(join(assets, name), bytes);
    return {
      src: `/assets/${name}`,
      sizes: `${size}x${size}`,
      type: 'image/png',
      ...(maskable ? { purpose: 'maskable' } : {}),
    };
  };
  const icons = [await icon(192, false), await icon(512, false), await icon(512, true)];
  const colour = hex(iconColour);
  app.themeColor = colour;
  app.webManifest = {};
  for (const language of languages) {
    const t = texts[language];
    const webManifest = {
      id: '/',
      name: t.appName,
      short_name: t.shortName,
      description: t.description,
      lang: language,
      start_url: `/?lang=${language}`,
      scope: '/',
      display: 'standalone',
      theme_color: colour,
      background_color: colour,
      icons,
    };
    const name = `app.${language}.webmanifest`;
    await writeFile(join(root, name), `${JSON.stringify(webManifest, null, 2)}\n`);
    app.webManifest[language] = `/${name}`;
    manifest.rootFiles.push(name);
  }
  const appScript = Object.keys(outputs).find((file) => nameOf(file) === app.script);
  const precache = [
    '/',
    `/assets/${app.script}`,
    ...[...importsOf(appScript, false)].map((file) => `/assets/${nameOf(file)}`),
    ...(app.style === null ? [] : [`/assets/${app.style}`]),
    ...icons.map((entry) => entry.src),
    ...Object.values(app.webManifest),
  ];
  const version = createHash('sha256').update(precache.join('\n')).digest('hex').slice(0, 16);
  await esbuild.build({
    entryPoints: [join(source, 'app', 'service-worker', 'sw.ts')],
    outfile: join(root, 'sw.js'),
    bundle: true,
    format: 'iife',
    platform: 'browser',
    target,
    minify: true,
    legalComments: 'none',
    logLevel: 'warning',
    define: { __PRECACHE__: JSON.stringify(precache), __VERSION__: JSON.stringify(version) },
  });
  manifest.rootFiles.push('sw.js');
}
