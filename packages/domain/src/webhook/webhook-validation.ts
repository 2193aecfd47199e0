import { isHttpUrl } from '../feed/canteen-feed.js';
import { accept, refuse, type Result } from '../shared/refusal.js';
import { isWebhookEventType, webhookEventTypes } from './webhook-event.js';
import type { WebhookUrlCheck } from './webhook-delivery-ports.js';
import { webhookIdPattern, webhookSecretPattern, type WebhookDefinition } from './webhook.js';

export const maxWebhookUrlLength = 2000;

/** Any URL of the right shape: the rule without an address policy (tests, embedders without outbound adapters). */
export const anyWebhookUrl: WebhookUrlCheck = () => undefined;

/**
 * An endpoint as an admin defines it: an id, an http(s) URL, known events without repeats, a Standard Webhooks secret.
 */
export function validateWebhook(
  definition: WebhookDefinition,
  checkUrl: WebhookUrlCheck = anyWebhookUrl,
): Result<WebhookDefinition, 'invalid_webhook'> {
  const problem = webhookProblem(definition, checkUrl);
  return problem === undefined ? accept(definition) : refuse('invalid_webhook', problem);
}

function webhookProblem({ id, url, events, secret }: WebhookDefinition, checkUrl: WebhookUrlCheck): string | undefined {
  if (!webhookIdPattern.test(id)) return 'the webhook id must be 1 to 64 of A-Z, a-z, 0-9, "_" and "-"';
  if (!isHttpUrl(url, maxWebhookUrlLength)) {
    return `the url must be an http or https URL of at most ${maxWebhookUrlLength} characters, without credentials`;
  }
  const urlProblem = checkUrl(url);
  if (urlProblem !== undefined) return `the url ${urlProblem}`;
  if (events.length === 0) return 'events must name at least one event';
  const unknown = events.find((event) => !isWebhookEventType(event));
  if (unknown !== undefined) return `events: "${String(unknown)}" is not one of ${webhookEventTypes.join(', ')}`;
  if (new Set(events).size !== events.length) return 'events must not repeat an event';
  if (!isWebhookSecret(secret)) return 'the secret must be "whsec_" and the base64 of 24 to 64 bytes';
  return undefined;
}

/**
 * The specification's form, as base64 every decoder takes (whole groups of four characters, padding included), of
 * 24 to 64 bytes: enough for HMAC-SHA256, and what the Standard Webhooks libraries accept.
 */
export function isWebhookSecret(secret: string): boolean {
  const encoded = secret.slice('whsec_'.length);
  const bytes = (encoded.length / 4) * 3 - (encoded.length - encoded.replace(/=+$/, '').length);
  return webhookSecretPattern.test(secret) && encoded.length % 4 === 0 && bytes >= 24 && bytes <= 64;
}
