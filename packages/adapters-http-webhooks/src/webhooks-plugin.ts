import {
  authorizeStaff,
  canteenLocatorOver,
  type HttpAppPlugin,
  requireAuthentication,
} from '@canteen-meals/adapters-http/plugin-kit';
import { type WebhookRoutesOptions, webhookRoutes } from './webhook-routes.js';

export interface WebhooksPluginOptions {
  /** The webhook use cases its routes call, and what the staff access policy reads to locate a canteen. */
  readonly useCases: Omit<WebhookRoutesOptions, 'cursorSecret'> & Parameters<typeof canteenLocatorOver>[0];
  /** CURSOR_SECRET: seals the delivery log's cursors (a random one per process when undefined). */
  readonly cursorSecret?: string | undefined;
}

/**
 * The admin's webhook endpoints and their delivery logs under `/api/v1/admin/webhooks` (a token required, through
 * the staff access policy: meals:write). Give it to buildHttpApp's `plugins`.
 */
export function webhooksPlugin(options: WebhooksPluginOptions): HttpAppPlugin {
  const { useCases } = options;
  return {
    name: 'webhooks',
    register: async (app, { apiPrefix }) => {
      await app.register(
        async (api) => {
          api.addHook('onRequest', requireAuthentication);
          authorizeStaff(api, canteenLocatorOver(useCases));
          await api.register(webhookRoutes, {
            saveWebhook: useCases.saveWebhook,
            getWebhook: useCases.getWebhook,
            listWebhooks: useCases.listWebhooks,
            deleteWebhook: useCases.deleteWebhook,
            listDeliveries: useCases.listDeliveries,
            cursorSecret: options.cursorSecret,
          });
        },
        { prefix: apiPrefix },
      );
    },
  };
}
