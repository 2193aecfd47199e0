import {
  defaultPageSize,
  getMealRefusals,
  type GetMeal,
  type ListMarkedMeals,
  type ListRatedMeals,
  type MealPage,
} from '@canteen-meals/domain';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { authenticatedPrincipal } from '../auth/authenticate.js';
import { sendRefusal, wireCodesOf } from '../error-mapping.js';
import {
  exampleMarkedPage,
  exampleMeal,
  exampleRatedPage,
  MealData,
  MealPageData,
  MealParams,
  PageQuery,
  routePaths,
  successEnvelope,
  successExample,
} from '@canteen-meals/http-contract';
import { authenticatedRouteErrors, errorResponses } from '../schemas/error-responses.js';
import { mealDataOf } from '../wire-mapping.js';
import { mealIdOf } from './read-params.js';
import { createPageCursors, type CursorList, type PageCursors } from './page-cursor.js';
import { answerPrivately } from './private-answers.js';

export interface ReadRoutesOptions {
  readonly getMeal: GetMeal;
  readonly listMarkedMeals: ListMarkedMeals;
  readonly listRatedMeals: ListRatedMeals;
  /** Signs the page cursors; instances that share it accept each other's cursors (absent: a random key). */
  readonly cursorSecret?: string | undefined;
}

const readErrors = errorResponses([...authenticatedRouteErrors, 'invalid_request']);
const pageErrors = errorResponses([...authenticatedRouteErrors, 'invalid_request', 'invalid_cursor']);
const readOneErrors = errorResponses([...authenticatedRouteErrors, 'invalid_request', ...wireCodesOf(getMealRefusals)]);

/** GET endpoints for meals with their statistics and the caller's own marking and rating. */
export const readRoutes: FastifyPluginAsyncTypebox<ReadRoutesOptions> = async (app, options) => {
  const { getMeal, listMarkedMeals, listRatedMeals } = options;
  const cursors = createPageCursors(options.cursorSecret);
  answerPrivately(app);

  app.get(
    routePaths.getMeal,
    {
      schema: {
        operationId: 'getMeal',
        summary: "One meal with its statistics and the caller's marking and rating",
        params: MealParams,
        response: { 200: successEnvelope(MealData, successExample(exampleMeal)), ...readOneErrors },
      },
    },
    async (request, reply) => {
      const { userId } = authenticatedPrincipal(request);
      const result = await getMeal.execute({ userId, mealId: mealIdOf(request.params.meal_id) });
      if (!result.ok) return sendRefusal(reply, result.refusal);
      return { status: 'success' as const, data: mealDataOf(result.value) };
    },
  );

  const pageRoute = (list: CursorList, read: ListMarkedMeals | ListRatedMeals, operationId: string, summary: string) =>
    app.get(
      list === 'marked' ? routePaths.listMarkedMeals : routePaths.listRatedMeals,
      {
        schema: {
          operationId,
          summary,
          querystring: PageQuery,
          response: {
            200: successEnvelope(MealPageData, successExample(list === 'marked' ? exampleMarkedPage : exampleRatedPage)),
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
