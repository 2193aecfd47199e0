import { systemClock, type RankingSettings } from '@canteen-meals/domain';
import type { Clock } from '@canteen-meals/domain/ports';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { apiPrefix } from '@canteen-meals/http-contract';
import { Type } from '@sinclair/typebox';
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import { identifyCallerWith, requireAuthentication } from './auth/authenticate.js';
import type { TokenVerifier } from '@canteen-meals/adapters-jwt';
import { authorizeStaff } from './auth/authorize-staff.js';
import { canteenLocatorOver } from './auth/canteen-locator.js';
import { registerCompression } from './compression.js';
import { registerCors } from './cors.js';
import { docsPath, openApiPath, registerApiDocs } from './docs/api-docs.js';
import { answerClientError, answerFrameworkError } from './edge-errors.js';
import { errorEnvelope, handleError } from './error-handler.js';
import { HttpError } from './http-error.js';
import { parseJsonBody } from './json-body.js';
import { discardUnreadBody, noRouteMessage, refuseBodiesNotTaken } from './limits/request-bodies.js';
import { validationMessage } from './validation-messages.js';
import { registerRateLimits, type RateLimits } from './limits/rate-limits.js';
import type { SharedRateLimitOptions } from './limits/shared-rate-limit-store.js';
import { serverTimeoutOptions, type HttpTimeouts } from './limits/server-timeouts.js';
import { loggerWithRedaction } from './logging.js';
import { securityHeaders } from './security-headers.js';
import { createSchemaValidator } from './schema-validation.js';
import { schemasCompiledOnFirstUse } from './lazy-compilers.js';
import { adminCanteenRoutes, publicCanteenRoutes } from './routes/canteen-routes.js';
import { canteenArchiveRoutes } from './routes/canteen-archive-routes.js';
import { kitchenRoutes } from './routes/kitchen-routes.js';
import { adminDishRoutes, publicDishRoutes } from './routes/dish-routes.js';
import { feedRoutes } from './routes/feed-routes.js';
import { mealRoutes } from './routes/meal-routes.js';
import { defaultMenuCaching, menuRoutes, type MenuCachingOptions } from './routes/menu-routes.js';
import { labelRoutes } from './routes/label-routes.js';
import { preferenceRoutes } from './routes/preference-routes.js';
import { rankingRoutes } from './routes/ranking-routes.js';
import { mealReadRoute, readRoutes } from './routes/read-routes.js';
import { auditRoutes } from './routes/audit-routes.js';
import { reportRoutes } from './routes/report-routes.js';
import { upcomingRoutes } from './routes/upcoming-routes.js';
import { userDataRoutes } from './routes/user-data-routes.js';
import { echoRequestId, observeRequests } from './operations/observability-hooks.js';
import type { OperationsOptions } from './operations/operations-options.js';
import { metricsRoute, probeRoutes } from './operations/operations-routes.js';
import { requestIdOf } from './operations/request-id.js';
import { DebugRequestLogController } from './operations/request-logging.js';
import type { HttpAppPlugin } from './http-plugins.js';
import type { HttpUseCases } from './http-use-cases.js';
import { closedDayRoutes } from './routes/closed-day-routes.js';

