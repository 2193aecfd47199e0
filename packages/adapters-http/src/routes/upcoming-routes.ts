import { defaultUpcomingDays, type GetPreferences, type GetUpcomingFavourites } from '@canteen-meals/domain';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  exampleUpcoming,
  routePaths,
  successEnvelope,
  successExample,
  UpcomingData,
  UpcomingQuery,
} from '@canteen-meals/http-contract';
import { authenticatedPrincipal } from '../auth/authenticate.js';
import { authenticatedRouteErrors, errorResponses } from '../schemas/error-responses.js';
import { upcomingDataOf } from '../wire-mapping.js';
import { answerPrivately } from './private-answers.js';
import { selectionOf, selects, withPreferences } from '../menu/menu-selection.js';

export interface UpcomingRoutesOptions {
  readonly getUpcomingFavourites: GetUpcomingFavourites;
  readonly getPreferences: GetPreferences;
}

/**
 * GET /me/upcoming: the coming servings of the caller's favourite dishes. Private and never kept (no-store): it holds
 * the caller's own state, and changes with any menu write and at each canteen's midnight, so an ETag would save a
 * little transfer but never the read.
 */
export const upcomingRoutes: FastifyPluginAsyncTypebox<UpcomingRoutesOptions> = async (
  app,
  { getUpcomingFavourites, getPreferences },
) => {
  answerPrivately(app);

  app.get(
    routePaths.getUpcoming,
    {
      schema: {
        operationId: 'getUpcoming',
        summary:
          "The servings in the coming days (today included, on each canteen's clocks) of every dish the caller has marked a serving of, in serving order, with each dish's statistics; at most 500",
        querystring: UpcomingQuery,
        response: {
          200: successEnvelope(UpcomingData, successExample(exampleUpcoming)),
          ...errorResponses([...authenticatedRouteErrors, 'invalid_request']),
        },
      },
    },
    async (request) => {
      const { userId } = authenticatedPrincipal(request);
      const { days } = request.query;
      const preferences = await getPreferences.execute({ userId });
      const asked = selectionOf(request.query);
      const selection = request.query.all === 'true' ? asked : withPreferences(asked, preferences.filter);
      const avoided = new Set(preferences.aversions.map((aversion) => aversion.dishId));
      const hide = request.query.hide === 'avoided';
      const upcoming = await getUpcomingFavourites.execute({
        userId,
        days: days === undefined ? defaultUpcomingDays : Number(days),
      });
      const servings = upcoming.servings.filter(
        ({ reading }) => selects(selection, reading.meal) && !(hide && avoided.has(reading.dish.id)),
      );
      const data = upcomingDataOf({ ...upcoming, servings });
      return {
        status: 'success' as const,
        data: {
          ...data,
          servings: data.servings.map((serving) =>
            avoided.has(serving.dish_id) ? { ...serving, avoided: true } : serving,
          ),
        },
      };
    },
  );
};
