import type { FastifyInstance, FastifyServerOptions } from 'fastify';
import { errorEnvelope } from '../error-handler.js';
import { httpStatusOf } from '../error-mapping.js';
import { buildSideApp } from './side-app.js';

/**
 * What answers on the service's port while the server cannot start yet (its database does not answer): liveness is
 * fine, readiness says why not, and every other request is told to come back. An orchestrator then sees a live
 * process that is not ready, instead of one that restarts in a loop.
 */
export async function buildStartingApp(options: {
  /** Why the service is not ready yet, one sentence (it goes to the client: no secrets in it). */
  readonly notReadyBecause: () => string;
  readonly logger?: FastifyServerOptions['logger'];
}): Promise<FastifyInstance> {
  const app = buildSideApp(options.logger);
  app.get('/healthz', async () => ({ status: 'success', data: { status: 'ok' } }));
  app.get('/readyz', async (_request, reply) =>
    reply.code(httpStatusOf.not_ready).send(errorEnvelope('not_ready', options.notReadyBecause())),
  );
  app.setNotFoundHandler((_request, reply) =>
    reply
      .code(httpStatusOf.service_unavailable)
      .header('retry-after', '5')
      .send(errorEnvelope('service_unavailable', `The service is starting: ${options.notReadyBecause()}`)),
  );
  return app;
}
