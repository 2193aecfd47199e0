import type { FastifyInstance, FastifyServerOptions } from 'fastify';
import { errorEnvelope } from '../error-handler.js';
import { discardUnreadBody, noRouteMessage, refuseBodiesNotTaken } from '../limits/request-bodies.js';
import type { MetricsEndpoint } from './operations-options.js';
import { metricsRoute } from './operations-routes.js';
import { buildSideApp } from './side-app.js';

/** A tiny app that serves only `GET /metrics`, for a port that only the monitoring network can reach. */
export async function buildMetricsApp(options: {
  readonly metrics: MetricsEndpoint;
  /** As on the API port: when set, a scrape needs `Authorization: Bearer <metricsToken>`. */
  readonly metricsToken?: string;
  readonly logger?: FastifyServerOptions['logger'];
}): Promise<FastifyInstance> {
  const app = buildSideApp(options.logger);
  app.setNotFoundHandler((request, reply) => reply.code(404).send(errorEnvelope('not_found', noRouteMessage(request))));
  // No route here takes a body: as on the API port, one is refused before it is read, and the rest dropped.
  app.addHook('preParsing', refuseBodiesNotTaken);
  app.addHook('onSend', discardUnreadBody);
  const token = options.metricsToken;
  await app.register(metricsRoute, { metrics: options.metrics, ...(token === undefined ? {} : { token }) });
  return app;
}
