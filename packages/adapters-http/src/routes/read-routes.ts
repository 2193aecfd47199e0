import {
  defaultPageSize,
  getMealRefusals,
  type GetMeal,
  type ListMarkedMeals,
  type ListRatedMeals,
  type MealPage,
} from '@canteen-meals/domain';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { authenticatedPrincipal, optionalReader } from '../auth/authenticate.js';
import { sendRefusal, wireCodesOf } from '../error-mapping.js';
import { routes } from '@canteen-meals/http-contract';
import { authenticatedRouteErrors, publicRouteErrors } from '../schemas/error-responses.js';
import { serveRoute } from '../serve-route.js';
import { mealDataOf, publicMealDataOf } from '../wire-mapping.js';
import { mealIdOf } from './read-params.js';
import { createPageCursors, type CursorList, type PageCursors } from './page-cursor.js';
import { answerPrivately } from './private-answers.js';
import { varyOn } from '../vary.js';

export interface ReadRoutesOptions {
  readonly listMarkedMeals: ListMarkedMeals;
  readonly listRatedMeals: ListRatedMeals;
  /** Signs the page cursors; instances that share it accept each other's cursors (absent: a random key). */
  readonly cursorSecret?: string | undefined;
}

const pageErrors = [...authenticatedRouteErrors, 'invalid_request', 'invalid_cursor'] as const;
const readOneErrors = [
  ...publicRouteErrors,
  'invalid_token',
  'invalid_request',
  ...wireCodesOf(getMealRefusals),
] as const;

export interface MealReadRouteOptions {
  readonly getMeal: GetMeal;
}

/**
 * GET /meals/{id}: a token is optional. Without one, the public fields (as a public menu shows them); with one, also
 * the caller's marking and rating. A token that is sent must be valid.
 */
export const mealReadRoute: FastifyPluginAsyncTypebox<MealReadRouteOptions> = async (app, { getMeal }) => {
  answerPrivately(app);
  serveRoute(
    app,
    routes.getMeal,
    {
      // A token that was sent and failed answers 401 before the query is checked, as on every route that needs one.
      onRequest: (request, _reply, done) =>
        done(request.authenticationFailure === null ? undefined : (request.authenticationFailure as Error)),
      errors: readOneErrors,
    },
    async (request, reply) => {
      const reader = optionalReader(request);
      varyOn(reply, 'authorization');
      const result = await getMeal.execute({ userId: reader, mealId: mealIdOf(request.params.meal_id) });
      if (!result.ok) return sendRefusal(reply, result.refusal);
      return {
        status: 'success' as const,
        data: reader === null ? publicMealDataOf(result.value) : mealDataOf(result.value),
      };
    },
  );
};

/** GET endpoints for meals with their statistics and the caller's own marking and rating. */
export const readRoutes: FastifyPluginAsyncTypebox<ReadRoutesOptions> = async (app, options) => {
  const { listMarkedMeals, listRatedMeals } = options;
  const cursors = createPageCursors(options.cursorSecret);
  answerPrivately(app);

  const pageRoute = (list: CursorList, read: ListMarkedMeals | ListRatedMeals) =>
    serveRoute(
      app,
      list === 'marked' ? routes.listMarkedMeals : routes.listRatedMeals,
      { errors: pageErrors },
      async (request) => {
        const { userId } = authenticatedPrincipal(request);
        const { limit, cursor } = request.query;
        const page = await read.execute({
          userId,
          limit: limit === undefined ? defaultPageSize : Number(limit),
          after: cursor === undefined ? null : cursors.decode(list, userId, cursor),
        });
        return { status: 'success' as const, data: pageDataOf(cursors, list, userId, page) };
      },
    );
  pageRoute('marked', listMarkedMeals);
  pageRoute('rated', listRatedMeals);
};

function pageDataOf(cursors: PageCursors, list: CursorList, userId: string, page: MealPage) {
  return {
    meals: page.meals.map(mealDataOf),
    next_cursor: page.next === null ? null : cursors.encode(list, userId, page.next),
  };
}
