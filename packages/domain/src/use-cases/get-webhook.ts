import { accept, refuse, type Result } from '../shared/refusal.js';
import type { WebhookRepository } from '../webhook/webhook-ports.js';
import type { Webhook, WebhookId } from '../webhook/webhook.js';

export const getWebhookRefusals = ['webhook_not_found'] as const;

export class GetWebhook {
  constructor(private readonly deps: { readonly webhooks: WebhookRepository }) {}

  async execute(id: WebhookId): Promise<Result<Webhook, 'webhook_not_found'>> {
    const webhook = await this.deps.webhooks.find(id);
    return webhook === undefined ? refuse('webhook_not_found') : accept(webhook);
  }
}
