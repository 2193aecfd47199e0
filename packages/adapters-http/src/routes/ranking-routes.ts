import {
  defaultRankingSettings,
  rankDishesRefusals,
  rankingSettingsProblem,
  rankMealsRefusals,
  type RankDishes,
  type Ranked,
  type RankingOrder,
  type RankingSettings,
  type RankMeals,
} from '@canteen-meals/domain';
import { RankingsData, RankingsQuery, routePaths, successEnvelope } from '@canteen-meals/http-contract';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { sendRefusal, wireCodesOf } from '../error-mapping.js';
import { availabilityFieldsOf } from '../wire-mapping.js';
import { HttpError } from '../http-error.js';
import { selectionOf, selects } from '../menu/menu-selection.js';
import { strongTagOf } from '../menu/menu-answers.js';
import { errorResponses, publicRouteErrors } from '../schemas/error-responses.js';
import { answerUnlessFresh, notModified, publicCacheControl } from './fresh-answers.js';
import { defaultMenuCaching, type MenuCachingOptions } from './menu-routes.js';
import { menuDaysOf } from './read-params.js';

export interface RankingRoutesOptions {
  readonly rankMeals: RankMeals;
  readonly rankDishes: RankDishes;
  /** Only `maxAgeS` and `staleWhileRevalidateS` are read: rankings are cached by browsers and CDNs like the menu. */
  readonly menuCaching?: MenuCachingOptions | undefined;
  /** The prior and confidence of the scores; default: one pseudo-vote per star, z = 1.65. */
  readonly rankingSettings?: RankingSettings | undefined;
}

/**
 * GET /rankings: a canteen's meals of some days (up to 31), or its dishes over all their servings, ranked by a score
 * that accounts for the number of votes, or by markings. Public and cacheable like the public menu, with a strong
 * ETag of the answer's bytes (the same on every instance) and 304 to a matching If-None-Match.
 *
 * Nothing is kept in the process, unlike the menu: a ranking is read far less often than a menu, and it costs the
 * canteen's row and one statement over the histograms kept with every rating (the menu's meals, or the dishes), one
 * more for the markings by marks. A cache in front (max-age, stale-while-revalidate) takes a popular ranking's load.
 */
export const rankingRoutes: FastifyPluginAsyncTypebox<RankingRoutesOptions> = async (app, options) => {
  const { rankMeals, rankDishes } = options;
  const settings = options.rankingSettings ?? defaultRankingSettings;
  const problem = rankingSettingsProblem(settings);
  if (problem !== null) throw new RangeError(`rankingSettings: ${problem}`);
  const caching = options.menuCaching ?? defaultMenuCaching;
  const cacheControl = publicCacheControl(caching);

  app.get(
    routePaths.getRankings,
    {
      schema: {
        operationId: 'getRankings',
        summary:
          "A canteen's meals of some days (?canteen=ID&date=… or &from=…&to=…, up to 31 days) or its dishes (?canteen=ID&scope=dishes), ranked by a score that accounts for the number of votes (unrated last), or by=marks; public and cacheable",
        tags: ['canteens'],
        security: [],
        querystring: RankingsQuery,
        response: {
          200: successEnvelope(RankingsData),
          ...notModified,
          ...errorResponses([
            ...publicRouteErrors,
            'invalid_request',
            ...wireCodesOf(rankMealsRefusals),
            ...wireCodesOf(rankDishesRefusals),
          ]),
        },
      },
    },
    async (request, reply) => {
      const { canteen, scope = 'meals', by = 'rating', date, from, to } = request.query;
      if (canteen === undefined) throw new HttpError('invalid_request', 'missing query parameter "canteen"');
      let data: object;
      if (scope === 'dishes') {
        if (date !== undefined || from !== undefined || to !== undefined) {
          throw new HttpError('invalid_request', 'scope=dishes ranks every serving: it takes no date, from or to.');
        }
        const ranking = await rankDishes.execute({ canteenId: canteen, by, settings });
        if (!ranking.ok) return sendRefusal(reply, ranking.refusal);
        data = {
          scope,
          by,
          items: ranking.value.items.map((entry) => ({
            rank: entry.rank,
            dish_id: entry.item.id,
            ...figuresOf(entry, entry.item.name, by),
          })),
        };
      } else {
        const selection = selectionOf(request.query);
        const ranking = await rankMeals.execute({
          ...menuDaysOf({ canteen, date, from, to })!,
          by,
          settings,
          keep: (meal) => selects(selection, meal),
        });
        if (!ranking.ok) return sendRefusal(reply, ranking.refusal);
        data = {
          scope,
          by,
          items: ranking.value.items.map((entry) => ({
            rank: entry.rank,
            meal_id: entry.item.meal.id,
            ...figuresOf(entry, entry.item.meal.name, by),
            labels: [...entry.item.meal.labels],
            ...availabilityFieldsOf(entry.item.availability),
          })),
        };
      }
      const body = JSON.stringify({ status: 'success', data });
      const etag = strongTagOf(body);
      reply.header('cache-control', cacheControl).header('etag', etag);
      return answerUnlessFresh(request, reply, etag, body);
    },
  );
};

/**
 * The wire fields of a ranked item after its id. An unrated item has no score on the wire: an app would show the
 * prior's bound as if it were a rating (the "2.5 stars for an unrated meal" the rankings are there to avoid).
 */
function figuresOf(entry: Ranked<unknown>, name: string, by: RankingOrder) {
  const { count, average } = entry.statistics;
  return {
    name,
    score: count === 0 ? null : entry.score,
    rating_count: count,
    rating_average: average,
    ...(by === 'marks' ? { marks: entry.marks } : {}),
  };
}
