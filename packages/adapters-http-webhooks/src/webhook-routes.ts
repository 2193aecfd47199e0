import {
  defaultPageSize,
  deleteWebhookRefusals,
  getWebhookRefusals,
  listDeliveriesRefusals,
  saveWebhookRefusals,
  type DeleteWebhook,
  type GetWebhook,
  type ListDeliveries,
  type ListWebhooks,
  type SaveWebhook,
} from '@canteen-meals/domain';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { routes } from '@canteen-meals/http-contract';
import {
  auditActorOf,
  authenticatedRouteErrors,
  jsonBodyErrors,
  requireJsonBody,
  sendRefusal,
  serveRoute,
  wireCodesOf,
  writeRouteErrors,
} from '@canteen-meals/adapters-http/plugin-kit';
import { deliveryDataOf, webhookDataOf, webhookFromBody } from './webhook-wire-mapping.js';
import { createDeliveryCursors } from './delivery-cursor.js';

export interface WebhookRoutesOptions {
  readonly saveWebhook: SaveWebhook;
  readonly getWebhook: GetWebhook;
  readonly listWebhooks: ListWebhooks;
  readonly deleteWebhook: DeleteWebhook;
  readonly listDeliveries: ListDeliveries;
  readonly cursorSecret?: string | undefined;
}

/** A URL of 2000 characters and three event names fit many times over. */
const webhookBodyLimit = 16 * 1024;

const readErrors = [...authenticatedRouteErrors, 'forbidden'] as const;

/** The admin's webhook endpoints and their delivery logs (scope meals:write). */
export const webhookRoutes: FastifyPluginAsyncTypebox<WebhookRoutesOptions> = async (app, options) => {
  const { saveWebhook, getWebhook, listWebhooks, deleteWebhook, listDeliveries } = options;
  const cursors = createDeliveryCursors(options.cursorSecret);

  serveRoute(
    app,
    routes.saveWebhook,
    {
      bodyLimit: webhookBodyLimit,
      preValidation: requireJsonBody,
      errors: [...readErrors, ...jsonBodyErrors, ...writeRouteErrors, ...wireCodesOf(saveWebhookRefusals)],
    },
    async (request, reply) => {
      const result = await saveWebhook.execute({
        ...webhookFromBody(request.params.webhook_id, request.body),
        by: auditActorOf(request),
      });
      if (!result.ok) return sendRefusal(reply, result.refusal);
      const { webhook, created, secretGenerated } = result.value;
      return reply
        .code(created ? 201 : 200)
        .send({ status: 'success' as const, data: webhookDataOf(webhook, { withSecret: secretGenerated }) });
    },
  );

  serveRoute(app, routes.listWebhooks, { errors: readErrors }, async () => ({
    status: 'success' as const,
    data: { webhooks: (await listWebhooks.execute()).map((webhook) => webhookDataOf(webhook)) },
  }));

  serveRoute(
    app,
    routes.getWebhook,
    { errors: [...readErrors, ...wireCodesOf(getWebhookRefusals)] },
    async (request, reply) => {
      // An id that cannot name a webhook names none: the use case refuses it like any unknown id.
      const result = await getWebhook.execute(request.params.webhook_id);
      if (!result.ok) return sendRefusal(reply, result.refusal);
      return { status: 'success' as const, data: webhookDataOf(result.value) };
    },
  );

  serveRoute(
    app,
    routes.deleteWebhook,
    { errors: [...readErrors, ...writeRouteErrors, ...wireCodesOf(deleteWebhookRefusals)] },
    async (request, reply) => {
      const result = await deleteWebhook.execute(request.params.webhook_id, auditActorOf(request));
      if (!result.ok) return sendRefusal(reply, result.refusal);
      return { status: 'success' as const, data: { webhook_id: result.value.id, deleted: true as const } };
    },
  );

  serveRoute(
    app,
    routes.listDeliveries,
    { errors: [...readErrors, 'invalid_request', 'invalid_cursor', ...wireCodesOf(listDeliveriesRefusals)] },
    async (request, reply) => {
      const webhookId = request.params.webhook_id;
      const { limit, cursor } = request.query;
      const result = await listDeliveries.execute({
        webhookId,
        limit: limit === undefined ? defaultPageSize : Number(limit),
        after: cursor === undefined ? null : cursors.decode(webhookId, cursor),
      });
      if (!result.ok) return sendRefusal(reply, result.refusal);
      const { deliveries, next } = result.value;
      return {
        status: 'success' as const,
        data: {
          deliveries: deliveries.map(deliveryDataOf),
          next_cursor: next === null ? null : cursors.encode(webhookId, next),
        },
      };
    },
  );
};
