import type { AuditNote, Webhook, WebhookDefinition, WebhookId } from '@canteen-meals/domain';
import type { WebhookRepository } from '@canteen-meals/domain/ports';
import { InMemoryDatabase } from './in-memory-database.js';

export class InMemoryWebhookRepository implements WebhookRepository {
  constructor(private readonly db: InMemoryDatabase = new InMemoryDatabase()) {}

  async save(
    definition: WebhookDefinition,
    at: Date,
    audit?: AuditNote<{ readonly webhook: Webhook; readonly created: boolean }>,
  ): Promise<{ readonly webhook: Webhook; readonly created: boolean }> {
    const before = this.db.webhooks.get(definition.id);
    const webhook: Webhook = {
      id: definition.id,
      url: definition.url,
      events: [...definition.events],
      secret: definition.secret,
      createdAt: new Date((before?.createdAt ?? at).getTime()),
      updatedAt: new Date(at.getTime()),
      failingSince: null,
      disabledAt: null,
    };
    this.db.appendAudit(audit?.({ webhook: copyOf(webhook), created: before === undefined }) ?? []);
    this.db.webhooks.set(webhook.id, webhook);
    return { webhook: copyOf(webhook), created: before === undefined };
  }

  async find(id: WebhookId): Promise<Webhook | undefined> {
    const webhook = this.db.webhooks.get(id);
    return webhook === undefined ? undefined : copyOf(webhook);
  }

  async list(): Promise<readonly Webhook[]> {
    return [...this.db.webhooks.values()].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)).map(copyOf);
  }

  async remove(id: WebhookId, audit?: AuditNote<{ readonly id: WebhookId }>): Promise<boolean> {
    if (!this.db.webhooks.has(id)) return false;
    this.db.appendAudit(audit?.({ id }) ?? []);
    this.db.webhooks.delete(id);
    for (const [key, delivery] of this.db.deliveries) if (delivery.webhookId === id) this.db.deliveries.delete(key);
    return true;
  }
}

/** A copy with its own arrays and dates, as a database would answer. */
export function copyOf(webhook: Webhook): Webhook {
  const date = (value: Date | null) => (value === null ? null : new Date(value.getTime()));
  return {
    ...webhook,
    events: [...webhook.events],
    createdAt: new Date(webhook.createdAt.getTime()),
    updatedAt: new Date(webhook.updatedAt.getTime()),
    failingSince: date(webhook.failingSince),
    disabledAt: date(webhook.disabledAt),
  };
}