export interface HttpAppOptions {
  /** The use cases, one group per plugin (see HttpUseCases; `httpUseCasesOf` groups the domain's createUseCases). */
  readonly useCases: HttpUseCases;
  /** The clock of the use cases: when kept menu answers stop being exact. Default: the system clock. */
  readonly clock?: Clock;
  /**
   * Public menu answers: how long shared caches may keep them, and how this process keeps them (see MenuCacheSettings).
   * Default: nothing kept in the process (`noMenuCache`), `max-age=5, stale-while-revalidate=30`.
   */
  readonly menuCaching?: MenuCachingOptions;
  /**
   * The prior (pseudo-votes per star) and confidence z of the ranking scores (GET /rankings); refused at build when
   * invalid (see rankingSettingsProblem). Default: the domain's, one pseudo-vote per star and z = 1.65.
   */
  readonly rankingSettings?: RankingSettings;
  readonly verifyToken: TokenVerifier;
  /** Fastify's logger option: false, or pino options such as `{ level: 'info' }`. */
  readonly logger?: FastifyServerOptions['logger'];
  /** Serve the OpenAPI document at /openapi.json and Swagger UI at /docs (default true). */
  readonly docs?: boolean;
  /** Send JSON and text of 1 KB and more compressed to clients that take it (default true; see compression.ts). */
  readonly compression?: boolean;
  /** Health, readiness and metrics: see operations/operations-options.ts. */
  readonly operations?: OperationsOptions;
  /** Requests per minute per verified user and per client address (0: off); absent: no rate limiting. */
  readonly rateLimits?: RateLimits;
  /**
   * The count the rate limits share with every other instance (on the database they share), on fixed windows aligned
   * by `clock`; absent: each instance counts on its own.
   */
  readonly sharedRateLimits?: SharedRateLimitOptions;
  /**
   * Which proxies may name the client in X-Forwarded-For (Fastify's trustProxy): false (default) uses the socket's
   * address; true trusts any; a number trusts that many hops; a list trusts those addresses or CIDR ranges.
   */
  readonly trustProxy?: TrustProxy;
  /** Browser origins (`https://app.example.com`) allowed to call the API with CORS; empty or absent: none. */
  readonly corsOrigins?: readonly string[];
  readonly timeouts?: HttpTimeouts;
  /**
   * Signs the page cursors (HMAC-SHA256): every instance behind one load balancer needs the same one to accept the
   * others' cursors. Absent: a random key of this process, fine for a single instance.
   */
  readonly cursorSecret?: string | undefined;
  /** The service's public address (PUBLIC_BASE_URL, no trailing slash): absolute links are built on it, not on Host. */
  readonly publicBaseUrl?: string | undefined;
  /**
   * Route packages served beside the API, each with the use cases it calls (e.g. @canteen-meals/adapters-http-openmensa's
   * `openMensaPlugin`, then @canteen-meals/adapters-http-pages' `pagesPlugin`): registered after the public API routes.
   */
  readonly plugins?: readonly HttpAppPlugin[];
}

export type TrustProxy = boolean | number | readonly string[];

export const defaultHttpTimeouts: HttpTimeouts = {
  requestMs: 15_000,
  headersMs: 10_000,
  // Longer than the 60 s idle timeout of common load balancers, so that they, not we, close idle connections.
  keepAliveMs: 72_000,
  connectionIdleMs: 120_000,
};

export { apiPrefix };

const noQueryParameters = Type.Object({}, { additionalProperties: false });

