import { LabelsData, labelsLegend, routePaths, successEnvelope, successExample } from '@canteen-meals/http-contract';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { errorResponses, publicRouteErrors } from '../schemas/error-responses.js';
import { answerUnlessFresh, notModified } from './fresh-answers.js';
import { strongTagOf } from '@canteen-meals/read-models';

/** The legend changes only with a new release, so caches may keep it a day and then ask again by its tag. */
const legendCacheControl = 'public, max-age=86400, stale-while-revalidate=604800';

/** GET /labels: the label vocabulary, public and cacheable, serialized once. */
export const labelRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const body = JSON.stringify({ status: 'success', data: labelsLegend });
  const etag = strongTagOf(body);
  app.get(
    routePaths.listLabels,
    {
      schema: {
        operationId: 'listLabels',
        summary:
          'The label vocabulary: allergens (EU 1169/2011 Annex II with sub-kinds), declared additives, diets and ingredients (public)',
        tags: ['labels'],
        security: [],
        response: {
          200: successEnvelope(LabelsData, successExample(labelsLegend)),
          ...notModified,
          ...errorResponses(publicRouteErrors),
        },
      },
    },
    async (request, reply) => {
      reply.header('cache-control', legendCacheControl).header('etag', etag);
      return answerUnlessFresh(request, reply, etag, body);
    },
  );
};
