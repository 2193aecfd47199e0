/// <reference path="./http-ece.d.ts" />
import { createECDH, createPublicKey, randomBytes, randomUUID, verify, type ECDH } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { decrypt } from 'http_ece';

export interface TestPushOptions {
  /** The VAPID `sub` every message must carry (a `mailto:` or `https:` URL); default: any `mailto:` or `https:` one. */
  readonly subject?: string;
  /** The application server's VAPID public key (base64url) every message must be signed with; default: any. */
  readonly vapidPublicKey?: string;
  /**
   * Bodies longer than this are refused with 413, as push services do; default 4096 bytes (RFC 8030 §7.2's minimum).
   */
  readonly maxBodyBytes?: number;
  /** The service's clock, for the VAPID `exp` check; default: the system's. */
  readonly now?: () => Date;
}

/** A browser's subscription as `PushSubscription.toJSON()` gives it: what a page sends the server. */
export interface TestPushSubscription {
  /** `http://127.0.0.1:<port>/push/<id>` */
  readonly endpoint: string;
  readonly keys: {
    /** The browser's P-256 public key, 65 bytes uncompressed, base64url. */
    readonly p256dh: string;
    /** 16 random bytes, base64url. */
    readonly auth: string;
  };
  readonly expirationTime: null;
}

/** A message the service accepted: VAPID valid, headers valid, the body decrypted with the subscription's keys. */
export interface ReceivedPush {
  readonly endpoint: string;
  readonly subscriptionId: string;
  /** The decrypted text parsed as JSON; undefined when it is no JSON. */
  readonly payload: unknown;
  /** The decrypted text. */
  readonly text: string;
  readonly ttl: number;
  /** The Urgency header; null when absent (RFC 8030 §5.3: normal). */
  readonly urgency: string | null;
  readonly topic: string | null;
  readonly vapidSub: string;
  readonly vapidAud: string;
  /** The JWT's `exp`, seconds since the epoch. */
  readonly vapidExp: number;
  /** The `k` of the Authorization header: the application server's public key, base64url. */
  readonly vapidPublicKey: string;
  readonly receivedAt: Date;
}

/** A message the service refused: 400 (headers, body), 401 (VAPID), 404 (no such subscription), 413 (too large). */
export interface RejectedPush {
  readonly endpoint: string;
  readonly subscriptionId: string;
  readonly status: number;
  readonly reason: string;
  readonly receivedAt: Date;
}

/** Every request, in order, with the status it was answered with (null: never answered, it hung). */
export interface PushRequestRecord {
  readonly endpoint: string;
  readonly subscriptionId: string;
  readonly status: number | null;
  readonly receivedAt: Date;
}

export interface TestPushService {
  /** `http://127.0.0.1:<port>`: every endpoint's origin, and so the VAPID `aud` expected. */
  readonly origin: string;
  /** A new subscription, as a browser makes one: a P-256 key pair and an authentication secret of its own. */
  newSubscription(): TestPushSubscription;
  /**
   * The next answers to an endpoint (its URL or its id), one per request, in order: `410` once, `[500, 201]`. A 2xx
   * still checks and decrypts the message (and refuses a bad one); any other status is answered without a look at the
   * request. After the script, the service answers as usual (201).
   */
  respondWith(
    endpointOrId: string,
    statuses: number | readonly number[],
    headers?: Readonly<Record<string, string>>,
  ): void;
  /**
   * Waits this long before each later answer to the endpoint; `'forever'`: never answers (until close); 0: no delay.
   */
  delay(endpointOrId: string, delay: number | 'forever'): void;
  /** Ends the subscription, as a browser that unsubscribed: every later message to it is answered 410 Gone. */
  unsubscribe(endpointOrId: string): void;
  readonly received: readonly ReceivedPush[];
  readonly rejected: readonly RejectedPush[];
  readonly requests: readonly PushRequestRecord[];
  /** Forgets what was received, rejected and requested (subscriptions, scripts and delays stay). */
  clearRecords(): void;
  /** Stops the server, ending any request still waiting. */
  close(): Promise<void>;
}

