import {
  defaultPageSize,
  getMealRefusals,
  type GetMeal,
  type ListMarkedMeals,
  type ListRatedMeals,
  type MealPage,
} from '@canteen-meals/domain';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { authenticatedPrincipal, optionalReader } from '../auth/authenticate.js';
import { bearerAuth } from '../docs/api-docs.js';
import { sendRefusal, wireCodesOf } from '../error-mapping.js';
import {
  exampleMarkedPage,
  exampleMeal,
  exampleRatedPage,
  MealData,
  MealPageData,
  MealParams,
  PageQuery,
  PublicMealData,
  routePaths,
  successEnvelope,
  successExample,
} from '@canteen-meals/http-contract';
import { authenticatedRouteErrors, errorResponses, publicRouteErrors } from '../schemas/error-responses.js';
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

const pageErrors = errorResponses([...authenticatedRouteErrors, 'invalid_request', 'invalid_cursor']);
const readOneErrors = errorResponses([
  ...publicRouteErrors,
  'invalid_token',
  'invalid_request',
  ...wireCodesOf(getMealRefusals),
]);

export interface MealReadRouteOptions {
  readonly getMeal: GetMeal;
}

/**
 * GET /meals/{id}: a token is optional. Without one, the public fields (as a public menu shows them); with one, also
 * the caller's marking and rating. A token that is sent must be valid.
 */
export const mealReadRoute: FastifyPluginAsyncTypebox<MealReadRouteOptions> = async (app, { getMeal }) => {
  answerPrivately(app);
  app.get(
    routePaths.getMeal,
    {
      // A token that was sent and failed answers 401 before the query is checked, as on every route that needs one.
      onRequest: (request, _reply, done) =>
        done(request.authenticationFailure === null ? undefined : (request.authenticationFailure as Error)),
      schema: {
        operationId: 'getMeal',
        summary: "One meal with its statistics; with a token, also the caller's marking and rating",
        security: [{ [bearerAuth]: [] }, {}],
        params: MealParams,
        response: {
          200: Type.Union([successEnvelope(MealData), successEnvelope(PublicMealData)], {
            ...successExample(exampleMeal),
            description: "With a token: the meal with the caller's marking and rating. Without: its public fields",
          }),
          ...readOneErrors,
        },
      },
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

  const pageRoute = (list: CursorList, read: ListMarkedMeals | ListRatedMeals, operationId: string, summary: string) =>
    app.get(
      list === 'marked' ? routePaths.listMarkedMeals : routePaths.listRatedMeals,
      {
        schema: {
          operationId,
          summary,
          querystring: PageQuery,
          response: {
            200: successEnvelope(
              MealPageData,
              successExample(list === 'marked' ? exampleMarkedPage : exampleRatedPage),
            ),
            ...pageErrors,
          },
        },
      },
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
  pageRoute('marked', listMarkedMeals, 'listMarkedMeals', "The caller's marked meals, most recently served first");
  pageRoute(
    'rated',
    listRatedMeals,
    'listRatedMeals',
    'The meals the caller has rated, with the rating, most recently served first',
  );
};

function pageDataOf(cursors: PageCursors, list: CursorList, userId: string, page: MealPage) {
  return {
    meals: page.meals.map(mealDataOf),
    next_cursor: page.next === null ? null : cursors.encode(list, userId, page.next),
  };
}
