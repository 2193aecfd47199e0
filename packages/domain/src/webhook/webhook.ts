import type { WebhookEventType } from './webhook-event.js';

/** The admin's name for an endpoint, in the URL: 1 to 64 of [A-Za-z0-9_-]. */
export type WebhookId = string;

export const webhookIdPattern = /^[A-Za-z0-9_-]{1,64}$/;

/**
 * A signing secret in the Standard Webhooks form: `whsec_` and the base64 of 24 to 64 random bytes. The HMAC key is
 * the decoded bytes.
 */
export const webhookSecretPattern = /^whsec_[A-Za-z0-9+/]{32,88}={0,2}$/;

/** What an admin's PUT gives. */
export interface WebhookDefinition {
  readonly id: WebhookId;
  /** https:// (or http://): checked against the outbound address rule when delivering and when saved. */
  readonly url: string;
  /** At least one; no repeats. */
  readonly events: readonly WebhookEventType[];
  readonly secret: string;
}

export interface Webhook extends WebhookDefinition {
  readonly createdAt: Date;
  readonly updatedAt: Date;
  /**
   * Since when every attempt to this endpoint failed (null after a success or a PUT). Once that is
   * `webhookDisableAfterMs` ago the endpoint is disabled: nothing more is sent to it, new events skip it, until a PUT.
   */
  readonly failingSince: Date | null;
  readonly disabledAt: Date | null;
}

/** Whether deliveries go out to it. */
export function isEnabled(webhook: Webhook): boolean {
  return webhook.disabledAt === null;
}
