import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

/** What the web package's build writes into dist/manifest.json (packages/web/build.mjs). */
export interface WebManifest {
  readonly languages: readonly string[];
  readonly pages: Readonly<Record<string, BuiltPage>>;
  /** Files answered at the site's root (`/sw.js`, `/app.en.webmanifest`): the students' app's worker and manifests. */
  readonly rootFiles?: readonly string[];
}
export interface BuiltPage {
  readonly script: string;
  readonly style: string | null;
  /** The chunks the script imports at start, preloaded by the HTML (no round trip after the script's). */
  readonly preload?: readonly string[];
  readonly title: Readonly<Record<string, string>>;
  readonly noscript: Readonly<Record<string, string>>;
  /** The page's `<meta name="color-scheme">`; `dark` when absent. */
  readonly colorScheme?: string;
  readonly themeColor?: string | null;
  /** The web app manifest's path per language (an installable page), else null. */
  readonly webManifest?: Readonly<Record<string, string>> | null;
}

/** A file answered from memory, with its validator. */
export interface StaticFile {
  readonly body: Buffer | string;
  readonly type: string;
  readonly etag: string;
  readonly cacheControl: string;
  /** Text: sent gzipped to a browser that takes it (gzippedOf, made once on first use); false: sent as it is. */
  readonly compressible: boolean;
}

/** Text compresses to a third or less; images are compressed already. */
const compressible = /^(text\/|application\/(manifest\+)?json)/;

/** A file to answer from memory, with its validator. */
export function staticFile(body: Buffer | string, type: string, cacheControl: string): StaticFile {
  return { body, type, etag: `"${digest(body)}"`, cacheControl, compressible: compressible.test(type) };
}

const gzipped = new WeakMap<StaticFile, Promise<{ readonly body: Buffer; readonly etag: string }>>();

/**
 * The file gzipped, with a validator of its own: made once, on first use (node:zlib is loaded then, not at start:
 * A server that answers the API only never loads it).
 */
export function gzippedOf(file: StaticFile): Promise<{ readonly body: Buffer; readonly etag: string }> {
  let found = gzipped.get(file);
  if (found === undefined) {
    found = import('node:zlib').then(({ gzipSync }) => ({
      body: gzipSync(file.body, { level: 9 }),
      etag: `${file.etag.slice(0, -1)}-gzip"`,
    }));
    gzipped.set(file, found);
  }
  return found;
}

/** The built pages: the manifest and every asset it names, read once on the first page or asset requested. */
export interface WebAssets {
  readonly manifest: WebManifest;
  /** Under /assets: every file of the build's dist/assets, by name. */
  readonly assets: ReadonlyMap<string, StaticFile>;
  /** At the site's root, by name: kept no longer than a revalidation (their names stay, their content changes). */
  readonly rootFiles: ReadonlyMap<string, StaticFile>;
}

export const digest = (body: Buffer | string) => createHash('sha256').update(body).digest('base64url');

const types: Readonly<Record<string, string>> = {
  js: 'text/javascript; charset=utf-8',
  css: 'text/css; charset=utf-8',
  png: 'image/png',
  webmanifest: 'application/manifest+json; charset=utf-8',
};
const typeOf = (name: string) => types[name.slice(name.lastIndexOf('.') + 1)] ?? 'application/octet-stream';

/** The assets' names carry their hash: a browser keeps them for a year, and a new version is a new name. */
const immutable = 'public, max-age=31536000, immutable';

/**
 * Reads the web package's build (`@canteen-meals/web`, built by `pnpm build`). Not at start: most instances answer
 * the API only, and start time counts. A missing build is an operator's mistake the error names.
 */
export function loadWebAssets(): WebAssets {
  let manifestPath: string;
  try {
    manifestPath = createRequire(import.meta.url).resolve('@canteen-meals/web/manifest.json');
  } catch (cause) {
    throw new Error('the browser pages are not built (packages/web/dist/manifest.json is missing): run pnpm build', {
      cause,
    });
  }
  const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as WebManifest;
  const directory = join(dirname(manifestPath), 'assets');
  const assets = new Map<string, StaticFile>();
  // Every file of the build: the pages' scripts and style sheets, the chunks they load, the app's icons.
  for (const name of readdirSync(directory)) {
    assets.set(name, staticFile(readFileSync(join(directory, name)), typeOf(name), immutable));
  }
  const rootFiles = new Map<string, StaticFile>();
  for (const name of manifest.rootFiles ?? []) {
    rootFiles.set(name, staticFile(readFileSync(join(dirname(manifestPath), 'root', name)), typeOf(name), 'no-cache'));
  }
  return { manifest, assets, rootFiles };
}

/** Loads on first use and keeps the result (or the failure's cause, tried again on the next request). */
export function lazyWebAssets(load: () => WebAssets = loadWebAssets): () => WebAssets {
  let loaded: WebAssets | undefined;
  return () => (loaded ??= load());
}
