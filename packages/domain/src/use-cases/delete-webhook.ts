import type { AuditActor } from '../audit/audit-entry.js';
import { webhookDeleteAudit } from '../audit/audit-notes.js';
import type { Clock } from '../shared/clock.js';
import { accept, refuse, type Result } from '../shared/refusal.js';
import type { WebhookRepository } from '../webhook/webhook-ports.js';
import type { WebhookId } from '../webhook/webhook.js';

export const deleteWebhookRefusals = ['webhook_not_found'] as const;

/** Removes an endpoint with its pending deliveries and its log: nothing more goes out to it. */
export class DeleteWebhook {
  constructor(
    private readonly deps: {
      readonly webhooks: WebhookRepository;
      /** The instant of the audit trail's entry (absent: the system's). */
      readonly clock?: Clock;
    },
  ) {}

  /** `by`: who deletes it, recorded in the audit trail in the removal's own unit of work. */
  async execute(id: WebhookId, by?: AuditActor): Promise<Result<{ readonly id: WebhookId }, 'webhook_not_found'>> {
    const audit = by === undefined ? undefined : webhookDeleteAudit(by, this.deps.clock?.now() ?? new Date());
    return (await this.deps.webhooks.remove(id, audit)) ? accept({ id }) : refuse('webhook_not_found');
  }
}
