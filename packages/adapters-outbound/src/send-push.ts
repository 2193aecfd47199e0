import type { IncomingMessage } from 'node:http';
import { drain } from './read-limited-body.js';
import webPush, { type RequestDetails } from 'web-push';
import { nonPublicRangeOf } from './address-policy.js';
import { FeedFetchError } from './feed-fetch-error.js';
import { checkedUrl } from './fetch-feed.js';
import { systemLookup, type HostLookup } from './guarded-lookup.js';
import { defaultPushTimeoutMs, pushEndpointProblem } from './push-endpoint.js';
import { networkError, requestOnce } from './request-once.js';

/** The application server's VAPID identity (RFC 8292): a P-256 key pair, base64url, and a `mailto:` or `https:` contact. */
export interface VapidIdentity {
  /** 65 bytes, uncompressed: what browsers are given as `applicationServerKey`. */
  readonly publicKey: string;
  /** 32 bytes. */
  readonly privateKey: string;
  readonly subject: string;
}

/** Where a message goes: a browser's subscription (the domain's PushSubscription has these fields, and more). */
export interface PushTarget {
  readonly endpoint: string;
  /** The browser's P-256 public key, 65 bytes uncompressed, base64url. */
  readonly p256dh: string;
  /** The 16-byte authentication secret, base64url. */
  readonly auth: string;
}

export interface PushMessage {
  /** The text encrypted for the browser (the domain's JSON payload). */
  readonly payload: string;
  /** How long the push service keeps it for an offline browser: the TTL header. */
  readonly ttlSeconds: number;
  /** Replaces an undelivered message of the same topic (RFC 8030 §5.4): at most 32 characters of base64url. */
  readonly topic: string;
}

/** What one attempt came to: the domain's PushSendOutcome. */
export interface PushSendResult {
  /** The push service's status, whatever it is; null: no answer (refused address, timeout, connection error). */
  readonly status: number | null;
  /** A 429's or 503's Retry-After (seconds or an HTTP date), in milliseconds. */
  readonly retryAfterMs?: number;
  /** Short, without the service's body or any address: `HTTP 410`, `no answer within 10000 ms`. */
  readonly error?: string;
}

/** The domain's PushSender port, structurally (this package does not depend on the domain). */
export interface WebPushSender {
  send(target: PushTarget, message: PushMessage): Promise<PushSendResult>;
}

export interface PushSenderOptions {
  readonly vapid: VapidIdentity;
  /** Lets endpoints on loopback, private and other non-public addresses, and `http:` ones, be reached (OUTBOUND_ALLOW_PRIVATE_NETWORKS=1). */
  readonly allowPrivateNetworks?: boolean;
  /** For the whole attempt: connection, request, the answer's headers and the part of its body that is read. */
  readonly timeoutMs?: number;
  /** Bytes of the answer's body read (and dropped) before the connection is closed. */
  readonly maxResponseBytes?: number;
  readonly userAgent?: string;
  /** The instant a Retry-After date is counted from (time is a port). */
  readonly now?: () => Date;
  readonly lookup?: HostLookup;
}

type Settings = Required<Omit<PushSenderOptions, 'vapid'>>;

const defaults: Settings = {
  allowPrivateNetworks: false,
  timeoutMs: defaultPushTimeoutMs,
  maxResponseBytes: 4096,
  userAgent: 'canteen-meals-push/0.1 (+https://github.com/canteen-meals/meals)',
  now: () => new Date(),
  lookup: systemLookup,
};

/**
 * Sends Web Push messages (RFC 8030): web-push encrypts the payload (aes128gcm, RFC 8291) and writes the VAPID
 * Authorization (RFC 8292); the request goes out through this package's own client, once, under the outbound address
 * rule (no private address unless allowed, checked on every connection's addresses), within the timeout, with no
 * redirect followed and at most `maxResponseBytes` of the answer read. Never throws for what the network, the push
 * service or a subscription does: every status is an outcome, no answer is status null. Throws at creation on a VAPID
 * identity web-push refuses (a configuration error).
 */
