import { webhookEventNames } from '@canteen-meals/http-contract';
import type { WebhookEvent } from './wire-types.js';

/**
 * Why a delivery was refused: a closed set, so that a receiver can answer each as it likes (all are "do not trust").
 */
export type WebhookRefusal =
  | 'missing_headers'
  | 'invalid_timestamp'
  | 'timestamp_out_of_tolerance'
  | 'invalid_secret'
  | 'invalid_signature'
  | 'invalid_payload';

export class WebhookVerificationError extends Error {
  override readonly name = 'WebhookVerificationError';

  constructor(
    readonly reason: WebhookRefusal,
    message: string,
  ) {
    super(message);
  }
}

/** Request headers as a receiver has them: a fetch `Headers`, or Node's `request.headers` (names in any case). */
export type WebhookHeaders = Headers | Readonly<Record<string, string | readonly string[] | undefined>>;

export interface VerifyWebhookOptions {
  /** How far `webhook-timestamp` may lie from `now`, either way, in seconds: replays of old deliveries are refused. */
  readonly toleranceSeconds?: number;
  /** The receiver's clock. */
  readonly now?: Date;
}

/**
 * Verifies a delivery as the Standard Webhooks specification signs it, and answers its typed event: `webhook-id`,
 * `webhook-timestamp` within `toleranceSeconds` of `now`, one `v1,` signature in `webhook-signature` that is the
 * HMAC-SHA256 of `id.timestamp.body` keyed with the secret's decoded bytes. `rawBody` must be the bytes received,
 * before
 * any parsing. Throws a WebhookVerificationError otherwise. Web Crypto only: Node >= 20, browsers, Deno, workers.
 * Deduplicate by `webhook-id`: a delivery may arrive more than once.
 */
export async function verifyWebhook(
  secret: string,
  headers: WebhookHeaders,
  rawBody: string | Uint8Array,
  { toleranceSeconds = 300, now = new Date() }: VerifyWebhookOptions = {},
): Promise<WebhookEvent & { readonly id: string }> {
  const id = headerOf(headers, 'webhook-id');
  const timestamp = headerOf(headers, 'webhook-timestamp');
  const signatures = headerOf(headers, 'webhook-signature');
  if (id === undefined || timestamp === undefined || signatures === undefined) {
    throw new WebhookVerificationError(
      'missing_headers',
      'webhook-id, webhook-timestamp and webhook-signature are required',
    );
  }
  if (!/^\d{1,15}$/.test(timestamp))
    throw new WebhookVerificationError('invalid_timestamp', 'webhook-timestamp is not a number of seconds');
  if (Math.abs(Math.floor(now.getTime() / 1000) - Number(timestamp)) > toleranceSeconds) {
    throw new WebhookVerificationError(
      'timestamp_out_of_tolerance',
      `webhook-timestamp is more than ${toleranceSeconds} s from now`,
    );
  }

  const body = typeof rawBody === 'string' ? new TextEncoder().encode(rawBody) : rawBody;
  const signed = concat(new TextEncoder().encode(`${id}.${timestamp}.`), body);
  const key = await crypto.subtle.importKey('raw', keyBytesOf(secret), { name: 'HMAC', hash: 'SHA-256' }, false, [
    'verify',
  ]);
  let verified = false;
  for (const candidate of signatures.split(' ')) {
    const [version, signature] = candidate.split(',', 2);
    const bytes = version === 'v1' && signature !== undefined ? base64Bytes(signature) : null;
    // subtle.verify compares in constant time.
    if (bytes !== null && (await crypto.subtle.verify('HMAC', key, bytes, signed))) verified = true;
  }
  if (!verified)
    throw new WebhookVerificationError('invalid_signature', 'no signature in webhook-signature matches the body');
  return { id, ...payloadOf(body) };
}

function headerOf(headers: WebhookHeaders, name: string): string | undefined {
  if (typeof (headers as Headers).get === 'function') return (headers as Headers).get(name) ?? undefined;
  const record = headers as Readonly<Record<string, string | readonly string[] | undefined>>;
  const key = Object.keys(record).find((candidate) => candidate.toLowerCase() === name);
  const value = key === undefined ? undefined : record[key];
  return typeof value === 'string' ? value : value?.[0];
}

function keyBytesOf(secret: string): Uint8Array<ArrayBuffer> {
  const bytes = base64Bytes(secret.startsWith('whsec_') ? secret.slice('whsec_'.length) : secret);
  if (bytes === null || bytes.length === 0)
    throw new WebhookVerificationError('invalid_secret', 'the secret is not whsec_ and base64');
  return bytes;
}

function base64Bytes(text: string): Uint8Array<ArrayBuffer> | null {
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(text) || text.length % 4 !== 0) return null;
  const binary = atob(text);
  return Uint8Array.from(binary, (char) => char.charCodeAt(0));
}

function concat(first: Uint8Array, second: Uint8Array): Uint8Array<ArrayBuffer> {
  const joined = new Uint8Array(first.length + second.length);
  joined.set(first);
  joined.set(second, first.length);
  return joined;
}

/** The event, after the signature held: the service's own JSON, checked only for the shape a receiver branches on. */
function payloadOf(body: Uint8Array): WebhookEvent {
  let parsed: unknown;
  try {
    parsed = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(body));
  } catch {
    throw new WebhookVerificationError('invalid_payload', 'the body is not JSON');
  }
  const event = parsed as Partial<WebhookEvent> | null;
  const known = (webhookEventNames as readonly unknown[]).includes(event?.type);
  if (!known || typeof event?.timestamp !== 'string' || typeof event.data !== 'object' || event.data === null) {
    throw new WebhookVerificationError('invalid_payload', 'the body is no event of the catalogue');
  }
  return event as WebhookEvent;
}
