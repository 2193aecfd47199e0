import { randomUUID } from 'node:crypto';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Fastify, { LogController, type FastifyInstance, type FastifyServerOptions } from 'fastify';
import fastifyHelmet from '@fastify/helmet';
import { identifyCallerWith, requireAuthentication } from './auth/authenticate.js';
import type { TokenVerifier } from './auth/token-verifier.js';
import { errorEnvelope, handleError } from './error-handler.js';
import { registerRateLimits, type RateLimits } from './limits/rate-limits.js';
import { serverTimeoutOptions, type HttpTimeouts } from './limits/server-timeouts.js';
import { loggerWithRedaction } from './logging.js';
import { createSchemaValidator } from './schema-validation.js';
import { mealRoutes, type MealRoutesOptions } from './routes/meal-routes.js';

export interface HttpAppOptions {
  readonly useCases: MealRoutesOptions;
  readonly verifyToken: TokenVerifier;
  /** Fastify's logger option: false, or pino options such as `{ level: 'info' }`. */
  readonly logger?: FastifyServerOptions['logger'];
  /** Requests per minute per verified user and per client address (0: off); absent: no rate limiting. */
  readonly rateLimits?: RateLimits;
  /**
   * Which proxies may name the client in X-Forwarded-For (Fastify's trustProxy): false (default) uses the socket's
   * address; true trusts any; a number trusts that many hops; a list trusts those addresses or CIDR ranges.
   */
  readonly trustProxy?: TrustProxy;
  readonly timeouts?: HttpTimeouts;
}

export type TrustProxy = boolean | number | readonly string[];

export const defaultHttpTimeouts: HttpTimeouts = {
  requestMs: 15_000,
  headersMs: 10_000,
  // Longer than the 60 s idle timeout of common load balancers, so that they, not we, close idle connections.
  keepAliveMs: 72_000,
  connectionIdleMs: 120_000,
};

export const apiPrefix = '/api/v1';

export async function buildHttpApp(options: HttpAppOptions): Promise<FastifyInstance> {
  const app = Fastify({
    logger: loggerWithRedaction(options.logger),
    // One line per request at info is too costly at lunchtime; errors and 5xx are still logged.
    logController: new LogController({ disableRequestLogging: true }),
    requestIdHeader: 'x-request-id',
    genReqId: () => randomUUID(),
    trustProxy: trustProxyOption(options.trustProxy ?? false),
    ...serverTimeoutOptions(options.timeouts ?? defaultHttpTimeouts),
  }).withTypeProvider<TypeBoxTypeProvider>();

  // The contract is strict: "5" is not 5, and unknown fields are refused, never stripped.
  const ajv = createSchemaValidator();
  app.setValidatorCompiler(({ schema }) => ajv.compile(schema));

  // Only JSON is accepted: every other media type (text/plain included) answers 415.
  app.removeContentTypeParser('text/plain');
  app.decorateRequest('principal', null);
  app.decorateRequest('authenticationFailure', null);
  app.setErrorHandler(handleError);
  app.setNotFoundHandler((request, reply) =>
    reply.code(404).send(errorEnvelope('not_found', `No route ${request.method} ${request.url.split('?')[0]}.`)),
  );

  // Security headers for every answer; no Content-Security-Policy: the API serves JSON, not documents.
  await app.register(fastifyHelmet, { contentSecurityPolicy: false });
  // In this order: the token is verified before the limiter, so that the limiter counts verified users.
  app.addHook('onRequest', identifyCallerWith(options.verifyToken));
  await registerRateLimits(app, options.rateLimits ?? { userPerMinute: 0, ipPerMinute: 0 });

  await app.register(
    async (api) => {
      api.addHook('onRequest', requireAuthentication);
      await api.register(mealRoutes, options.useCases);
    },
    { prefix: apiPrefix },
  );
  return app;
}

function trustProxyOption(trustProxy: TrustProxy): Exclude<FastifyServerOptions['trustProxy'], undefined> {
  if (typeof trustProxy === 'number') return (_address, hop) => hop < trustProxy;
  return typeof trustProxy === 'boolean' ? trustProxy : [...trustProxy];
}
