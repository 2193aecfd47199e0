import { listFeedsRefusals, runFeedRefusals, type ListFeeds, type RunFeed } from '@canteen-meals/domain';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import {
  CanteenParams,
  FeedParams,
  FeedsData,
  FeedSummaryData,
  routePaths,
  successEnvelope,
} from '@canteen-meals/http-contract';
import { requireAdminScope } from '../auth/authenticate.js';
import { sendRefusal, wireCodesOf } from '../error-mapping.js';
import { authenticatedRouteErrors, errorResponses, writeRouteErrors } from '../schemas/error-responses.js';
import { feedSummaryDataOf } from '../wire-mapping.js';

export interface FeedRoutesOptions {
  readonly listFeeds: ListFeeds;
  readonly runFeed: RunFeed;
}

/** A canteen's feeds and their fetches (scope meals:write). */
export const feedRoutes: FastifyPluginAsyncTypebox<FeedRoutesOptions> = async (app, { listFeeds, runFeed }) => {
  app.get(
    routePaths.listFeeds,
    {
      onRequest: requireAdminScope,
      schema: {
        operationId: 'listFeeds',
        summary: "A canteen's feeds: last attempt and success, HTTP status, duration, counts, last error, next run",
        params: CanteenParams,
        response: {
          200: successEnvelope(FeedsData),
          ...errorResponses([...authenticatedRouteErrors, 'forbidden', ...wireCodesOf(listFeedsRefusals)]),
        },
      },
    },
    async (request, reply) => {
      const result = await listFeeds.execute({ canteenId: request.params.canteen_id });
      if (!result.ok) return sendRefusal(reply, result.refusal);
      return { status: 'success' as const, data: { feeds: result.value.map(feedSummaryDataOf) } };
    },
  );

  app.post(
    routePaths.fetchFeed,
    {
      onRequest: requireAdminScope,
      schema: {
        operationId: 'fetchFeed',
        summary:
          'Fetch and import one feed now (waits for a fetch of it under way); answers its summary, failed or not',
        params: FeedParams,
        // Nothing to send: no body, or an empty JSON object.
        body: Type.Union([Type.Object({}, { additionalProperties: false }), Type.Null()]),
        response: {
          200: successEnvelope(FeedSummaryData),
          ...errorResponses([
            ...authenticatedRouteErrors,
            ...writeRouteErrors,
            'forbidden',
            ...wireCodesOf(runFeedRefusals),
          ]),
        },
      },
    },
    async (request, reply) => {
      const { canteen_id: canteenId, feed_name: feedName } = request.params;
      const ran = await runFeed.execute({ canteenId, feedName });
      if (!ran.ok) return sendRefusal(reply, ran.refusal);
      const listed = await listFeeds.execute({ canteenId });
      const summary = listed.ok ? listed.value.find((entry) => entry.feed.name === feedName) : undefined;
      if (summary === undefined)
        return sendRefusal(reply, { code: 'feed_not_found', message: 'The canteen has no feed of that name.' });
      return { status: 'success' as const, data: feedSummaryDataOf(summary) };
    },
  );
};
