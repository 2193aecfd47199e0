import { Webhook } from 'standardwebhooks';

/**
 * The Standard Webhooks headers of a message sent at `at`: `webhook-signature` is `v1,` and the base64 HMAC-SHA256,
 * keyed with the secret's decoded bytes, of `id.timestamp.body` (timestamp in seconds). Signed by the specification's
 * own library, so that what receivers verify with it is what we sign by construction.
 */
export function signWebhook(
  { id, body, secret }: { readonly id: string; readonly body: string; readonly secret: string },
  at: Date,
): { readonly 'webhook-id': string; readonly 'webhook-timestamp': string; readonly 'webhook-signature': string } {
  return {
    'webhook-id': id,
    'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
    'webhook-signature': new Webhook(secret).sign(id, at, body),
  };
}
