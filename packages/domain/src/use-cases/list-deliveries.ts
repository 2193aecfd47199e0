import { accept, refuse, type Result } from '../shared/refusal.js';
import type { Delivery, WebhookOutbox, WebhookRepository } from '../webhook/webhook-ports.js';
import type { WebhookId } from '../webhook/webhook.js';

/** Where a page of the delivery log ended: the next page starts after it. */
export interface DeliveryPosition {
  readonly createdAt: Date;
  readonly eventId: string;
}

export const maxDeliveriesPerPage = 100;

export const listDeliveriesRefusals = ['webhook_not_found'] as const;

/** An endpoint's delivery log, newest first, a page at a time. */
export class ListDeliveries {
  constructor(private readonly deps: { readonly webhooks: WebhookRepository; readonly outbox: WebhookOutbox }) {}

  async execute(query: {
    readonly webhookId: WebhookId;
    readonly limit: number;
    readonly after: DeliveryPosition | null;
  }): Promise<
    Result<{ readonly deliveries: readonly Delivery[]; readonly next: DeliveryPosition | null }, 'webhook_not_found'>
  > {
    if ((await this.deps.webhooks.find(query.webhookId)) === undefined) return refuse('webhook_not_found');
    const limit = Math.min(Math.max(1, query.limit), maxDeliveriesPerPage);
    // One more than asked tells whether another page follows, without a count.
    const page = await this.deps.outbox.deliveries(query.webhookId, {
      limit: limit + 1,
      ...(query.after === null ? {} : { before: query.after }),
    });
    const deliveries = page.slice(0, limit);
    const last = deliveries.at(-1);
    const next =
      page.length > limit && last !== undefined ? { createdAt: last.createdAt, eventId: last.event.id } : null;
    return accept({ deliveries, next });
  }
}
