import {
  defaultPageSize,
  isMealId,
  isLocalDate,
  type GetMeal,
  type GetMeals,
  type ListMarkedMeals,
  type ListRatedMeals,
  type LocalDate,
  type MealId,
  type MealPage,
} from '@canteen-meals/domain';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { authenticatedPrincipal } from '../auth/authenticate.js';
import { HttpError } from '../http-error.js';
import {
  exampleMarkedPage,
  exampleMeal,
  exampleMeals,
  exampleRatedPage,
  MealData,
  MealPageData,
  MealParams,
  MealsData,
  MealsQuery,
  PageQuery,
  routePaths,
  successEnvelope,
  successExample,
} from '@canteen-meals/http-contract';
import { authenticatedRouteErrors, errorResponses } from '../schemas/error-responses.js';
import { mealDataOf } from '../wire-mapping.js';
import { createPageCursors, type CursorList, type PageCursors } from './page-cursor.js';
import { answerPrivately } from './private-answers.js';

export interface ReadRoutesOptions {
  readonly getMeal: GetMeal;
  readonly getMeals: GetMeals;
  readonly listMarkedMeals: ListMarkedMeals;
  readonly listRatedMeals: ListRatedMeals;
  /** Signs the page cursors; instances that share it accept each other's cursors (absent: a random key). */
  readonly cursorSecret?: string | undefined;
}

const readErrors = errorResponses([...authenticatedRouteErrors, 'invalid_request']);
const pageErrors = errorResponses([...authenticatedRouteErrors, 'invalid_request', 'invalid_cursor']);
const readOneErrors = errorResponses([...authenticatedRouteErrors, 'invalid_request', 'meal_not_found']);

/** GET endpoints for meals with their statistics and the caller's own marking and rating. */
export const readRoutes: FastifyPluginAsyncTypebox<ReadRoutesOptions> = async (app, options) => {
  const { getMeal, getMeals, listMarkedMeals, listRatedMeals } = options;
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
    async (request) => {
      const { userId } = authenticatedPrincipal(request);
      const details = await getMeal.execute({ userId, mealId: mealIdOf(request.params.meal_id) });
      return { status: 'success' as const, data: mealDataOf(details) };
    },
  );

  app.get(
    routePaths.getMeals,
    {
      schema: {
        operationId: 'getMeals',
        summary: 'Many meals in one request: ?ids=1,2,3 (up to 100) or ?date=YYYY-MM-DD, exactly one of them',
        querystring: MealsQuery,
        response: {
          200: successEnvelope(MealsData, successExample(exampleMeals)),
          ...readErrors,
        },
      },
    },
    async (request) => {
      const { userId } = authenticatedPrincipal(request);
      const { ids, date } = request.query;
      if ((ids === undefined) === (date === undefined)) {
        throw new HttpError('invalid_request', 'Give exactly one of the query parameters ids and date.');
      }
      const result =
        ids !== undefined
          ? await getMeals.execute({ userId, mealIds: ids.split(',').map(mealIdOf) })
          : await getMeals.execute({ userId, servedOn: localDateOf(date!) });
      return {
        status: 'success' as const,
        data: { meals: result.meals.map(mealDataOf), unknown_ids: [...result.unknownIds] },
      };
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

function mealIdOf(text: string): MealId {
  const id = Number(text);
  if (!/^\d+$/.test(text) || !isMealId(id)) {
    throw new HttpError('invalid_request', `"${text}" is not a meal id (a positive integer up to 2^53 - 1).`);
  }
  return id;
}

function localDateOf(text: string): LocalDate {
  if (!isLocalDate(text)) throw new HttpError('invalid_request', `"${text}" is not a calendar day (YYYY-MM-DD).`);
  return text;
}

function pageDataOf(cursors: PageCursors, list: CursorList, userId: string, page: MealPage) {
  return {
    meals: page.meals.map(mealDataOf),
    next_cursor: page.next === null ? null : cursors.encode(list, userId, page.next),
  };
}