interface Subscriber {
  readonly id: string;
  readonly endpoint: string;
  readonly keys: ECDH;
  readonly auth: Buffer;
  readonly script: { status: number; headers: Readonly<Record<string, string>> }[];
  delay: number | 'forever';
  gone: boolean;
}

/** A refusal: its status and reason. */
class Refusal extends Error {
  constructor(
    readonly status: number,
    reason: string,
  ) {
    super(reason);
  }
}

const maxVapidLifetimeS = 24 * 60 * 60;
const urgencies = ['very-low', 'low', 'normal', 'high'];
const base64url = /^[A-Za-z0-9_-]+$/;

/**
 * A Web Push service (RFC 8030) on a free port of 127.0.0.1, for tests: it hands out subscriptions as a browser would
 * make them, checks each message's VAPID authorization (RFC 8292: an ES256 JWT by the `k` key, for this origin, at
 * most 24 h ahead) and headers (TTL, Urgency, Topic, Content-Encoding: aes128gcm), decrypts its body with the
 * subscription's keys (RFC 8291, through http_ece) and answers 201; or answers what a test scripts.
 */
export async function startTestPushService(options: TestPushOptions = {}): Promise<TestPushService> {
  const now = options.now ?? (() => new Date());
  const maxBodyBytes = options.maxBodyBytes ?? 4096;
  const subscribers = new Map<string, Subscriber>();
  const received: ReceivedPush[] = [];
  const rejected: RejectedPush[] = [];
  const requests: PushRequestRecord[] = [];
  const sockets = new Set<Socket>();
  const waits = new Set<() => void>();
  let origin = '';

  const subscriberOf = (endpointOrId: string): Subscriber => {
    const id = endpointOrId.startsWith(`${origin}/push/`) ? endpointOrId.slice(`${origin}/push/`.length) : endpointOrId;
    const subscriber = subscribers.get(id);
    if (subscriber === undefined) throw new Error(`no subscription ${endpointOrId} at the test push service`);
    return subscriber;
  };

  const handle = async (request: IncomingMessage, response: ServerResponse): Promise<void> => {
    const receivedAt = now();
    const id = /^\/push\/([^/?#]+)$/.exec(request.url ?? '')?.[1] ?? '';
    const endpoint = `${origin}/push/${id}`;
    const record = { endpoint, subscriptionId: id, receivedAt };
    const body = await readBody(request, maxBodyBytes);
    const subscriber = subscribers.get(id);
    const answer = (status: number, headers: Readonly<Record<string, string>> = {}) => {
      requests.push({ ...record, status });
      response.writeHead(status, headers).end();
    };
    const refuse = (refusal: Refusal) => {
      rejected.push({ ...record, status: refusal.status, reason: refusal.message });
      answer(refusal.status, { 'content-type': 'text/plain' });
    };

    if (request.method !== 'POST') return answer(405, { allow: 'POST' });
    if (subscriber === undefined) return refuse(new Refusal(404, 'no such subscription'));
    if (subscriber.delay === 'forever') {
      requests.push({ ...record, status: null });
      return new Promise((resolve) => waits.add(resolve));
    }
    if (subscriber.delay > 0) await pause(subscriber.delay, waits);
    if (subscriber.gone) return refuse(new Refusal(410, 'the subscription ended'));
    const scripted = subscriber.script.shift();
    if (scripted !== undefined && (scripted.status < 200 || scripted.status > 299))
      return answer(scripted.status, scripted.headers);
    if (body === 'too large') return refuse(new Refusal(413, `the body is larger than ${maxBodyBytes} bytes`));
    try {
      const vapid = checkVapid(request.headers.authorization, origin, options, now());
      const headers = checkHeaders(request.headers);
      let text: string;
      try {
        text = decrypt(body, {
          version: 'aes128gcm',
          privateKey: subscriber.keys,
          authSecret: subscriber.auth,
        }).toString('utf8');
      } catch (error) {
        throw new Refusal(
          400,
          `the body could not be decrypted (${error instanceof Error ? error.message : String(error)})`,
        );
      }
      received.push({ ...record, payload: jsonOrUndefined(text), text, ...headers, ...vapid });
      answer(scripted?.status ?? 201, { location: `${origin}/message/${randomUUID()}`, ...scripted?.headers });
    } catch (error) {
      if (!(error instanceof Refusal)) throw error;
      refuse(error);
    }
  };

  const server = createServer((request, response) => {
    handle(request, response).catch((error: unknown) => {
      if (!response.headersSent) response.writeHead(500).end(String(error));
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    origin,
    newSubscription() {
      const id = randomBytes(16).toString('base64url');
      const keys = createECDH('prime256v1');
      keys.generateKeys();
      const auth = randomBytes(16);
      const endpoint = `${origin}/push/${id}`;
      subscribers.set(id, { id, endpoint, keys, auth, script: [], delay: 0, gone: false });
      return {
        endpoint,
        keys: { p256dh: keys.getPublicKey().toString('base64url'), auth: auth.toString('base64url') },
        expirationTime: null,
      };
    },
    respondWith(endpointOrId, statuses, headers = {}) {
      const script = subscriberOf(endpointOrId).script;
      for (const status of typeof statuses === 'number' ? [statuses] : statuses) script.push({ status, headers });
    },
    delay(endpointOrId, delay) {
      subscriberOf(endpointOrId).delay = delay;
    },
    unsubscribe(endpointOrId) {
      subscriberOf(endpointOrId).gone = true;
    },
    received,
    rejected,
    requests,
    clearRecords() {
      received.length = 0;
      rejected.length = 0;
      requests.length = 0;
    },
    async close() {
      for (const wake of waits) wake();
      waits.clear();
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve, reject) => server.close((error) => (error ? reject(error) : resolve())));
    },
  };
}

/** The body, or 'too large' once it passes the limit (the rest is read and dropped, so the answer can be sent). */
async function readBody(request: IncomingMessage, maxBytes: number): Promise<Buffer | 'too large'> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size <= maxBytes) chunks.push(chunk);
  }
  return size > maxBytes ? 'too large' : Buffer.concat(chunks, size);
}

