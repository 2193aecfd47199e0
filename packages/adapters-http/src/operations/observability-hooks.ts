import type { FastifyInstance } from 'fastify';
import { unmatchedRoute, type RequestObserver } from './operations-options.js';
import { requestIdHeader } from './request-id.js';

/** Every response carries the request id that its log lines carry, so a caller can quote it. */
export function echoRequestId(app: FastifyInstance): void {
  app.addHook('onRequest', (request, reply, done) => {
    reply.header(requestIdHeader, request.id);
    done();
  });
}

export function observeRequests(app: FastifyInstance, observe: RequestObserver): void {
  app.addHook('onResponse', (request, reply, done) => {
    observe({
      method: request.method,
      route: request.routeOptions.url ?? unmatchedRoute,
      statusCode: reply.statusCode,
      durationSeconds: reply.elapsedTime / 1000,
    });
    done();
  });
}
