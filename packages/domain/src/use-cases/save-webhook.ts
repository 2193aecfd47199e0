import type { AuditActor } from '../audit/audit-entry.js';
import { webhookSaveAudit } from '../audit/audit-notes.js';
import type { Clock } from '../shared/clock.js';
import { accept, type Result } from '../shared/refusal.js';
import type { WebhookEventType } from '../webhook/webhook-event.js';
import type { NewWebhookSecret, WebhookUrlCheck } from '../webhook/webhook-delivery-ports.js';
import type { WebhookRepository } from '../webhook/webhook-ports.js';
import { validateWebhook } from '../webhook/webhook-validation.js';
import type { Webhook, WebhookId } from '../webhook/webhook.js';

export interface SaveWebhookCommand {
  readonly id: WebhookId;
  readonly url: string;
  readonly events: readonly WebhookEventType[];
  /** null: the endpoint's secret is kept; a new endpoint gets a generated one, shown once (in this answer). */
  readonly secret: string | null;
  /** Who saves it, recorded in the audit trail (never the secret: whether it was rotated). */
  readonly by?: AuditActor | undefined;
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
    const at = this.deps.clock.now();
    const { by } = command;
    const { webhook, created } = await this.deps.webhooks.save(
      valid.value,
      at,
      by === undefined ? undefined : webhookSaveAudit(by, at, command.secret !== null),
    );
    return accept({ webhook, created, secretGenerated });
  }
}
