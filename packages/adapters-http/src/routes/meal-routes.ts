import {
  markMealRefusals,
  rateMealRefusals,
  upsertMealsRefusals,
  type MarkMeal,
  type RateMeal,
  setDayClosedRefusals,
  type SetDayClosed,
  type UpsertMeals,
} from '@canteen-meals/domain';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { authenticatedPrincipal, requireAdminScope } from '../auth/authenticate.js';
import { sendRefusal, wireCodesOf } from '../error-mapping.js';
import { requireJsonBody } from '../json-body.js';
import { closedDaysFromUpsertBody, mealsFromUpsertBody, rateMealDataOf } from '../wire-mapping.js';
import { localDateOf } from './read-params.js';
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
import {
  authenticatedRouteErrors,
  errorResponses,
  jsonBodyErrors,
  writeRouteErrors,
} from '../schemas/error-responses.js';

export interface MealRoutesOptions {
  readonly markMeal: MarkMeal;
  readonly rateMeal: RateMeal;
  readonly upsertMeals: UpsertMeals;
  readonly setDayClosed: SetDayClosed;
}

/** A rating or marking body is a few dozen bytes; anything near this limit is not a client of ours. */
export const smallBodyLimit = 1024;
export const adminBodyLimit = 1024 * 1024;

// Each route answers what any write route answers, and the refusals of its use case.
const writeErrors = [...authenticatedRouteErrors, ...jsonBodyErrors, ...writeRouteErrors] as const;
const markMealErrors = errorResponses([...writeErrors, ...wireCodesOf(markMealRefusals)]);
const rateMealErrors = errorResponses([...writeErrors, ...wireCodesOf(rateMealRefusals)]);
const upsertMealsErrors = errorResponses([
  ...writeErrors,
  'forbidden',
  ...wireCodesOf([...upsertMealsRefusals, ...setDayClosedRefusals]),
]);

export const mealRoutes: FastifyPluginAsyncTypebox<MealRoutesOptions> = async (
  app,
  { markMeal, rateMeal, upsertMeals, setDayClosed },
) => {
  app.addHook('preValidation', requireJsonBody);

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
    async (request, reply) => {
      const { userId } = authenticatedPrincipal(request);
      const result = await markMeal.execute({ userId, mealId: request.body.meal_id, marked: request.body.marked });
      if (!result.ok) return sendRefusal(reply, result.refusal);
      return { status: 'success' as const, data: { marked: result.value.marked } };
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
    async (request, reply) => {
      const { userId } = authenticatedPrincipal(request);
      const result = await rateMeal.execute({
        userId,
        mealId: request.body.meal_id,
        rating: request.body.rating as 1 | 2 | 3 | 4 | 5 | null,
      });
      if (!result.ok) return sendRefusal(reply, result.refusal);
      return { status: 'success' as const, data: rateMealDataOf(result.value) };
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
    async (request, reply) => {
      // The closed days first: an unknown canteen is refused before any meal is written.
      for (const { canteenId, date } of closedDaysFromUpsertBody(request.body)) {
        const closed = await setDayClosed.execute({ canteenId, date: localDateOf(date), closed: true });
        if (!closed.ok) return sendRefusal(reply, closed.refusal);
      }
      const result = await upsertMeals.execute(mealsFromUpsertBody(request.body));
      if (!result.ok) return sendRefusal(reply, result.refusal);
      return { status: 'success' as const, data: { upserted: result.value.upserted } };
    },
  );
};
