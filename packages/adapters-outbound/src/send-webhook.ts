import type { IncomingMessage } from 'node:http';
import { drain } from './read-limited-body.js';
import { nonPublicRangeOf, type AddressPolicy } from './address-policy.js';
import { FeedFetchError } from './feed-fetch-error.js';
import { checkedUrl } from './fetch-feed.js';
import { systemLookup, type HostLookup } from './guarded-lookup.js';
import { requestOnce } from './request-once.js';
import { signWebhook } from './webhook-signature.js';
import { defaultWebhookTimeoutMs } from './webhook-secret.js';

/** One event to one endpoint, as the Standard Webhooks specification sends it. */
export interface WebhookMessage {
  readonly url: string;
  /** The event's id: the `webhook-id` header, the same on every retry. */
  readonly id: string;
  /** The JSON body, sent and signed byte for byte. */
  readonly body: string;
  /** `whsec_` and the base64 of the key. */
  readonly secret: string;
}

export interface SendWebhookOptions {
  /**
   * Lets endpoints on loopback, private and other non-public addresses be reached (OUTBOUND_ALLOW_PRIVATE_NETWORKS=1).
   */
  readonly allowPrivateNetworks?: boolean;
  /** For the whole attempt: connection, request, the answer's headers and the part of its body that is read. */
  readonly timeoutMs?: number;
  /** Bytes of the answer's body read (and dropped) before the connection is closed. */
  readonly maxResponseBytes?: number;
  readonly userAgent?: string;
  /** The instant of the attempt: the `webhook-timestamp` header (time is a port). */
  readonly now?: () => Date;
  readonly lookup?: HostLookup;
}

/** What one attempt came to: a 2xx, or a short reason (never the receiver's body, never an address). */
export type WebhookSendResult =
  | { readonly delivered: true; readonly status: number }
  /** `timedOut`: the attempt took the whole timeout (the receiver hangs), which the worker backs off from. */
  | { readonly delivered: false; readonly status: number | null; readonly error: string; readonly timedOut?: boolean };

const defaults: Required<SendWebhookOptions> = {
  allowPrivateNetworks: false,
  timeoutMs: defaultWebhookTimeoutMs,
  maxResponseBytes: 4096,
  userAgent: 'canteen-meals-webhooks/0.1 (+https://github.com/canteen-meals/meals)',
  now: () => new Date(),
  lookup: systemLookup,
};

/**
 * POSTs one signed event, once: no retry (the caller's schedule retries), no redirect followed (a 3xx is a failure,
 * so a receiver cannot send the event, and its signature, elsewhere), and only to public addresses unless allowed.
 * Never throws for what the network or the receiver does.
 */
export function sendWebhook(message: WebhookMessage, options: SendWebhookOptions = {}): Promise<WebhookSendResult> {
  return sendWebhookUnder(nonPublicRangeOf, message, options);
}

/** sendWebhook under another address policy: the tests' way to let a local receiver pass for a public host. */
export async function sendWebhookUnder(
  policy: AddressPolicy,
  message: WebhookMessage,
  options: SendWebhookOptions,
): Promise<WebhookSendResult> {
  const given = Object.fromEntries(
    Object.entries(options).filter(([, value]) => value !== undefined),
  ) as SendWebhookOptions;
  const settings: Required<SendWebhookOptions> = { ...defaults, ...given };
  const controller = new AbortController();
  const abort = (reason: FeedFetchError) => controller.abort(reason);
  let response: IncomingMessage | null = null;
  const deadline = setTimeout(
    () => abort(new FeedFetchError('timeout', message.url, `no answer within ${settings.timeoutMs} ms`)),
    settings.timeoutMs,
  );
  try {
    const url = checkedUrl(message.url);
    const body = Buffer.from(message.body, 'utf8');
    response = await requestOnce({
      url,
      method: 'POST',
      body,
      headers: {
        'user-agent': settings.userAgent,
        'content-type': 'application/json',
        'content-length': String(body.length),
        ...signWebhook(message, settings.now()),
      },
      lookup: settings.lookup,
      policy: settings.allowPrivateNetworks ? null : policy,
      connectTimeoutMs: settings.timeoutMs,
      signal: controller.signal,
      abort,
    });
    const status = response.statusCode ?? 0;
    await drain(response, settings.maxResponseBytes);
    if (status >= 200 && status <= 299) return { delivered: true, status };
    const redirect = status >= 300 && status <= 399 ? ' (redirects are not followed)' : '';
    return { delivered: false, status, error: `HTTP ${status}${redirect}` };
  } catch (error) {
    response?.destroy();
    const failure = controller.signal.aborted ? controller.signal.reason : error;
    if (failure instanceof FeedFetchError) {
      return {
        delivered: false,
        status: null,
        error: failure.reason,
        ...(failure.kind === 'timeout' ? { timedOut: true } : {}),
      };
    }
    throw failure;
  } finally {
    clearTimeout(deadline);
  }
}