/** Waits `ms`, or less when the service closes. */
function pause(ms: number, waits: Set<() => void>): Promise<void> {
  return new Promise((resolve) => {
    const wake = () => {
      clearTimeout(timer);
      waits.delete(wake);
      resolve();
    };
    const timer = setTimeout(wake, ms);
    waits.add(wake);
  });
}

/** Tokens (with their `k`) whose signature verified: the latest few hundred. */
const verifiedTokens = new Set<string>();
const rememberedTokens = 256;

function remember(set: Set<string>, value: string): void {
  set.add(value);
  if (set.size > rememberedTokens) set.delete(set.values().next().value!);
}

/** RFC 8292: `vapid t=<JWT>, k=<public key>`; the JWT ES256 by that key, `aud` the origin, `exp` within 24 h, `sub`. */
function checkVapid(
  authorization: string | undefined,
  origin: string,
  options: TestPushOptions,
  at: Date,
): Pick<ReceivedPush, 'vapidSub' | 'vapidAud' | 'vapidExp' | 'vapidPublicKey'> {
  const refuse = (reason: string) => new Refusal(401, `VAPID: ${reason}`);
  const scheme = /^vapid\s+(.*)$/i.exec(authorization ?? '');
  if (scheme === null) throw refuse('no Authorization of the vapid scheme');
  const parameters = new Map(
    scheme[1]!.split(',').map((part) => {
      const [name = '', ...value] = part.trim().split('=');
      return [name.trim().toLowerCase(), value.join('=').trim()] as const;
    }),
  );
  const token = parameters.get('t');
  const key = parameters.get('k');
  if (!token || !key) throw refuse('the Authorization lacks t= or k=');
  const publicKey = base64url.test(key) ? Buffer.from(key, 'base64url') : Buffer.alloc(0);
  if (publicKey.length !== 65 || publicKey[0] !== 0x04) throw refuse('k is no uncompressed P-256 key');
  if (options.vapidPublicKey !== undefined && key !== options.vapidPublicKey) throw refuse('k is not the expected key');

  const [header = '', payload = '', signature = '', ...extra] = token.split('.');
  if (extra.length > 0 || ![header, payload, signature].every((part) => base64url.test(part)))
    throw refuse('t is no JWT');
  const jwtHeader = jsonOrUndefined(Buffer.from(header, 'base64url').toString('utf8')) as { alg?: unknown } | undefined;
  if (jwtHeader?.alg !== 'ES256') throw refuse('the JWT is not ES256');
  // A token once verified by a key is the same signature again: checked once (as a push service may cache it), its
  // claims below on every message.
  const signed = `${key} ${token}`;
  let valid = verifiedTokens.has(signed);
  if (!valid) {
    try {
      const verifier = createPublicKey({
        key: {
          kty: 'EC',
          crv: 'P-256',
          x: publicKey.subarray(1, 33).toString('base64url'),
          y: publicKey.subarray(33).toString('base64url'),
        },
        format: 'jwk',
      });
      valid = verify(
        'sha256',
        Buffer.from(`${header}.${payload}`),
        { key: verifier, dsaEncoding: 'ieee-p1363' },
        Buffer.from(signature, 'base64url'),
      );
    } catch {
      valid = false;
    }
    if (valid) remember(verifiedTokens, signed);
  }
  if (!valid) throw refuse('the JWT signature is not valid for k');

  const claims = jsonOrUndefined(Buffer.from(payload, 'base64url').toString('utf8')) as
    | Record<string, unknown>
    | undefined;
  const { aud, exp, sub } = claims ?? {};
  if (aud !== origin) throw refuse(`aud is ${JSON.stringify(aud)}, not the origin ${origin}`);
  const nowS = at.getTime() / 1000;
  if (typeof exp !== 'number' || !Number.isInteger(exp)) throw refuse('exp is missing');
  if (exp <= nowS) throw refuse('the JWT expired');
  if (exp > nowS + maxVapidLifetimeS) throw refuse('exp is more than 24 hours ahead');
  if (typeof sub !== 'string') throw refuse('sub is missing');
  if (options.subject !== undefined ? sub !== options.subject : !/^(mailto:|https:)/.test(sub)) {
    throw refuse(`sub is ${JSON.stringify(sub)}, not ${options.subject ?? 'a mailto: or https: URL'}`);
  }
  return { vapidSub: sub, vapidAud: aud, vapidExp: exp, vapidPublicKey: key };
}