export async function buildHttpApp(options: HttpAppOptions): Promise<FastifyInstance> {
  const { useCases } = options;
  const plugins = options.plugins ?? [];
  const rewrites = plugins.flatMap((plugin) => (plugin.rewriteUrl === undefined ? [] : [plugin.rewriteUrl]));
  // Security headers for every answer (helmet's, without a Content-Security-Policy: the API serves JSON; the dashboard
  // sets its own).
  const headers = securityHeaders();
  const app = Fastify({
    logger: loggerWithRedaction(options.logger),
    logController: new DebugRequestLogController(),
    // The caller's X-Request-Id is validated before it reaches a log line, so Fastify must not take it as it is.
    requestIdHeader: false,
    genReqId: requestIdOf,
    // Fastify's own 503 while closing is not in our envelope; the onRequest hook below answers instead.
    return503OnClosing: false,
    trustProxy: trustProxyOption(options.trustProxy ?? false),
    // What fails before a route is found answers in the envelope too: malformed HTTP, a URL that cannot be decoded.
    clientErrorHandler: answerClientError(headers),
    frameworkErrors: answerFrameworkError(headers),
    schemaErrorFormatter: (errors, location) => new Error(validationMessage(errors, location)),
    // The paths the plugins' clients send, to their routes (e.g. OpenMensa's `/api/v2//canteens`); others unchanged.
    rewriteUrl: (request) => rewrites.reduce((url, rewrite) => rewrite(url), request.url ?? '/'),
    // The contract is strict: "5" is not 5, and unknown fields are refused, never stripped. A route's validators and
    // serializers are compiled on its first request, not at start (lazy-compilers.ts).
    schemaController: schemasCompiledOnFirstUse(createSchemaValidator()),
    ...serverTimeoutOptions(options.timeouts ?? defaultHttpTimeouts),
  }).withTypeProvider<TypeBoxTypeProvider>();
  echoRequestId(app);
  const { readiness = async () => {}, metrics, metricsToken, observeRequest } = options.operations ?? {};
  if (observeRequest !== undefined) observeRequests(app, observeRequest);

  // Only JSON is accepted: every other media type (text/plain included) answers 415.
  app.removeContentTypeParser(['text/plain', 'application/json']);
  app.addContentTypeParser('application/json', { parseAs: 'string' }, parseJsonBody);
  // Every route refuses unknown query parameters: one without its own query schema gets an empty, strict one.
  app.addHook('onRoute', (route) => {
    route.schema = { ...route.schema, querystring: route.schema?.querystring ?? noQueryParameters };
  });
  app.decorateRequest('principal', null);
  app.decorateRequest('authenticationFailure', null);

  // First, so that every answer carries them, the refusals of the hooks below included.
  app.addHook('onRequest', (_request, reply, done) => {
    reply.headers(headers);
    done();
  });

  // While closing, requests in flight finish; a new one on a kept-alive connection is refused in the envelope.
  let closing = false;
  app.addHook('preClose', async () => {
    closing = true;
  });
  // The hooks every request passes take Fastify's `done` callback: an async hook costs a promise per request.
  app.addHook('onRequest', (_request, reply, done) => {
    if (!closing) return done();
    reply.header('connection', 'close');
    done(new HttpError('service_unavailable', 'The server is shutting down; retry on another connection.'));
  });
  // Before the hook below, which closes the connection anyway while shutting down.
  app.addHook('onSend', discardUnreadBody);
  // A kept-alive connection would hold the close open until its timeout: the last answer on it closes it.
  app.addHook('onSend', (_request, reply, payload, done) => {
    if (closing) reply.header('connection', 'close');
    done(null, payload);
  });
  // An answer to a verified token that says nothing of caching is the caller's own: no shared cache may keep it.
  // Routes whose answers are the same for everyone (rankings, the dashboard) say so with a Cache-Control of their own.
  app.addHook('onSend', (request, reply, payload, done) => {
    if (request.principal !== null && !reply.hasHeader('cache-control'))
      reply.header('cache-control', 'private, no-store');
    done(null, payload);
  });
  // Before every route: the plugin adds its hook to each route registered after it.
  if (options.compression ?? true) await registerCompression(app);
  app.setErrorHandler(handleError);
  app.setNotFoundHandler((request, reply) => reply.code(404).send(errorEnvelope('not_found', noRouteMessage(request))));
  // Bodies that no route takes are refused before they are read: after the token checks, before the parser.
  app.addHook('preParsing', refuseBodiesNotTaken);

  // Before the token check and the limiter: a preflight needs neither, and a 401 or 429 must carry the CORS headers.
  await registerCors(app, { origins: options.corsOrigins ?? [], apiPrefix });
  // In this order: the token is verified before the limiter, so that the limiter counts verified users.
  app.addHook('onRequest', identifyCallerWith(options.verifyToken));
  await registerRateLimits(app, options.rateLimits ?? { userPerMinute: 0, ipPerMinute: 0 }, {
    limitedPrefixes: [apiPrefix, ...plugins.flatMap((plugin) => plugin.limitedPrefixes ?? []), openApiPath, docsPath],
    ...(options.sharedRateLimits && {
      shared: { options: options.sharedRateLimits, clock: options.clock ?? systemClock },
    }),
  });

  // Before every route: the document lists the routes registered after it.
  if (options.docs ?? true) await registerApiDocs(app, { apiPrefix });

  await app.register(probeRoutes, { readiness });
  if (metrics !== undefined) {
    await app.register(metricsRoute, { metrics, ...(metricsToken === undefined ? {} : { token: metricsToken }) });
  }
  await app.register(
    async (api) => {
      api.addHook('onRequest', requireAuthentication);
      // Every staff route (/admin, /kitchen) through the one access policy: see auth/route-access.ts.
      authorizeStaff(api, canteenLocatorOver(useCases.access));
      await api.register(mealRoutes, useCases.meals);
      // Each plugin keeps its own hooks: the write routes' body check does not reach these GET and DELETE routes.
      await api.register(readRoutes, { ...useCases.reads, cursorSecret: options.cursorSecret });
      await api.register(userDataRoutes, useCases.userData);
      await api.register(upcomingRoutes, useCases.upcoming);
      await api.register(preferenceRoutes, { ...useCases.preferences, cursorSecret: options.cursorSecret });
      await api.register(adminCanteenRoutes, useCases.canteens);
      await api.register(closedDayRoutes, useCases.closedDays);
      await api.register(canteenArchiveRoutes, useCases.canteenArchive);
      await api.register(adminDishRoutes, useCases.dishes);
      await api.register(kitchenRoutes, useCases.kitchen);
      await api.register(feedRoutes, useCases.feeds);
      await api.register(reportRoutes, useCases.reports);
      await api.register(auditRoutes, { ...useCases.audit, cursorSecret: options.cursorSecret });
    },
    { prefix: apiPrefix },
  );
  // Public: no token needed, and one that is sent is neither required nor checked here.
  await app.register(publicCanteenRoutes, { ...useCases.canteens, prefix: apiPrefix });
  await app.register(labelRoutes, { prefix: apiPrefix });
  await app.register(publicDishRoutes, {
    ...useCases.dishes,
    cursorSecret: options.cursorSecret,
    menuCaching: options.menuCaching,
    prefix: apiPrefix,
  });
  // A token is optional: a meal's public fields for everyone, with the caller's marking and rating for a caller.
  await app.register(mealReadRoute, { ...useCases.meal, prefix: apiPrefix });
  // A token is optional: the menus are public, and personalized for a caller who sends one.
  await app.register(menuRoutes, {
    ...useCases.menus,
    clock: options.clock ?? systemClock,
    menuCaching: options.menuCaching,
    cursorSecret: options.cursorSecret,
    prefix: apiPrefix,
  });
  // Public, and the same for every caller: a token is neither needed nor read. Cached by others, like the menu.
  await app.register(rankingRoutes, {
    ...useCases.rankings,
    menuCaching: options.menuCaching,
    rankingSettings: options.rankingSettings,
    prefix: apiPrefix,
  });
  // The plugin packages (e.g. OpenMensa's API v2 and the menu exports), each in a scope of its own.
  const context = {
    clock: options.clock ?? systemClock,
    menuCaching: options.menuCaching ?? defaultMenuCaching,
    publicBaseUrl: options.publicBaseUrl,
    apiPrefix,
  };
  for (const plugin of plugins) await app.register(async (scope) => plugin.register(scope, context));
  return app;
}

function trustProxyOption(trustProxy: TrustProxy): Exclude<FastifyServerOptions['trustProxy'], undefined> {
  if (typeof trustProxy === 'number') return (_address, hop) => hop < trustProxy;
  return typeof trustProxy === 'boolean' ? trustProxy : [...trustProxy];
}
