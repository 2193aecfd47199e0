import {
  defaultPageSize,
  getMealRefusals,
  getMealsRefusals,
  type GetMealsQuery,
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
import { sendRefusal, wireCodesOf } from '../error-mapping.js';
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
const mealsErrors = errorResponses([...authenticatedRouteErrors, 'invalid_request', ...wireCodesOf(getMealsRefusals)]);
const pageErrors = errorResponses([...authenticatedRouteErrors, 'invalid_request', 'invalid_cursor']);
const readOneErrors = errorResponses([...authenticatedRouteErrors, 'invalid_request', ...wireCodesOf(getMealRefusals)]);

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
    async (request, reply) => {
      const { userId } = authenticatedPrincipal(request);
      const result = await getMeal.execute({ userId, mealId: mealIdOf(request.params.meal_id) });
      if (!result.ok) return sendRefusal(reply, result.refusal);
      return { status: 'success' as const, data: mealDataOf(result.value) };
    },
  );

  app.get(
    routePaths.getMeals,
    {
      schema: {
        operationId: 'getMeals',
        summary:
          'Many meals in one request: ?ids=1,2,3 (up to 100), ?date=YYYY-MM-DD (optionally &canteen=ID), or ?canteen=ID&from=...&to=... (up to 14 days)',
        querystring: MealsQuery,
        response: {
          200: successEnvelope(MealsData, successExample(exampleMeals)),
          ...mealsErrors,
        },
      },
    },
    async (request, reply) => {
      const { userId } = authenticatedPrincipal(request);
      const result = await getMeals.execute({ userId, ...mealsQueryOf(request.query) });
      if (!result.ok) return sendRefusal(reply, result.refusal);
      return {
        status: 'success' as const,
        data: { meals: result.value.meals.map(mealDataOf), unknown_ids: [...result.value.unknownIds] },
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

/** Which of the three reads the query asks for; any other combination of parameters is a bad request. */
function mealsQueryOf(query: MealsQuery): DistributiveOmit<GetMealsQuery, 'userId'> {
  const { ids, date, canteen, from, to } = query;
  const given = [ids, date, from ?? to].filter((value) => value !== undefined).length;
  if (given !== 1) {
    throw new HttpError('invalid_request', 'Give exactly one of: ids, date, or from with to.');
  }
  if (ids !== undefined) {
    if (canteen !== undefined) throw new HttpError('invalid_request', 'canteen goes with date or from/to, not with ids.');
    return { mealIds: ids.split(',').map(mealIdOf) };
  }
  // A canteen id that names no canteen, well-formed or not, is the use case's `canteen_not_found`.
  if (date !== undefined) return { servedOn: localDateOf(date), canteenId: canteen };
  if (from === undefined || to === undefined) throw new HttpError('invalid_request', 'A range needs both from and to.');
  if (canteen === undefined) throw new HttpError('invalid_request', 'A range of days needs canteen.');
  return { canteenId: canteen, from: localDateOf(from), to: localDateOf(to) };
}

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;
