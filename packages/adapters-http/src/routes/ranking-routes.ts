import {
  GetRanking,
  rankDishesRefusals,
  rankingSelectionOf,
  rankMealsRefusals,
  shownScoreOf,
  type RankDishes,
  type Ranked,
  type RankingOrder,
  type RankingSelectionProblem,
  type RankingSettings,
  type RankMeals,
} from '@canteen-meals/domain';
import { routes } from '@canteen-meals/http-contract';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { sendRefusal, wireCodesOf } from '../error-mapping.js';
import { availabilityFieldsOf } from '../wire-mapping.js';
import { HttpError } from '../http-error.js';
import { selectionOf } from '../menu/menu-selection.js';
import { strongTagOf } from '@canteen-meals/read-models';
import { publicRouteErrors } from '../schemas/error-responses.js';
import { serveRoute } from '../serve-route.js';
import { answerUnlessFresh, publicCacheControl } from './fresh-answers.js';
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
  const getRanking = new GetRanking({ rankMeals, rankDishes, settings: options.rankingSettings });
  const caching = options.menuCaching ?? defaultMenuCaching;
  const cacheControl = publicCacheControl(caching);

  serveRoute(
    app,
    routes.getRankings,
    {
      errors: [
        ...publicRouteErrors,
        'invalid_request',
        ...wireCodesOf(rankMealsRefusals),
        ...wireCodesOf(rankDishesRefusals),
      ],
    },
    async (request, reply) => {
      const { canteen, scope, by, date, from, to } = request.query;
      if (canteen === undefined) throw new HttpError('invalid_request', 'missing query parameter "canteen"');
      const selection = rankingSelectionOf(
        scope === 'dishes'
          ? { scope, by, canteenId: canteen, namesDays: date !== undefined || from !== undefined || to !== undefined }
          : { scope, by, meals: selectionOf(request.query), days: menuDaysOf({ canteen, date, from, to })! },
      );
      if (!selection.ok) throw new HttpError('invalid_request', problemMessages[selection.problem]);
      const ranking = await getRanking.execute(selection.value);
      if (!ranking.ok) return sendRefusal(reply, ranking.refusal);
      const answer = ranking.value;
      const data =
        answer.scope === 'dishes'
          ? {
              scope: answer.scope,
              by: answer.by,
              items: answer.items.map((entry) => ({
                rank: entry.rank,
                dish_id: entry.item.id,
                ...figuresOf(entry, entry.item.name, answer.by),
              })),
            }
          : {
              scope: answer.scope,
              by: answer.by,
              items: answer.items.map((entry) => ({
                rank: entry.rank,
                meal_id: entry.item.meal.id,
                ...figuresOf(entry, entry.item.meal.name, answer.by),
                labels: [...entry.item.meal.labels],
                ...availabilityFieldsOf(entry.item.availability),
              })),
            };
      const body = JSON.stringify({ status: 'success', data });
      const etag = strongTagOf(body);
      reply.header('cache-control', cacheControl).header('etag', etag);
      return answerUnlessFresh(request, reply, etag, body);
    },
  );
};

const problemMessages = {
  dishes_take_no_days: 'scope=dishes ranks every serving: it takes no date, from or to.',
} as const satisfies Record<RankingSelectionProblem, string>;

/** The wire fields of a ranked item after its id (the score as the domain shows it: none for an unrated item). */
function figuresOf(entry: Ranked<unknown>, name: string, by: RankingOrder) {
  const { count, average } = entry.statistics;
  return {
    name,
    score: shownScoreOf(entry),
    rating_count: count,
    rating_average: average,
    ...(by === 'marks' ? { marks: entry.marks } : {}),
  };
}
