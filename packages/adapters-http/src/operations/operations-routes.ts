import { createHash, timingSafeEqual } from 'node:crypto';
import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { isStorageUnavailable } from '@canteen-meals/domain';
import { errorEnvelope } from '../error-handler.js';
import { httpStatusOf } from '../error-mapping.js';
import { HttpError } from '../http-error.js';
import { successEnvelope } from '@canteen-meals/http-contract';
import { errorResponses } from '../schemas/error-responses.js';
import type { MetricsEndpoint, ReadinessCheck } from './operations-options.js';

const ProbeData = Type.Object({ status: Type.Literal('ok') });
const ok = { status: 'success' as const, data: { status: 'ok' as const } };

/** A probe can only fail with a 503: not_ready, or service_unavailable while the server shuts down. */
const livenessErrors = errorResponses(['service_unavailable']);
const readinessErrors = errorResponses(['not_ready', 'service_unavailable']);

/** Liveness and readiness probes: unauthenticated, outside /api/v1, cheap enough to call every few seconds. */
export const probeRoutes: FastifyPluginAsyncTypebox<{ readonly readiness: ReadinessCheck }> = async (
  app,
  { readiness },
) => {
  app.get(
    '/healthz',
    {
      schema: {
        summary: 'Liveness: the process answers HTTP',
        tags: ['operations'],
        response: { 200: successEnvelope(ProbeData), ...livenessErrors },
      },
    },
    async () => ok,
  );

  app.get(
    '/readyz',
    {
      schema: {
        summary: 'Readiness: the database answers',
        tags: ['operations'],
        response: { 200: successEnvelope(ProbeData), ...readinessErrors },
      },
    },
    async (request, reply) => {
      try {
        await readiness();
        return ok;
      } catch (error) {
        // The cause stays in the log, with the request id; the probe only learns that the service is not ready.
        // An unavailable storage said why once, when it failed; a probe every few seconds would repeat it.
        if (!isStorageUnavailable(error)) request.log.error({ err: error }, 'readiness check failed');
        return reply.code(httpStatusOf.not_ready).send(errorEnvelope('not_ready', 'The database does not answer.'));
      }
    },
  );
};

export interface MetricsRouteOptions {
  readonly metrics: MetricsEndpoint;
  /** When set, a scrape must send `Authorization: Bearer <token>`; otherwise it answers 401 unauthenticated. */
  readonly token?: string;
}

/** `GET /metrics` in the exposition format the endpoint renders (Prometheus text). */
export const metricsRoute: FastifyPluginAsyncTypebox<MetricsRouteOptions> = async (app, { metrics, token }) => {
  const authorized = token === undefined ? () => true : bearerMatcher(token);
  app.get(
    '/metrics',
    {
      schema: {
        summary: 'Metrics in the Prometheus text format',
        tags: ['operations'],
        produces: ['text/plain'],
        response: {
          200: Type.String({ description: 'Prometheus text exposition format' }),
          ...(token === undefined ? {} : errorResponses(['unauthenticated'])),
        },
      },
      onRequest: (request, _reply, done) => {
        if (authorized(request.headers.authorization)) return done();
        done(
          new HttpError('unauthenticated', 'GET /metrics needs Authorization: Bearer <METRICS_TOKEN>.', {
            'www-authenticate': 'Bearer',
          }),
        );
      },
    },
    async (_request, reply) => reply.type(metrics.contentType).send(await metrics.render()),
  );
};

/** Compares digests in constant time: neither the token's content nor its length leaks through timing. */
function bearerMatcher(token: string): (authorization: string | undefined) => boolean {
  const digest = (value: string) => createHash('sha256').update(value).digest();
  const expected = digest(`Bearer ${token}`);
  return (authorization) => authorization !== undefined && timingSafeEqual(digest(authorization), expected);
}
