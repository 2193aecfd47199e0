// The `hide` of a route's schema (@fastify/swagger's): the pages are not in the OpenAPI document.
import type {} from '@fastify/swagger';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type, type TObject } from '@sinclair/typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ifNoneMatchHolds, varyOn } from '@canteen-meals/adapters-http/plugin-kit';
import { pageHtml } from './page-html.js';
import { pageLanguageOf } from './page-language.js';
import Negotiator from 'negotiator';
import { digest, gzippedOf, lazyWebAssets, staticFile, type StaticFile, type WebAssets } from './web-assets.js';

export const appPath = '/';
export const dashboardPath = '/dashboard';
export const consolePath = '/admin';
/** Where the pages' scripts and style sheets are, under their hashed names. */
export const assetPath = '/assets';

/**
 * The pages load their scripts and style sheets from this origin and talk to this origin's API; nothing else, not even
 * an inline script or style. Frames, forms and <base> are refused; images only from here or data: (the empty favicon).
 * `connectSources` adds origins the scripts may call (the identity provider's, for signing in), nothing else.
 */
export function pageContentSecurityPolicy(connectSources: readonly string[] = []): string {
  return [
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self'",
    ['connect-src', "'self'", ...connectSources].join(' '),
    "img-src 'self' data:",
    // The students' app: its web app manifest and its service worker, from this origin.
    "manifest-src 'self'",
    "worker-src 'self'",
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
}

/** The CSP of the pages when they call nobody but this origin. */
export const dashboardContentSecurityPolicy = pageContentSecurityPolicy();

/** The languages the pages speak (packages/web: one table of texts per language). */
const Language = Type.Union([Type.Literal('en'), Type.Literal('de')]);

/** A page: its path, the web package's page (src/<name>/main.ts) and the query its script reads. */
export interface PageRoute {
  readonly path: string;
  readonly page: string;
  readonly query: TObject;
}

export const dashboardPage: PageRoute = {
  path: dashboardPath,
  page: 'dashboard',
  // Which canteen and day to show (a wall screen's bookmark), how (the kitchen's buttons, the wall's screen), and the
  // language.
  query: Type.Object(
    {
      canteen: Type.Optional(Type.String({ maxLength: 64 })),
      date: Type.Optional(Type.String({ maxLength: 10 })),
      mode: Type.Optional(Type.Union([Type.Literal('kitchen'), Type.Literal('wall')])),
      lang: Type.Optional(Language),
    },
    { additionalProperties: false },
  ),
};

/**
 * The students' app: a canteen's day (`canteen`, `date`; else the last chosen canteen, and today), the view (`menu`,
 * `favourites`, `data`), the language. The sign-in's answer comes in the fragment, as for the console.
 */
export const appPage: PageRoute = {
  path: appPath,
  page: 'app',
  query: Type.Object(
    {
      canteen: Type.Optional(Type.String({ maxLength: 64 })),
      date: Type.Optional(Type.String({ maxLength: 10 })),
      view: Type.Optional(Type.Union([Type.Literal('menu'), Type.Literal('favourites'), Type.Literal('data')])),
      lang: Type.Optional(Language),
    },
    { additionalProperties: false },
  ),
};

/**
 * The admin console: canteens, feeds, a day's menu, webhooks and the ratings report, on the admin API (meals:write).
 */
// Its query: the section and the language. The sign-in comes back in the fragment (response_mode=fragment), which no
// server
// sees: the code stays out of access logs and the pages' strict query schemas stay as they are.
export const consolePage: PageRoute = {
  path: consolePath,
  page: 'console',
  query: Type.Object(
    {
      // The section shown (tabs with URLs); absent: the canteens.
      section: Type.Optional(
        Type.Union(['feeds', 'menu', 'webhooks', 'report', 'activity'].map((name) => Type.Literal(name))),
      ),
      lang: Type.Optional(Language),
    },
    { additionalProperties: false },
  ),
};

/**
 * Sign-in for the pages (OpenID Connect, authorization code with PKCE, a public client): the issuer's discovery tells
 * the page's script where to go. Given to the script as data-* settings; the issuer's origin joins connect-src.
 */
export interface PageSignIn {
  readonly issuer: string;
  readonly clientId: string;
  /** Space-separated, `openid` among them. */
  readonly scopes: string;
  /** The API the access token is for, sent as `audience` (Auth0), and `resource` (RFC 8707) when an absolute URI. */
  readonly audience?: string | undefined;
}

/** The pages' settings and the CSP's extra origin for a sign-in (none without one). */
export function signInPageOptions(
  signIn: PageSignIn | undefined,
): Pick<PageRoutesOptions, 'connectSources' | 'settings'> {
  if (signIn === undefined) return {};
  return {
    connectSources: [new URL(signIn.issuer).origin],
    settings: {
      'oidc-issuer': signIn.issuer,
      'oidc-client-id': signIn.clientId,
      'oidc-scopes': signIn.scopes,
      ...(signIn.audience === undefined ? {} : { 'oidc-audience': signIn.audience }),
    },
  };
}

export interface PageRoutesOptions {
  readonly pages: readonly PageRoute[];
  /** Origins besides this one the pages' scripts may call (the CSP's connect-src). */
  readonly connectSources?: readonly string[];
  /** Settings the pages' scripts read, written as data-* attributes on <html>. */
  readonly settings?: Readonly<Record<string, string>>;
  /** Where the built pages come from (tests); default: the web package's build, read on first use. */
  readonly webAssets?: () => WebAssets;
}

const AssetParams = Type.Object({ file: Type.String({ maxLength: 128 }) });

/**
 * The browser pages (packages/web), hidden from the API document: they are not API routes. Their CSP replaces none of
 * the other security headers, and the API's answers keep having none (they are JSON).
 */
export const pageRoutes: FastifyPluginAsyncTypebox<PageRoutesOptions> = async (app, options) => {
  const web = options.webAssets ?? lazyWebAssets();
  const policy = pageContentSecurityPolicy(options.connectSources);
  const settings = options.settings ?? {};
  /** Each page's HTML per language, made on first request: it names this build's assets. */
  const documents = new Map<string, StaticFile>();

  function documentOf(page: string, language: string): StaticFile {
    const key = `${page}\n${language}`;
    let file = documents.get(key);
    if (file === undefined) {
      const built = web().manifest.pages[page];
      if (built === undefined) throw new Error(`the web build has no page ${page}: run pnpm build`);
      const body = pageHtml({ page: built, language, assetPath, settings });
      // The page names the assets of this version, so a browser asks again each time (a 304 when nothing changed).
      file = staticFile(body, 'text/html; charset=utf-8', 'no-cache');
      documents.set(key, file);
    }
    return file;
  }

  for (const { path, page, query } of options.pages) {
    app.get(path, { schema: { hide: true, querystring: query } }, async (request, reply) => {
      const { lang } = request.query as { lang?: string };
      const language = pageLanguageOf(lang, request.headers['accept-language'], web().manifest.languages);
      // The same URL answers in the language the browser asks for.
      varyOn(reply, 'Accept-Language');
      return sendStatic(request, reply, documentOf(page, language), policy);
    });
  }
  app.get(`${assetPath}/:file`, { schema: { hide: true, params: AssetParams } }, async (request, reply) => {
    const file = web().assets.get(request.params.file);
    if (file === undefined) return reply.callNotFound();
    return sendStatic(request, reply, file, policy);
  });
  if (options.pages.some((page) => page.page === appPage.page)) {
    // The app's service worker and web app manifests, at the root: a worker's scope is the folder it comes from.
    let worker: StaticFile | undefined;
    for (const name of ['sw.js', 'app.en.webmanifest', 'app.de.webmanifest']) {
      app.get(`/${name}`, { schema: { hide: true } }, async (request, reply) => {
        const file = name === 'sw.js' ? (worker ??= workerWithPage(web(), documentOf)) : web().rootFiles.get(name);
        if (file === undefined) return reply.callNotFound();
        return sendStatic(request, reply, file, policy);
      });
    }
  }
};

/**
 * The worker as built, with a last line naming the app's HTML as this server writes it (its settings: the sign-in's
 * issuer and client). A browser installs a worker anew when one byte changes: a changed setting reaches the
 * installed apps at their next start, as a new build does.
 */
function workerWithPage(
  web: WebAssets,
  documentOf: (page: string, language: string) => StaticFile,
): StaticFile | undefined {
  const built = web.rootFiles.get('sw.js');
  if (built === undefined) return undefined;
  const pages = web.manifest.languages.map((language) => documentOf(appPage.page, language).etag).join(' ');
  return staticFile(`${built.body.toString()}\n// ${digest(pages)}\n`, built.type, built.cacheControl);
}

/**
 * A file from memory: gzipped to a browser that takes gzip (text: about a third of the bytes), as it is otherwise; each
 * form with its own validator, and the answer varies by Accept-Encoding.
 */
async function sendStatic(request: FastifyRequest, reply: FastifyReply, file: StaticFile, policy: string) {
  const gzipped =
    file.compressible && new Negotiator(request).encoding(['gzip', 'identity']) === 'gzip'
      ? await gzippedOf(file)
      : undefined;
  const etag = gzipped?.etag ?? file.etag;
  reply.headers({ 'content-security-policy': policy, 'cache-control': file.cacheControl, etag });
  if (file.compressible) varyOn(reply, 'Accept-Encoding');
  if (ifNoneMatchHolds(request.headers, etag)) return reply.code(304).send();
  if (gzipped !== undefined) reply.header('content-encoding', 'gzip');
  return reply.type(file.type).send(gzipped?.body ?? file.body);
}
