import { Agent as HttpAgent, type IncomingMessage } from 'node:http';
import { Agent as HttpsAgent } from 'node:https';
import webPush from 'web-push';
import { drain } from './read-limited-body.js';
import { nonPublicRangeOf } from './address-policy.js';
import { FeedFetchError } from './feed-fetch-error.js';
import { checkedUrl } from './fetch-feed.js';
import { systemLookup, type HostLookup } from './guarded-lookup.js';
import { defaultPushTimeoutMs, pushEndpointProblem } from './push-endpoint.js';
import { networkError, requestOnce } from './request-once.js';

import { createPushPreparer, type PushMessage, type PushTarget, type VapidIdentity } from './send-push-prepare.js';
import { preparingThreads, sendingThreads, type PushPreparing, type PushSending } from './send-push-threads.js';

export type { PushMessage, PushTarget, VapidIdentity } from './send-push-prepare.js';

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
  /** The instant a Retry-After date and the VAPID JWT's `exp` are counted from (time is a port). */
  readonly now?: () => Date;
  readonly lookup?: HostLookup;
  /**
   * Worker threads that prepare the requests (encryption and VAPID) and send them, each with its own kept connections
   * (sendingThreads); with a `lookup` of its own, they only prepare them (preparingThreads) and the caller's thread
   * sends. 0: all in the caller's thread, the default.
   */
  readonly preparingThreads?: number;
  /** Connections kept open to each push service between messages (keep-alive); 0: a new connection per message. */
  readonly keptConnections?: number;
}

type Settings = Required<Omit<PushSenderOptions, 'vapid'>>;

const defaults: Settings = {
  allowPrivateNetworks: false,
  timeoutMs: defaultPushTimeoutMs,
  maxResponseBytes: 4096,
  userAgent: 'canteen-meals-push/0.1 (+https://github.com/canteen-meals/meals)',
  now: () => new Date(),
  lookup: systemLookup,
  preparingThreads: 0,
  keptConnections: 0,
};

/** A push sender that holds threads and connections: `warm` starts the threads ahead of the first message, `close` ends them. */
export interface ClosablePushSender extends WebPushSender {
  warm(): void;
  close(): Promise<void>;
}

/**
 * Sends Web Push messages (RFC 8030): web-push encrypts the payload (aes128gcm, RFC 8291) and writes the VAPID
 * Authorization (RFC 8292, one JWT per push service reused until shortly before its `exp`), in worker threads when
 * asked (createPushPreparer, preparingThreads); the request goes out through this package's own client, once, under
 * the outbound address rule (no private address unless allowed, checked on every connection's addresses when it is
 * made), within the timeout, with no redirect followed and at most `maxResponseBytes` of the answer read. Never throws
 * for what the network, the push service or a subscription does: every status is an outcome, no answer is status null.
 * Throws at creation on a VAPID identity web-push refuses (a configuration error).
 */
export function createPushSender(options: PushSenderOptions): ClosablePushSender {
  const { vapid, ...rest } = options;
  const given = Object.fromEntries(
    Object.entries(rest).filter(([, value]) => value !== undefined),
  ) as Partial<Settings>;
  const settings: Settings = { ...defaults, ...given };
  // Checks the identity as web-push does, at once, in this thread (a configuration error throws here).
  const prepareHere = createPushPreparer(vapid);
  // Threads send with the system's lookup (no function crosses to a thread): given one of its own, a sender has its
  // requests prepared in threads and sends them from the caller's.
  const threads = settings.preparingThreads > 0;
  const sending: PushSending | undefined =
    threads && options.lookup === undefined
      ? sendingThreads(
          vapid,
          {
            allowPrivateNetworks: settings.allowPrivateNetworks,
            timeoutMs: settings.timeoutMs,
            maxResponseBytes: settings.maxResponseBytes,
            userAgent: settings.userAgent,
            keptConnections: settings.keptConnections,
          },
          { threads: settings.preparingThreads },
        )
      : undefined;
  const preparing: PushPreparing =
    threads && sending === undefined
      ? preparingThreads(vapid, { threads: settings.preparingThreads })
      : { prepare: async (...args) => prepareHere(...args), warm: () => {}, close: async () => {} };
  const agents = sending === undefined ? keptConnectionAgents(settings) : undefined;

  return {
    send: async (subscription, message): Promise<PushSendResult> => {
      const problem = pushEndpointProblem(subscription.endpoint, {
        allowPrivateNetworks: settings.allowPrivateNetworks,
      });
      if (problem !== undefined) return { status: null, error: `the endpoint ${problem}` };
      if (sending !== undefined) return sending.send(subscription, message, settings.now().getTime());
      const prepared = await preparing.prepare(subscription, message, settings.now().getTime());
      if (!prepared.ok) return { status: null, error: prepared.error };
      return post(settings, agents, subscription.endpoint, prepared.headers, prepared.body);
    },
    warm: () => {
      preparing.warm();
      sending?.warm();
    },
    close: async () => {
      agents?.http.destroy();
      agents?.https.destroy();
      await Promise.all([preparing.close(), sending?.close()]);
    },
  };
}

/** How long a kept connection may stay idle. */
const keptConnectionIdleMs = 4_000;

interface Agents {
  readonly http: HttpAgent;
  readonly https: HttpsAgent;
}

/**
 * Keep-alive agents of this sender: a connection is made (and its addresses checked by the guarded lookup, under this
 * sender's one rule) once and carries many messages to the same push service, instead of a connection (and a TLS
 * handshake) per message. undefined: a connection per message.
 */
function keptConnectionAgents(settings: Settings): Agents | undefined {
  if (settings.keptConnections <= 0) return undefined;
  const options = {
    keepAlive: true,
    maxFreeSockets: settings.keptConnections,
    // An idle connection is closed after this, before servers' usual 5 s (Node's own, without a Keep-Alive hint): a
    // message never goes out on a connection the push service is closing.
    timeout: keptConnectionIdleMs,
    scheduling: 'lifo' as const,
  };
  return { http: new HttpAgent(options), https: new HttpsAgent(options) };
}

/** A new VAPID key pair (base64url: a 65-byte public key, a 32-byte private key), web-push's. */
export function generateVapidKeys(): { publicKey: string; privateKey: string } {
  const { publicKey, privateKey } = webPush.generateVAPIDKeys();
  return { publicKey, privateKey };
}

async function post(
  settings: Settings,
  agents: Agents | undefined,
  endpoint: string,
  preparedHeaders: Readonly<Record<string, string>>,
  body: Uint8Array | null,
): Promise<PushSendResult> {
  const controller = new AbortController();
  const abort = (reason: FeedFetchError) => controller.abort(reason);
  let response: IncomingMessage | null = null;
  const deadline = setTimeout(
    () => abort(new FeedFetchError('timeout', endpoint, `no answer within ${settings.timeoutMs} ms`)),
    settings.timeoutMs,
  );
  try {
    const url = checkedUrl(endpoint);
    const headers: Record<string, string> = { 'user-agent': settings.userAgent, ...preparedHeaders };
    response = await requestOnce({
      url,
      method: 'POST',
      ...(body === null ? {} : { body: Buffer.from(body.buffer, body.byteOffset, body.byteLength) }),
      ...(agents === undefined ? {} : { agent: url.protocol === 'https:' ? agents.https : agents.http }),
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
    return { status: null, error: networkError(endpoint, failure).reason };
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
