import { labelsLegend, routes } from '@canteen-meals/http-contract';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { publicRouteErrors } from '../schemas/error-responses.js';
import { serveRoute } from '../serve-route.js';
import { answerUnlessFresh } from './fresh-answers.js';
import { strongTagOf } from '@canteen-meals/read-models';

/** The legend changes only with a new release, so caches may keep it a day and then ask again by its tag. */
const legendCacheControl = 'public, max-age=86400, stale-while-revalidate=604800';

/** GET /labels: the label vocabulary, public and cacheable, serialized once. */
export const labelRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const body = JSON.stringify({ status: 'success', data: labelsLegend });
  const etag = strongTagOf(body);
  serveRoute(app, routes.listLabels, { errors: publicRouteErrors }, async (request, reply) => {
    reply.header('cache-control', legendCacheControl).header('etag', etag);
    return answerUnlessFresh(request, reply, etag, body);
  });
};
