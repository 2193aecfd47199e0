import { randomUUID } from 'node:crypto';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Fastify, { LogController, type FastifyInstance, type FastifyServerOptions } from 'fastify';
import { authenticateWith } from './auth/authenticate.js';
import type { TokenVerifier } from './auth/token-verifier.js';
import { errorEnvelope, handleError } from './error-handler.js';
import { HttpError } from './http-error.js';
import { createSchemaValidator } from './schema-validation.js';
import { mealRoutes, type MealRoutesOptions } from './routes/meal-routes.js';

export interface HttpAppOptions {
  readonly useCases: MealRoutesOptions;
  readonly verifyToken: TokenVerifier;
  /** Fastify's logger option: false, or pino options such as `{ level: 'info' }`. */
  readonly logger?: FastifyServerOptions['logger'];
}

export const apiPrefix = '/api/v1';

export async function buildHttpApp(options: HttpAppOptions): Promise<FastifyInstance> {
  const app = Fastify({
    logger: options.logger ?? false,
    // One line per request at info is too costly at lunchtime; errors and 5xx are still logged.
    logController: new LogController({ disableRequestLogging: true }),
    requestIdHeader: 'x-request-id',
    genReqId: () => randomUUID(),
    // Fastify's own 503 while closing is not in our envelope; the onRequest hook below answers instead.
    return503OnClosing: false,
  }).withTypeProvider<TypeBoxTypeProvider>();

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

  await app.register(
    async (api) => {
      api.addHook('onRequest', authenticateWith(options.verifyToken));
      await api.register(mealRoutes, options.useCases);
    },
    { prefix: apiPrefix },
  );
  return app;
}
