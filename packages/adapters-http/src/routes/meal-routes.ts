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
import { authenticatedPrincipal } from '../auth/authenticate.js';
import { sendRefusal, wireCodesOf } from '../error-mapping.js';
import { requireJsonBody } from '../json-body.js';
import { closedDaysFromUpsertBody, mealsFromUpsertBody, rateMealDataOf } from '../wire-mapping.js';
import { localDateOf } from './read-params.js';
import { routes } from '@canteen-meals/http-contract';
import { authenticatedRouteErrors, jsonBodyErrors, writeRouteErrors } from '../schemas/error-responses.js';
import { serveRoute } from '../serve-route.js';
import { auditActorOf } from '../auth/audit-actor.js';

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
const markMealErrors = [...writeErrors, ...wireCodesOf(markMealRefusals)];
const rateMealErrors = [...writeErrors, ...wireCodesOf(rateMealRefusals)];
const upsertMealsErrors = [
  ...writeErrors,
  'forbidden' as const,
  ...wireCodesOf([...upsertMealsRefusals, ...setDayClosedRefusals]),
];

export const mealRoutes: FastifyPluginAsyncTypebox<MealRoutesOptions> = async (
  app,
  { markMeal, rateMeal, upsertMeals, setDayClosed },
) => {
  app.addHook('preValidation', requireJsonBody);

  serveRoute(app, routes.markMeal, { bodyLimit: smallBodyLimit, errors: markMealErrors }, async (request, reply) => {
    const { userId } = authenticatedPrincipal(request);
    const result = await markMeal.execute({ userId, mealId: request.body.meal_id, marked: request.body.marked });
    if (!result.ok) return sendRefusal(reply, result.refusal);
    return { status: 'success' as const, data: { marked: result.value.marked } };
  });

  serveRoute(app, routes.rateMeal, { bodyLimit: smallBodyLimit, errors: rateMealErrors }, async (request, reply) => {
    const { userId } = authenticatedPrincipal(request);
    const result = await rateMeal.execute({
      userId,
      mealId: request.body.meal_id,
      rating: request.body.rating as 1 | 2 | 3 | 4 | 5 | null,
    });
    if (!result.ok) return sendRefusal(reply, result.refusal);
    return { status: 'success' as const, data: rateMealDataOf(result.value) };
  });

  serveRoute(
    app,
    routes.upsertMeals,
    { bodyLimit: adminBodyLimit, errors: upsertMealsErrors },
    async (request, reply) => {
      // The closed days first: an unknown canteen is refused before any meal is written.
      for (const { canteenId, date } of closedDaysFromUpsertBody(request.body)) {
        const closed = await setDayClosed.execute({
          canteenId,
          date: localDateOf(date),
          closed: true,
          by: auditActorOf(request),
        });
        if (!closed.ok) return sendRefusal(reply, closed.refusal);
      }
      const result = await upsertMeals.execute(mealsFromUpsertBody(request.body), auditActorOf(request));
      if (!result.ok) return sendRefusal(reply, result.refusal);
      return { status: 'success' as const, data: { upserted: result.value.upserted } };
    },
  );
};
