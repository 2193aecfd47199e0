import type { Clock } from '../shared/clock.js';
import { accept, refuse, type Result } from '../shared/refusal.js';
import type { WebhookEventType } from '../webhook/webhook-event.js';
import type { NewWebhookSecret, WebhookUrlCheck } from '../webhook/webhook-delivery-ports.js';
import type { Delivery, WebhookOutbox, WebhookRepository } from '../webhook/webhook-ports.js';
import { validateWebhook } from '../webhook/webhook-validation.js';
import type { Webhook, WebhookId } from '../webhook/webhook.js';

export interface SaveWebhookCommand {
  readonly id: WebhookId;
  readonly url: string;
  readonly events: readonly WebhookEventType[];
  /** null: the endpoint's secret is kept; a new endpoint gets a generated one, shown once (in this answer). */
  readonly secret: string | null;
}

export const saveWebhookRefusals = ['invalid_webhook'] as const;

/** Creates an endpoint or replaces it (admin); a replaced endpoint is enabled again. */
export class SaveWebhook {
  constructor(
    private readonly deps: {
      readonly webhooks: WebhookRepository;
      readonly clock: Clock;
      readonly newSecret: NewWebhookSecret;
      readonly checkUrl: WebhookUrlCheck;
    },
  ) {}

  async execute(
    command: SaveWebhookCommand,
  ): Promise<
    Result<
      { readonly webhook: Webhook; readonly created: boolean; readonly secretGenerated: boolean },
      'invalid_webhook'
    >
  > {
    // Without a secret, a replacement keeps the endpoint's own (changing events must not break receivers' checks);
    // only a new endpoint gets a generated one. Giving a secret rotates it.
    const kept = command.secret === null ? (await this.deps.webhooks.find(command.id))?.secret : undefined;
    const secretGenerated = command.secret === null && kept === undefined;
    const secret = command.secret ?? kept ?? this.deps.newSecret();
    const definition = { id: command.id, url: command.url, events: command.events, secret };
    const valid = validateWebhook(definition, this.deps.checkUrl);
    if (!valid.ok) return valid;
    const { webhook, created } = await this.deps.webhooks.save(valid.value, this.deps.clock.now());
    return accept({ webhook, created, secretGenerated });
  }
}

export const getWebhookRefusals = ['webhook_not_found'] as const;

export class GetWebhook {
  constructor(private readonly deps: { readonly webhooks: WebhookRepository }) {}

  async execute(id: WebhookId): Promise<Result<Webhook, 'webhook_not_found'>> {
    const webhook = await this.deps.webhooks.find(id);
    return webhook === undefined ? refuse('webhook_not_found') : accept(webhook);
  }
}

/** Every endpoint, by id. */
export class ListWebhooks {
  constructor(private readonly deps: { readonly webhooks: WebhookRepository }) {}

  execute(): Promise<readonly Webhook[]> {
    return this.deps.webhooks.list();
  }
}

export const deleteWebhookRefusals = ['webhook_not_found'] as const;

/** Removes an endpoint with its pending deliveries and its log: nothing more goes out to it. */
export class DeleteWebhook {
  constructor(private readonly deps: { readonly webhooks: WebhookRepository }) {}

  async execute(id: WebhookId): Promise<Result<{ readonly id: WebhookId }, 'webhook_not_found'>> {
    return (await this.deps.webhooks.remove(id)) ? accept({ id }) : refuse('webhook_not_found');
  }
}

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