export function createPushSender(options: PushSenderOptions): WebPushSender {
  const { vapid, ...rest } = options;
  const given = Object.fromEntries(
    Object.entries(rest).filter(([, value]) => value !== undefined),
  ) as Partial<Settings>;
  const settings: Settings = { ...defaults, ...given };
  const vapidDetails = { subject: vapid.subject, publicKey: vapid.publicKey, privateKey: vapid.privateKey };
  // The same checks web-push makes on each message (subject, key lengths, base64url), once, at start.
  webPush.getVapidHeaders(
    'https://push.invalid',
    vapidDetails.subject,
    vapidDetails.publicKey,
    vapidDetails.privateKey,
    'aes128gcm',
  );

  return {
    send: async (subscription, message): Promise<PushSendResult> => {
      const problem = pushEndpointProblem(subscription.endpoint, {
        allowPrivateNetworks: settings.allowPrivateNetworks,
      });
      if (problem !== undefined) return { status: null, error: `the endpoint ${problem}` };
      let details: RequestDetails;
      try {
        details = webPush.generateRequestDetails(
          { endpoint: subscription.endpoint, keys: { p256dh: subscription.p256dh, auth: subscription.auth } },
          message.payload,
          {
            vapidDetails,
            TTL: message.ttlSeconds,
            urgency: 'normal',
            topic: message.topic,
            contentEncoding: 'aes128gcm',
          },
        );
      } catch (error) {
        // A subscription key that is no point of the curve, a topic out of its alphabet: nothing was sent.
        return {
          status: null,
          error: `the message could not be prepared: ${error instanceof Error ? error.message : String(error)}`,
        };
      }
      return post(settings, details);
    },
  };
}

/** A new VAPID key pair (base64url: a 65-byte public key, a 32-byte private key), web-push's. */
export function generateVapidKeys(): { publicKey: string; privateKey: string } {
  const { publicKey, privateKey } = webPush.generateVAPIDKeys();
  return { publicKey, privateKey };
}

async function post(settings: Settings, details: RequestDetails): Promise<PushSendResult> {
  const controller = new AbortController();
  const abort = (reason: FeedFetchError) => controller.abort(reason);
  let response: IncomingMessage | null = null;
  const deadline = setTimeout(
    () => abort(new FeedFetchError('timeout', details.endpoint, `no answer within ${settings.timeoutMs} ms`)),
    settings.timeoutMs,
  );
  try {
    const url = checkedUrl(details.endpoint);
    const headers: Record<string, string> = { 'user-agent': settings.userAgent };
    for (const [name, value] of Object.entries(details.headers)) headers[name.toLowerCase()] = String(value);
    response = await requestOnce({
      url,
      method: 'POST',
      ...(details.body === null ? {} : { body: details.body }),
      headers,
      lookup: settings.lookup,
      policy: settings.allowPrivateNetworks ? null : nonPublicRangeOf,
      connectTimeoutMs: settings.timeoutMs,
      signal: controller.signal,
      abort,
    });
    const status = response.statusCode ?? 0;
    const retryAfter =
      status === 429 || status === 503 ? retryAfterMs(response.headers['retry-after'], settings.now()) : undefined;
    await drain(response, settings.maxResponseBytes);
    if (status >= 200 && status <= 299) return { status };
    const redirect = status >= 300 && status <= 399 ? ' (redirects are not followed)' : '';
    return {
      status,
      ...(retryAfter === undefined ? {} : { retryAfterMs: retryAfter }),
      error: `HTTP ${status}${redirect}`,
    };
  } catch (error) {
    response?.destroy();
    const failure = controller.signal.aborted ? controller.signal.reason : error;
    if (failure instanceof FeedFetchError) return { status: null, error: failure.reason };
    // Anything else the socket throws, by its code only (Node's messages name addresses).
    return { status: null, error: networkError(details.endpoint, failure).reason };
  } finally {
    clearTimeout(deadline);
  }
}

/**
 * A Retry-After header in milliseconds from `now`: delay-seconds or an HTTP date (RFC 9110 §10.2.3); a date past is 0,
 * anything else undefined.
 */
export function retryAfterMs(value: string | undefined, now: Date): number | undefined {
  const text = value?.trim();
  if (text === undefined || text === '') return undefined;
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  // Every HTTP-date form (IMF-fixdate, RFC 850, asctime) starts with the day's name; Date.parse alone takes far more.
  const at = /^[A-Za-z]{3}/.test(text) ? Date.parse(text) : Number.NaN;
  return Number.isNaN(at) ? undefined : Math.max(0, at - now.getTime());
}
