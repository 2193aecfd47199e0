import { type GetPreferences, GetPersonalizedUpcoming, type GetUpcomingFavourites } from '@canteen-meals/domain';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { routes } from '@canteen-meals/http-contract';
import { authenticatedPrincipal } from '../auth/authenticate.js';
import { authenticatedRouteErrors } from '../schemas/error-responses.js';
import { serveRoute } from '../serve-route.js';
import { upcomingDataOf } from '../wire-mapping.js';
import { answerPrivately } from './private-answers.js';
import { selectionOf } from '../menu/menu-selection.js';

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
  const personalUpcoming = new GetPersonalizedUpcoming({ getUpcomingFavourites, getPreferences });

  serveRoute(app, routes.getUpcoming, { errors: [...authenticatedRouteErrors, 'invalid_request'] }, async (request) => {
    const { userId } = authenticatedPrincipal(request);
    const { days, all, hide } = request.query;
    const upcoming = await personalUpcoming.execute({
      userId,
      days: days === undefined ? undefined : Number(days),
      selection: selectionOf(request.query),
      all: all === 'true',
      hideAvoided: hide === 'avoided',
    });
    const data = upcomingDataOf(upcoming);
    return {
      status: 'success' as const,
      data: {
        ...data,
        servings: data.servings.map((serving, index) =>
          upcoming.servings[index]!.avoided ? { ...serving, avoided: true } : serving,
        ),
      },
    };
  });
};
