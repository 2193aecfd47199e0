import { accept, refuse, type Result } from '../shared/refusal.js';
import type { WebhookRepository } from '../webhook/webhook-ports.js';
import type { WebhookId } from '../webhook/webhook.js';

export const deleteWebhookRefusals = ['webhook_not_found'] as const;

/** Removes an endpoint with its pending deliveries and its log: nothing more goes out to it. */
export class DeleteWebhook {
  constructor(private readonly deps: { readonly webhooks: WebhookRepository }) {}

  async execute(id: WebhookId): Promise<Result<{ readonly id: WebhookId }, 'webhook_not_found'>> {
    return (await this.deps.webhooks.remove(id)) ? accept({ id }) : refuse('webhook_not_found');
  }
}
