import { randomBytes } from 'node:crypto';

/** A new signing secret: `whsec_` and the base64 of 32 random bytes from the system's CSPRNG. */
export function newWebhookSecret(): string {
  return `whsec_${randomBytes(32).toString('base64')}`;
}

/** One attempt to deliver a webhook (connection, request, answer) ends within this unless configured otherwise. */
export const defaultWebhookTimeoutMs = 10_000;
