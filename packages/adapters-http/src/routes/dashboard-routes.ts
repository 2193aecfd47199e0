import { createHash } from 'node:crypto';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ifNoneMatchHolds } from '../conditional-requests.js';
import { dashboardPage } from '../dashboard/dashboard-page.js';
import { dashboardScript } from '../dashboard/dashboard-script.js';
import { dashboardStyle } from '../dashboard/dashboard-style.js';

export const dashboardPath = '/dashboard';

/**
 * The page loads its script and style sheet from this origin and talks to this origin's API; nothing else, not even
 * an inline script or style. Frames, forms and <base> are refused; images only from here or data: (the empty favicon).
 */
export const dashboardContentSecurityPolicy = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "connect-src 'self'",
  "img-src 'self' data:",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

interface StaticFile {
  readonly body: string;
  readonly type: string;
  readonly etag: string;
  readonly cacheControl: string;
}

const digest = (text: string) => createHash('sha256').update(text).digest('base64url');

/** The assets' names carry their hash: a browser keeps them for a year, and a new version is a new name. */
function asset(name: string, extension: string, body: string, type: string): readonly [string, StaticFile] {
  const hash = digest(body);
  return [`${name}.${hash.slice(0, 12)}.${extension}`, { body, type, etag: `"${hash}"`, cacheControl: 'public, max-age=31536000, immutable' }];
}

const [styleName, style] = asset('dashboard', 'css', dashboardStyle, 'text/css; charset=utf-8');
const [scriptName, script] = asset('dashboard', 'js', dashboardScript, 'text/javascript; charset=utf-8');
const assets = new Map<string, StaticFile>([
  [styleName, style],
  [scriptName, script],
]);
const pageBody = dashboardPage({ style: `${dashboardPath}/${styleName}`, script: `${dashboardPath}/${scriptName}` });
/** The page names the assets of this version, so a browser asks again each time (a 304 when nothing changed). */
const page: StaticFile = { body: pageBody, type: 'text/html; charset=utf-8', etag: `"${digest(pageBody)}"`, cacheControl: 'no-cache' };

/** The page's own query, read by its script: which canteen and day to show (a wall screen's bookmark). */
const DashboardQuery = Type.Object(
  {
    canteen: Type.Optional(Type.String({ maxLength: 64 })),
    date: Type.Optional(Type.String({ maxLength: 10 })),
  },
  { additionalProperties: false },
);
const AssetParams = Type.Object({ asset: Type.String() });

/**
 * GET /dashboard: the kitchen dashboard, a page for kitchen staff and menu screens that reads the public API (menu,
 * ranking, live statistics). Hidden from the API document: these are not API routes. Its CSP replaces none of the
 * other security headers, and the API's answers keep having none (they are JSON).
 */
export const dashboardRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(dashboardPath, { schema: { hide: true, querystring: DashboardQuery } }, async (request, reply) =>
    sendStatic(request, reply, page),
  );
  app.get(`${dashboardPath}/:asset`, { schema: { hide: true, params: AssetParams } }, async (request, reply) => {
    const file = assets.get(request.params.asset);
    if (file === undefined) return reply.callNotFound();
    return sendStatic(request, reply, file);
  });
};

function sendStatic(request: FastifyRequest, reply: FastifyReply, file: StaticFile) {
  reply.headers({
    'content-security-policy': dashboardContentSecurityPolicy,
    'cache-control': file.cacheControl,
    etag: file.etag,
  });
  if (ifNoneMatchHolds(request.headers, file.etag)) return reply.code(304).send();
  return reply.type(file.type).send(file.body);
}
