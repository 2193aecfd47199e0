import {
  archiveCanteenRefusals,
  mayAct,
  type ArchiveCanteen,
  type ListCanteensWithArchived,
} from '@canteen-meals/domain';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { routes } from '@canteen-meals/http-contract';
import { authenticatedPrincipal } from '../auth/authenticate.js';
import { sendRefusal, wireCodesOf } from '../error-mapping.js';
import { adminCanteenDataOf } from '../wire-mapping.js';
import { authenticatedRouteErrors, writeRouteErrors } from '../schemas/error-responses.js';
import { serveRoute } from '../serve-route.js';
import { auditActorOf } from '../auth/audit-actor.js';

export interface CanteenArchiveRoutesOptions {
  readonly archiveCanteen: ArchiveCanteen;
  readonly listCanteensWithArchived: ListCanteensWithArchived;
}

const adminErrors = [...authenticatedRouteErrors, 'forbidden'] as const;

/**
 * DELETE /admin/canteens/{canteen_id} archives a canteen (meals:write), GET /admin/canteens lists the caller's
 * canteens,
 * archived ones too (meals:manage); who may is auth/route-access.ts's. Their own plugin: the PUT's JSON body check does
 * not reach them.
 */
export const canteenArchiveRoutes: FastifyPluginAsyncTypebox<CanteenArchiveRoutesOptions> = async (app, options) => {
  const { archiveCanteen, listCanteensWithArchived } = options;
  serveRoute(
    app,
    routes.archiveCanteen,
    { errors: [...adminErrors, ...writeRouteErrors, ...wireCodesOf(archiveCanteenRefusals)] },
    async (request, reply) => {
      const result = await archiveCanteen.execute(request.params.canteen_id, auditActorOf(request));
      if (!result.ok) return sendRefusal(reply, result.refusal);
      const { canteenId, archivedAt } = result.value;
      return { status: 'success' as const, data: { canteen_id: canteenId, archived_at: archivedAt.toISOString() } };
    },
  );

  serveRoute(app, routes.listAdminCanteens, { errors: adminErrors }, async (request) => {
    // The caller's canteens only: a manager sees theirs, meals:write every one.
    const { grants } = authenticatedPrincipal(request);
    const canteens = (await listCanteensWithArchived.execute()).filter((canteen) =>
      mayAct(grants, 'meals:manage', canteen.id),
    );
    return { status: 'success' as const, data: { canteens: canteens.map((canteen) => adminCanteenDataOf(canteen)) } };
  });
};
