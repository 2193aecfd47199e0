import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

/** What the web package's build writes into dist/manifest.json (packages/web/build.mjs). */
export interface WebManifest {
  readonly languages: readonly string[];
  readonly pages: Readonly<Record<string, BuiltPage>>;
}
export interface BuiltPage {
  readonly script: string;
  readonly style: string | null;
  readonly title: Readonly<Record<string, string>>;
  readonly noscript: Readonly<Record<string, string>>;
}

/** A file answered from memory, with its validator. */
export interface StaticFile {
  readonly body: Buffer | string;
  readonly type: string;
  readonly etag: string;
  readonly cacheControl: string;
}

/** The built pages: the manifest and every asset it names, read once on the first page or asset requested. */
export interface WebAssets {
  readonly manifest: WebManifest;
  readonly assets: ReadonlyMap<string, StaticFile>;
}

export const digest = (body: Buffer | string) => createHash('sha256').update(body).digest('base64url');

const types: Readonly<Record<string, string>> = {
  js: 'text/javascript; charset=utf-8',
  css: 'text/css; charset=utf-8',
};

/** The assets' names carry their hash: a browser keeps them for a year, and a new version is a new name. */
const immutable = 'public, max-age=31536000, immutable';

/**
 * Reads the web package's build (`@canteen-meals/web`, built by `pnpm build`). Not at start: most instances answer
 * the API only, and start time counts (issue 30). A missing build is an operator's mistake the error names.
 */
export function loadWebAssets(): WebAssets {
  let manifestPath: string;
  try {
    manifestPath = createRequire(import.meta.url).resolve('@canteen-meals/web/manifest.json');
  } catch (cause) {
    throw new Error('the browser pages are not built (packages/web/dist/manifest.json is missing): run pnpm build', { cause });
  }
  const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as WebManifest;
  const directory = join(dirname(manifestPath), 'assets');
  const assets = new Map<string, StaticFile>();
  for (const page of Object.values(manifest.pages)) {
    for (const name of [page.script, page.style]) {
      if (name === null || assets.has(name)) continue;
      const body = readFileSync(join(directory, name));
      const extension = name.slice(name.lastIndexOf('.') + 1);
      assets.set(name, { body, type: types[extension] ?? 'application/octet-stream', etag: `"${digest(body)}"`, cacheControl: immutable });
    }
  }
  return { manifest, assets };
}

/** Loads on first use and keeps the result (or the failure's cause, tried again on the next request). */
export function lazyWebAssets(load: () => WebAssets = loadWebAssets): () => WebAssets {
  let loaded: WebAssets | undefined;
  return () => (loaded ??= load());
}
