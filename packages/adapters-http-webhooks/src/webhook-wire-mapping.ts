import type { Delivery, SaveWebhookCommand, Webhook } from '@canteen-meals/domain';
import type { DeliveryData, WebhookBody, WebhookData } from '@canteen-meals/http-contract';

// Webhooks and their deliveries become wire objects here; the events' own payloads are mapped in the contract
// (webhookPayloadOf), where the client finds them.

const instant = (value: Date | null) => value?.toISOString() ?? null;

/** An endpoint as the admin routes answer it: the secret only when `withSecret` (the PUT that generated it). */
export function webhookDataOf(
  webhook: Webhook,
  { withSecret = false }: { readonly withSecret?: boolean } = {},
): WebhookData {
  return {
    webhook_id: webhook.id,
    url: webhook.url,
    events: [...webhook.events],
    ...(withSecret ? { secret: webhook.secret } : {}),
    enabled: webhook.disabledAt === null,
    failing_since: instant(webhook.failingSince),
    disabled_at: instant(webhook.disabledAt),
    created_at: webhook.createdAt.toISOString(),
    updated_at: webhook.updatedAt.toISOString(),
  };
}

export function webhookFromBody(id: string, body: WebhookBody): SaveWebhookCommand {
  return { id, url: body.url, events: body.events, secret: body.secret ?? null };
}

export function deliveryDataOf(delivery: Delivery): DeliveryData {
  return {
    event_id: delivery.event.id,
    type: delivery.event.type,
    state: delivery.state,
    attempts: delivery.attempts,
    last_status: delivery.lastStatus,
    last_error: delivery.lastError,
    last_attempt_at: instant(delivery.lastAttemptAt),
    next_attempt_at: instant(delivery.nextAttemptAt),
    created_at: delivery.createdAt.toISOString(),
  };
}
