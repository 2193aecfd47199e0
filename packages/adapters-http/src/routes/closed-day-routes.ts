import { setDayClosedRefusals, type SetDayClosed } from '@canteen-meals/domain';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { routes } from '@canteen-meals/http-contract';
import { sendRefusal, wireCodesOf } from '../error-mapping.js';
import { requireJsonBody } from '../json-body.js';
import { authenticatedRouteErrors, jsonBodyErrors, writeRouteErrors } from '../schemas/error-responses.js';
import { serveRoute } from '../serve-route.js';
import { localDateOf } from './read-params.js';
import { auditActorOf } from '../auth/audit-actor.js';

export interface ClosedDayRoutesOptions {
  readonly setDayClosed: SetDayClosed;
}

/**
 * PUT /admin/canteens/{canteen_id}/days/{date}: says by hand that a canteen is closed on a day, or not (meals:manage).
 */
export const closedDayRoutes: FastifyPluginAsyncTypebox<ClosedDayRoutesOptions> = async (app, { setDayClosed }) => {
  app.addHook('preValidation', requireJsonBody);

  serveRoute(
    app,
    routes.setDayClosed,
    {
      errors: [
        ...authenticatedRouteErrors,
        ...jsonBodyErrors,
        ...writeRouteErrors,
        'forbidden',
        ...wireCodesOf(setDayClosedRefusals),
      ],
    },
    async (request, reply) => {
      const { canteen_id: canteenId, date } = request.params;
      const result = await setDayClosed.execute({
        canteenId,
        date: localDateOf(date),
        closed: request.body.closed,
        by: auditActorOf(request),
      });
      if (!result.ok) return sendRefusal(reply, result.refusal);
      const { closed, withdrawn } = result.value;
      return {
        status: 'success' as const,
        data: { canteen_id: canteenId, date, closed, withdrawn_meal_ids: [...withdrawn] },
      };
    },
  );
};
