import { isMealId, setMealAvailabilityRefusals, type SetMealAvailability } from '@canteen-meals/domain';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { routes } from '@canteen-meals/http-contract';
import { allowsWhereTouched } from '../auth/authorize-staff.js';
import { manageScope } from '@canteen-meals/adapters-jwt';
import { sendRefusal, wireCodesOf } from '../error-mapping.js';
import { HttpError } from '../http-error.js';
import { requireJsonBody } from '../json-body.js';
import { authenticatedRouteErrors, jsonBodyErrors, writeRouteErrors } from '../schemas/error-responses.js';
import { serveRoute } from '../serve-route.js';
import { smallBodyLimit } from './meal-routes.js';
import { availabilityFieldsOf } from '../wire-mapping.js';
import { auditActorOf } from '../auth/audit-actor.js';

export interface KitchenRoutesOptions {
  readonly setMealAvailability: SetMealAvailability;
}

/** PUT /kitchen/meals/{meal_id}/availability (meals:kitchen at the meal's canteen: auth/route-access.ts). */
export const kitchenRoutes: FastifyPluginAsyncTypebox<KitchenRoutesOptions> = async (app, { setMealAvailability }) => {
  serveRoute(
    app,
    routes.setMealAvailability,
    {
      bodyLimit: smallBodyLimit,
      preValidation: requireJsonBody,
      errors: [
        ...authenticatedRouteErrors,
        ...jsonBodyErrors,
        ...writeRouteErrors,
        'forbidden',
        ...wireCodesOf(setMealAvailabilityRefusals),
      ],
    },
    async (request, reply) => {
      const mealId = Number(request.params.meal_id);
      if (!isMealId(mealId)) throw new HttpError('invalid_request', 'The meal id is out of range.');
      // Another day's serving is a manager's correction of the record, not the kitchen's word during service.
      const anyDay = allowsWhereTouched(request, manageScope);
      const result = await setMealAvailability.execute({
        mealId,
        status: request.body.status,
        anyDay,
        by: auditActorOf(request),
      });
      if (!result.ok) return sendRefusal(reply, result.refusal);
      return { status: 'success' as const, data: { meal_id: mealId, ...availabilityFieldsOf(result.value) } };
    },
  );
};
