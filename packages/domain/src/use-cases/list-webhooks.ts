import type { WebhookRepository } from '../webhook/webhook-ports.js';
import type { Webhook } from '../webhook/webhook.js';

/** Every endpoint, by id. */
export class ListWebhooks {
  constructor(private readonly deps: { readonly webhooks: WebhookRepository }) {}

  execute(): Promise<readonly Webhook[]> {
    return this.deps.webhooks.list();
  }
}