/** RFC 8030's headers: TTL (required), Urgency and Topic (optional, checked), and RFC 8291's Content-Encoding. */
function checkHeaders(headers: IncomingMessage['headers']): Pick<ReceivedPush, 'ttl' | 'urgency' | 'topic'> {
  const refuse = (reason: string) => new Refusal(400, reason);
  const ttl = typeof headers.ttl === 'string' ? headers.ttl.trim() : '';
  if (!/^\d+$/.test(ttl)) throw refuse(`TTL must be a number of seconds, not ${JSON.stringify(headers.ttl ?? null)}`);
  const urgency = typeof headers.urgency === 'string' ? headers.urgency.trim() : null;
  if (urgency !== null && !urgencies.includes(urgency))
    throw refuse(`Urgency ${JSON.stringify(urgency)} is none of ${urgencies.join(', ')}`);
  const topic = typeof headers.topic === 'string' ? headers.topic.trim() : null;
  if (topic !== null && (topic.length > 32 || !base64url.test(topic)))
    throw refuse('Topic must be at most 32 characters of base64url');
  if (headers['content-encoding']?.trim().toLowerCase() !== 'aes128gcm') {
    throw refuse(`Content-Encoding must be aes128gcm, not ${JSON.stringify(headers['content-encoding'] ?? null)}`);
  }
  return { ttl: Number(ttl), urgency, topic };
}

function jsonOrUndefined(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}
