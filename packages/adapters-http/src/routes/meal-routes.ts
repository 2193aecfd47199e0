import type { MarkMeal, RateMeal, UpsertMeals } from '@canteen-meals/domain';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { authenticatedPrincipal, requireAdminScope } from '../auth/authenticate.js';
import { HttpError } from '../http-error.js';
import { mealsFromUpsertBody, rateMealDataOf } from '../wire-mapping.js';
import {
  exampleMarkAnswer,
  exampleRateAnswer,
  exampleUpsertAnswer,
  MarkMealBody,
  MarkMealData,
  RateMealBody,
  RateMealData,
  routePaths,
  successEnvelope,
  UpsertMealsBody,
  UpsertMealsData,
} from '@canteen-meals/http-contract';
import { authenticatedRouteErrors, errorResponses, jsonBodyErrors, writeRouteErrors } from '../schemas/error-responses.js';

export interface MealRoutesOptions {
  readonly markMeal: MarkMeal;
  readonly rateMeal: RateMeal;
  readonly upsertMeals: UpsertMeals;
}

/** A rating or marking body is a few dozen bytes; anything near this limit is not a client of ours. */
export const smallBodyLimit = 1024;
export const adminBodyLimit = 1024 * 1024;

const markMealErrors = errorResponses([...authenticatedRouteErrors, ...jsonBodyErrors, ...writeRouteErrors, 'meal_not_found']);
const rateMealErrors = errorResponses([
  ...authenticatedRouteErrors,
  ...jsonBodyErrors,
  ...writeRouteErrors,
  'meal_not_found',
  'meal_not_rateable',
  'meal_not_yet_served',
  'rating_period_over',
]);
const upsertMealsErrors = errorResponses([...authenticatedRouteErrors, ...jsonBodyErrors, ...writeRouteErrors, 'forbidden']);

export const mealRoutes: FastifyPluginAsyncTypebox<MealRoutesOptions> = async (app, { markMeal, rateMeal, upsertMeals }) => {
  // A request with no body at all carries no content type for Fastify to parse: it is still an empty JSON body.
  app.addHook('preValidation', (request, _reply, done) => {
    done(request.body === undefined ? new HttpError('invalid_json', 'A JSON body is required.') : undefined);
  });

  app.post(
    routePaths.markMeal,
    {
      bodyLimit: smallBodyLimit,
      schema: {
        operationId: 'markMeal',
        summary: 'Mark or unmark a meal as a favourite',
        body: MarkMealBody,
        response: {
          200: successEnvelope(MarkMealData, {
            description: 'The marking as it now stands',
            examples: [{ status: 'success', data: exampleMarkAnswer }],
          }),
          ...markMealErrors,
        },
      },
    },
    async (request) => {
      const { userId } = authenticatedPrincipal(request);
      const result = await markMeal.execute({ userId, mealId: request.body.meal_id, marked: request.body.marked });
      return { status: 'success' as const, data: { marked: result.marked } };
    },
  );

  app.post(
    routePaths.rateMeal,
    {
      bodyLimit: smallBodyLimit,
      schema: {
        operationId: 'rateMeal',
        summary: 'Rate a meal 1 to 5, or delete the rating with null',
        body: RateMealBody,
        response: {
          200: successEnvelope(RateMealData, {
            description: "The meal's statistics after the change, with the caller's own rating",
            examples: [{ status: 'success', data: exampleRateAnswer }],
          }),
          ...rateMealErrors,
        },
      },
    },
    async (request) => {
      const { userId } = authenticatedPrincipal(request);
      const result = await rateMeal.execute({
        userId,
        mealId: request.body.meal_id,
        rating: request.body.rating as 1 | 2 | 3 | 4 | 5 | null,
      });
      return { status: 'success' as const, data: rateMealDataOf(result) };
    },
  );

  app.put(
    routePaths.upsertMeals,
    {
      bodyLimit: adminBodyLimit,
      onRequest: requireAdminScope,
      schema: {
        operationId: 'upsertMeals',
        summary: 'Insert or update meals, all or nothing (needs the meals:write scope)',
        body: UpsertMealsBody,
        response: {
          200: successEnvelope(UpsertMealsData, {
            description: 'How many meals were inserted or updated',
            examples: [{ status: 'success', data: exampleUpsertAnswer }],
          }),
          ...upsertMealsErrors,
        },
      },
    },
    async (request) => {
      const result = await upsertMeals.execute(mealsFromUpsertBody(request.body));
      return { status: 'success' as const, data: { upserted: result.upserted } };
    },
  );
};
