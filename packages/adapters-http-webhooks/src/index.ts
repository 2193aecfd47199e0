export { webhooksPlugin, type WebhooksPluginOptions } from './webhooks-plugin.js';
export { webhookRoutes, type WebhookRoutesOptions } from './webhook-routes.js';
