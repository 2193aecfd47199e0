import type { UserId } from '../shared/user-id.js';

/** A browser's push subscription (RFC 8030): where to send, and the keys the message is encrypted for (RFC 8291). */
export interface PushSubscription {
  readonly id: string;
  readonly userId: UserId;
  /** The push service's URL for this browser. */
  readonly endpoint: string;
  /** The browser's P-256 public key: 65 bytes, uncompressed, base64url. */
  readonly p256dh: string;
  /** The shared authentication secret: 16 bytes, base64url. */
  readonly auth: string;
  /** When the push service ends the subscription, as the browser said; null: not said. */
  readonly expirationTime: Date | null;
  readonly createdAt: Date;
}

/** What a browser hands over (`PushSubscription.toJSON()`), before it has an id. */
export type NewPushSubscription = Omit<PushSubscription, 'id' | 'createdAt'>;

/** A person keeps at most this many subscriptions (browsers, devices); a new one past it replaces the oldest. */
export const maxPushSubscriptionsPerPerson = 10;
/** Longer endpoints are refused (push services use a few hundred characters). */
export const maxPushEndpointLength = 2048;

const base64urlAlphabet = /^[A-Za-z0-9_-]*$/;

/** The bytes of unpadded (or padded) base64url text, or undefined when it is not base64url. Pure: no platform API. */
export function base64urlBytes(text: string): Uint8Array | undefined {
  const unpadded = text.replace(/=+$/, '');
  if (!base64urlAlphabet.test(unpadded) || unpadded.length % 4 === 1) return undefined;
  const values = [...unpadded].map((character) => {
    const code = character.charCodeAt(0);
    if (code >= 65 && code <= 90) return code - 65;
    if (code >= 97 && code <= 122) return code - 71;
    if (code >= 48 && code <= 57) return code + 4;
    return character === '-' ? 62 : 63;
  });
  const bytes: number[] = [];
  for (let index = 0; index < values.length; index += 4) {
    const [a = 0, b = 0, c = 0, d = 0] = values.slice(index, index + 4);
    const triple = (a << 18) | (b << 12) | (c << 6) | d;
    const count = Math.min(3, values.length - index - 1);
    for (let byte = 0; byte < count; byte += 1) bytes.push((triple >> (16 - 8 * byte)) & 0xff);
  }
  return Uint8Array.from(bytes);
}

/** A field of a subscription and what is wrong with it. */
export interface PushSubscriptionProblem {
  readonly field: 'endpoint' | 'keys.p256dh' | 'keys.auth' | 'expirationTime';
  readonly message: string;
}

/**
 * What is wrong with a subscription's keys and endpoint's shape (undefined: nothing). `endpointCheck` is the outbound
 * address rule of the adapters (an `https:` URL, `http:` only where private networks are allowed, no private address).
 */
export function pushSubscriptionProblem(
  subscription: Pick<NewPushSubscription, 'endpoint' | 'p256dh' | 'auth'>,
  endpointCheck: (url: string) => string | undefined,
): PushSubscriptionProblem | undefined {
  if (subscription.endpoint.length > maxPushEndpointLength) {
    return { field: 'endpoint', message: `endpoint must be at most ${maxPushEndpointLength} characters` };
  }
  const endpointProblem = endpointCheck(subscription.endpoint);
  if (endpointProblem !== undefined) return { field: 'endpoint', message: `endpoint ${endpointProblem}` };
  const key = base64urlBytes(subscription.p256dh);
  if (key === undefined || key.length !== 65 || key[0] !== 0x04) {
    return { field: 'keys.p256dh', message: 'keys.p256dh must be a 65-byte uncompressed P-256 public key, base64url' };
  }
  const auth = base64urlBytes(subscription.auth);
  if (auth === undefined || auth.length !== 16)
    return { field: 'keys.auth', message: 'keys.auth must be 16 bytes, base64url' };
  return undefined;
}

/** The origin of an endpoint (`https://fcm.googleapis.com`): what a person's list shows, never the full URL. */
export function endpointOrigin(endpoint: string): string {
  return /^[a-z][a-z0-9+.-]*:\/\/[^/?#]+/i.exec(endpoint)?.[0].toLowerCase() ?? endpoint;
}
