import { archiveCanteenRefusals, type ArchiveCanteen, type ListCanteensWithArchived } from '@canteen-meals/domain';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  AdminCanteensData,
  ArchivedCanteenData,
  CanteenParams,
  exampleAdminCanteens,
  exampleArchivedCanteen,
  routePaths,
  successEnvelope,
  successExample,
} from '@canteen-meals/http-contract';
import { requireAdminScope } from '../auth/authenticate.js';
import { sendRefusal, wireCodesOf } from '../error-mapping.js';
import { adminCanteenDataOf } from '../wire-mapping.js';
import { authenticatedRouteErrors, errorResponses, writeRouteErrors } from '../schemas/error-responses.js';

export interface CanteenArchiveRoutesOptions {
  readonly archiveCanteen: ArchiveCanteen;
  readonly listCanteensWithArchived: ListCanteensWithArchived;
}

const adminErrors = [...authenticatedRouteErrors, 'forbidden'] as const;

/**
 * DELETE /admin/canteens/{canteen_id} archives a canteen, GET /admin/canteens lists every one, archived ones too
 * (scope meals:write). Their own plugin: the PUT's JSON body check does not reach them.
 */
export const canteenArchiveRoutes: FastifyPluginAsyncTypebox<CanteenArchiveRoutesOptions> = async (app, options) => {
  const { archiveCanteen, listCanteensWithArchived } = options;
  app.addHook('onRequest', requireAdminScope);

  app.delete(
    routePaths.archiveCanteen,
    {
      schema: {
        operationId: 'archiveCanteen',
        summary:
          'Archive a canteen (needs the meals:write scope): it leaves every list, its menus and reads answer 404 and its ' +
          'feeds are no longer fetched; its meals and ratings are kept, and a PUT of the canteen restores it. Idempotent',
        params: CanteenParams,
        response: {
          200: successEnvelope(ArchivedCanteenData, successExample(exampleArchivedCanteen)),
          ...errorResponses([...adminErrors, ...writeRouteErrors, ...wireCodesOf(archiveCanteenRefusals)]),
        },
      },
    },
    async (request, reply) => {
      const result = await archiveCanteen.execute(request.params.canteen_id);
      if (!result.ok) return sendRefusal(reply, result.refusal);
      const { canteenId, archivedAt } = result.value;
      return { status: 'success' as const, data: { canteen_id: canteenId, archived_at: archivedAt.toISOString() } };
    },
  );

  app.get(
    routePaths.listAdminCanteens,
    {
      schema: {
        operationId: 'listAdminCanteens',
        summary:
          'Every canteen with its feeds, archived ones too with their archived_at, by id (needs the meals:write scope)',
        response: {
          200: successEnvelope(AdminCanteensData, successExample(exampleAdminCanteens)),
          ...errorResponses(adminErrors),
        },
      },
    },
    async () => ({
      status: 'success' as const,
      data: { canteens: (await listCanteensWithArchived.execute()).map((canteen) => adminCanteenDataOf(canteen)) },
    }),
  );
};
