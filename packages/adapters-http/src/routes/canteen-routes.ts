import {
  getCanteenRefusals,
  saveCanteenRefusals,
  type GetCanteen,
  type ListCanteens,
  type SaveCanteen,
} from '@canteen-meals/domain';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  CanteenBody,
  CanteenData,
  CanteenParams,
  CanteensData,
  exampleCanteen,
  exampleCanteens,
  exampleSavedCanteen,
  routePaths,
  successEnvelope,
  successExample,
} from '@canteen-meals/http-contract';
import { requireAdminScope } from '../auth/authenticate.js';
import { sendRefusal, wireCodesOf } from '../error-mapping.js';
import { canteenDataOf, canteenFromBody } from '../wire-mapping.js';
import { requireJsonBody } from '../json-body.js';
import {
  authenticatedRouteErrors,
  errorResponses,
  jsonBodyErrors,
  publicRouteErrors,
  writeRouteErrors,
} from '../schemas/error-responses.js';
import { adminBodyLimit } from './meal-routes.js';

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
  app.get(
    routePaths.listCanteens,
    {
      schema: {
        operationId: 'listCanteens',
        summary: 'Every canteen, by id (public)',
        tags: ['canteens'],
        security: [],
        response: {
          200: successEnvelope(CanteensData, successExample(exampleCanteens)),
          ...errorResponses(publicRouteErrors),
        },
      },
    },
    async () => ({
      status: 'success' as const,
      data: { canteens: (await listCanteens.execute()).map((canteen) => canteenDataOf(canteen)) },
    }),
  );

  app.get(
    routePaths.getCanteen,
    {
      schema: {
        operationId: 'getCanteen',
        summary: 'One canteen (public)',
        tags: ['canteens'],
        security: [],
        params: CanteenParams,
        response: {
          200: successEnvelope(CanteenData, successExample(exampleCanteen)),
          ...errorResponses([...publicRouteErrors, ...wireCodesOf(getCanteenRefusals)]),
        },
      },
    },
    async (request, reply) => {
      // An id that cannot name a canteen names none: the use case refuses it like any unknown id.
      const result = await getCanteen.execute(request.params.canteen_id);
      if (!result.ok) return sendRefusal(reply, result.refusal);
      return { status: 'success' as const, data: canteenDataOf(result.value) };
    },
  );
};

/** PUT /admin/canteens/{canteen_id}: creates or replaces a canteen (scope meals:write). */
export const adminCanteenRoutes: FastifyPluginAsyncTypebox<CanteenRoutesOptions> = async (app, { saveCanteen }) => {
  app.addHook('preValidation', requireJsonBody);

  app.put(
    routePaths.saveCanteen,
    {
      bodyLimit: adminBodyLimit,
      onRequest: requireAdminScope,
      schema: {
        operationId: 'saveCanteen',
        summary: 'Create or replace a canteen (needs the meals:write scope); 201 when created, 200 when replaced',
        params: CanteenParams,
        body: CanteenBody,
        response: {
          200: successEnvelope(CanteenData, successExample(exampleSavedCanteen)),
          201: successEnvelope(CanteenData, successExample(exampleSavedCanteen)),
          ...errorResponses([
            ...authenticatedRouteErrors,
            ...jsonBodyErrors,
            ...writeRouteErrors,
            'forbidden',
            ...wireCodesOf(saveCanteenRefusals),
          ]),
        },
      },
    },
    async (request, reply) => {
      const result = await saveCanteen.execute(canteenFromBody(request.params.canteen_id, request.body));
      if (!result.ok) return sendRefusal(reply, result.refusal);
      return reply
        .code(result.value.created ? 201 : 200)
        .send({ status: 'success' as const, data: canteenDataOf(result.value.canteen, { withFeeds: true }) });
    },
  );
};
