import { listFeedsRefusals, runFeedRefusals, type ListFeeds, type RunFeed } from '@canteen-meals/domain';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { routes } from '@canteen-meals/http-contract';
import { sendRefusal, wireCodesOf } from '../error-mapping.js';
import { authenticatedRouteErrors, writeRouteErrors } from '../schemas/error-responses.js';
import { serveRoute } from '../serve-route.js';
import { feedSummaryDataOf } from '../wire-mapping.js';
import { auditActorOf } from '../auth/audit-actor.js';

export interface FeedRoutesOptions {
  readonly listFeeds: ListFeeds;
  readonly runFeed: RunFeed;
}

/** A canteen's feeds and their fetches (meals:manage at the canteen: auth/route-access.ts). */
export const feedRoutes: FastifyPluginAsyncTypebox<FeedRoutesOptions> = async (app, { listFeeds, runFeed }) => {
  serveRoute(
    app,
    routes.listFeeds,
    {
      errors: [...authenticatedRouteErrors, 'forbidden', ...wireCodesOf(listFeedsRefusals)],
    },
    async (request, reply) => {
      const result = await listFeeds.execute({ canteenId: request.params.canteen_id });
      if (!result.ok) return sendRefusal(reply, result.refusal);
      return { status: 'success' as const, data: { feeds: result.value.map(feedSummaryDataOf) } };
    },
  );

  serveRoute(
    app,
    routes.fetchFeed,
    {
      errors: [...authenticatedRouteErrors, ...writeRouteErrors, 'forbidden', ...wireCodesOf(runFeedRefusals)],
    },
    async (request, reply) => {
      const { canteen_id: canteenId, feed_name: feedName } = request.params;
      const ran = await runFeed.execute({ canteenId, feedName, by: auditActorOf(request) });
      if (!ran.ok) return sendRefusal(reply, ran.refusal);
      const listed = await listFeeds.execute({ canteenId });
      const summary = listed.ok ? listed.value.find((entry) => entry.feed.name === feedName) : undefined;
      if (summary === undefined)
        return sendRefusal(reply, { code: 'feed_not_found', message: 'The canteen has no feed of that name.' });
      return { status: 'success' as const, data: feedSummaryDataOf(summary) };
    },
  );
};
