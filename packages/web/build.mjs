#!/usr/bin/env node
// Builds the browser pages into static files (part of `pnpm build`): every `src/<page>/main.ts` is a page. esbuild
// bundles its script and the style sheet it imports into dist/assets under names that carry their content's hash,
// and dist/manifest.json tells the server, per page, those names and the page's title and <noscript> text in each
// language (from the page's `texts.ts`, the same table its script shows). The server reads nothing else of this
// package.
import { mkdir, readdir, rm, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as esbuild from 'esbuild';

const here = fileURLToPath(new URL('.', import.meta.url));
const source = join(here, 'src');
const out = join(here, 'dist');
const assets = join(out, 'assets');

const pages = (await readdir(source, { withFileTypes: true }))
  .filter((entry) => entry.isDirectory() && existsSync(join(source, entry.name, 'main.ts')))
  .map((entry) => entry.name)
  .sort();

await rm(assets, { recursive: true, force: true });
await mkdir(assets, { recursive: true });

const result = await esbuild.build({
  entryPoints: Object.fromEntries(pages.map((page) => [page, join(source, page, 'main.ts')])),
  outdir: assets,
  entryNames: '[name].[hash]',
  bundle: true,
  format: 'esm',
  platform: 'browser',
  // Browsers of the last few years; the pages use nothing newer.
  target: ['es2022', 'chrome109', 'firefox115', 'safari16'],
  minify: true,
  sourcemap: false,
  legalComments: 'none',
  metafile: true,
  logLevel: 'warning',
});

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
  const module = await import(`data:text/javascript;base64,${Buffer.from(bundled.outputFiles[0].text).toString('base64')}`);
  return module.texts;
}

const manifest = { languages: ['en', 'de'], pages: {} };
for (const [file, output] of Object.entries(result.metafile.outputs)) {
  if (output.entryPoint === undefined) continue;
  const page = basename(join(output.entryPoint, '..'));
  const texts = await textsOf(page);
  manifest.pages[page] = {
    script: basename(file),
    style: output.cssBundle === undefined ? null : basename(output.cssBundle),
    title: Object.fromEntries(manifest.languages.map((language) => [language, texts[language].title])),
    noscript: Object.fromEntries(manifest.languages.map((language) => [language, texts[language].noscript])),
  };
}
await writeFile(join(out, 'manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`);
