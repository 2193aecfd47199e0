import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import { handleError } from '../error-handler.js';
import { echoRequestId } from './observability-hooks.js';
import { requestIdOf } from './request-id.js';
import { DebugRequestLogController } from './request-logging.js';

/**
 * A bare Fastify app for a port beside the API (metrics, or the one answering while the service starts): the API's
 * request ids, request logging and error envelope, and no routes yet.
 */
export function buildSideApp(logger: FastifyServerOptions['logger'] | undefined): FastifyInstance {
  const app = Fastify({
    logger: logger ?? false,
    logController: new DebugRequestLogController(),
    requestIdHeader: false,
    genReqId: requestIdOf,
  });
  echoRequestId(app);
  app.setErrorHandler(handleError);
  return app;
}
