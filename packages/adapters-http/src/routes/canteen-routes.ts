import {
  getCanteenRefusals,
  saveCanteenRefusals,
  type GetCanteen,
  type ListCanteens,
  type SaveCanteen,
} from '@canteen-meals/domain';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { routes } from '@canteen-meals/http-contract';
import { sendRefusal, wireCodesOf } from '../error-mapping.js';
import { canteenDataOf, canteenFromBody } from '../wire-mapping.js';
import { requireJsonBody } from '../json-body.js';
import {
  authenticatedRouteErrors,
  jsonBodyErrors,
  publicRouteErrors,
  writeRouteErrors,
} from '../schemas/error-responses.js';
import { serveRoute } from '../serve-route.js';
import { adminBodyLimit } from './meal-routes.js';
import { auditActorOf } from '../auth/audit-actor.js';

export interface CanteenRoutesOptions {
  readonly saveCanteen: SaveCanteen;
  readonly getCanteen: GetCanteen;
  readonly listCanteens: ListCanteens;
}

/** The public routes need no token (one that is sent is ignored); they are limited per client address. */

/** GET /canteens and GET /canteens/{canteen_id}: public, no token needed. */
export const publicCanteenRoutes: FastifyPluginAsyncTypebox<CanteenRoutesOptions> = async (
  app,
  { getCanteen, listCanteens },
) => {
  serveRoute(app, routes.listCanteens, { errors: publicRouteErrors }, async () => ({
    status: 'success' as const,
    data: { canteens: (await listCanteens.execute()).map((canteen) => canteenDataOf(canteen)) },
  }));

  serveRoute(
    app,
    routes.getCanteen,
    { errors: [...publicRouteErrors, ...wireCodesOf(getCanteenRefusals)] },
    async (request, reply) => {
      // An id that cannot name a canteen names none: the use case refuses it like any unknown id.
      const result = await getCanteen.execute(request.params.canteen_id);
      if (!result.ok) return sendRefusal(reply, result.refusal);
      return { status: 'success' as const, data: canteenDataOf(result.value) };
    },
  );
};

/** PUT /admin/canteens/{canteen_id}: creates (meals:write) or replaces (meals:manage there) a canteen. */
export const adminCanteenRoutes: FastifyPluginAsyncTypebox<CanteenRoutesOptions> = async (app, { saveCanteen }) => {
  app.addHook('preValidation', requireJsonBody);

  serveRoute(
    app,
    routes.saveCanteen,
    {
      bodyLimit: adminBodyLimit,
      errors: [
        ...authenticatedRouteErrors,
        ...jsonBodyErrors,
        ...writeRouteErrors,
        'forbidden',
        ...wireCodesOf(saveCanteenRefusals),
      ],
    },
    async (request, reply) => {
      const result = await saveCanteen.execute(
        canteenFromBody(request.params.canteen_id, request.body),
        auditActorOf(request),
      );
      if (!result.ok) return sendRefusal(reply, result.refusal);
      return reply
        .code(result.value.created ? 201 : 200)
        .send({ status: 'success' as const, data: canteenDataOf(result.value.canteen, { withFeeds: true }) });
    },
  );
};
