import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import { authenticateWith } from './auth/authenticate.js';
import type { TokenVerifier } from './auth/token-verifier.js';
import { errorEnvelope, handleError } from './error-handler.js';
import { HttpError } from './http-error.js';
import { createSchemaValidator } from './schema-validation.js';
import { mealRoutes, type MealRoutesOptions } from './routes/meal-routes.js';
import { echoRequestId, observeRequests } from './operations/observability-hooks.js';
import type { OperationsOptions } from './operations/operations-options.js';
import { metricsRoute, probeRoutes } from './operations/operations-routes.js';
import { requestIdOf } from './operations/request-id.js';
import { DebugRequestLogController } from './operations/request-logging.js';

export interface HttpAppOptions {
  readonly useCases: MealRoutesOptions;
  readonly verifyToken: TokenVerifier;
  /** Fastify's logger option: false, or pino options such as `{ level: 'info' }`. */
  readonly logger?: FastifyServerOptions['logger'];
  /** Health, readiness and metrics: see operations/operations-options.ts. */
  readonly operations?: OperationsOptions;
}

export const apiPrefix = '/api/v1';

export async function buildHttpApp(options: HttpAppOptions): Promise<FastifyInstance> {
  const app = Fastify({
    logger: options.logger ?? false,
    logController: new DebugRequestLogController(),
    // The caller's X-Request-Id is validated before it reaches a log line, so Fastify must not take it as it is.
    requestIdHeader: false,
    genReqId: requestIdOf,
    // Fastify's own 503 while closing is not in our envelope; the onRequest hook below answers instead.
    return503OnClosing: false,
  }).withTypeProvider<TypeBoxTypeProvider>();
  echoRequestId(app);
  const { readiness = async () => {}, metrics, observeRequest } = options.operations ?? {};
  if (observeRequest !== undefined) observeRequests(app, observeRequest);

  // The contract is strict: "5" is not 5, and unknown fields are refused, never stripped.
  const ajv = createSchemaValidator();
  app.setValidatorCompiler(({ schema }) => ajv.compile(schema));

  // Only JSON is accepted: every other media type (text/plain included) answers 415.
  app.removeContentTypeParser('text/plain');
  app.decorateRequest('principal', null);

  // While closing, requests in flight finish; a new one on a kept-alive connection is refused in the envelope.
  let closing = false;
  app.addHook('preClose', async () => {
    closing = true;
  });
  app.addHook('onRequest', async (_request, reply) => {
    if (!closing) return;
    reply.header('connection', 'close');
    throw new HttpError('service_unavailable', 'The server is shutting down; retry on another connection.');
  });
  // A kept-alive connection would hold the close open until its timeout: the last answer on it closes it.
  app.addHook('onSend', async (_request, reply) => {
    if (closing) reply.header('connection', 'close');
  });
  app.setErrorHandler(handleError);
  app.setNotFoundHandler((request, reply) =>
    reply.code(404).send(errorEnvelope('not_found', `No route ${request.method} ${request.url.split('?')[0]}.`)),
  );

  await app.register(probeRoutes, { readiness });
  if (metrics !== undefined) await app.register(metricsRoute, { metrics });
  await app.register(
    async (api) => {
      api.addHook('onRequest', authenticateWith(options.verifyToken));
      await api.register(mealRoutes, options.useCases);
    },
    { prefix: apiPrefix },
  );
  return app;
}
