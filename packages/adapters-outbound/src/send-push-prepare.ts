import webPush from 'web-push';

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

/** A request ready to go: web-push's headers (lower case) and the encrypted body; or why none could be made. */
export type PreparedPush =
  | { readonly ok: true; readonly headers: Readonly<Record<string, string>>; readonly body: Uint8Array | null }
  | { readonly ok: false; readonly error: string };

/** How long a VAPID JWT is valid: web-push's default (RFC 8292 §2 allows at most 24 hours). */
export const vapidLifetimeS = 12 * 60 * 60;
/** A cached JWT is used until this long before its `exp`, then signed anew: a push service's clock may be ahead. */
export const vapidRenewBeforeS = 60 * 60;

/**
 * Prepares Web Push requests as web-push's generateRequestDetails does (aes128gcm encryption with the subscription's
 * keys, RFC 8291; TTL, Urgency, Topic), with the VAPID Authorization (RFC 8292, web-push's getVapidHeaders) signed once
 * per push service origin and reused until shortly before its `exp`: one ES256 signature and key import instead of one
 * per message. Pure CPU: what runs in the preparing threads (send-push-threads.ts), or in the caller's thread.
 * Throws at creation on a VAPID identity web-push refuses (a configuration error).
 */
export function createPushPreparer(vapid: VapidIdentity): (
  target: PushTarget,
  message: PushMessage,
  /** Milliseconds since the epoch: the JWT's `exp` is counted from it (time is the caller's port). */
  nowMs: number,
) => PreparedPush {
  // The same checks web-push makes on each message (subject, key lengths, base64url), once, at start.
  webPush.getVapidHeaders('https://push.invalid', vapid.subject, vapid.publicKey, vapid.privateKey, 'aes128gcm');
  const authorizations = new Map<string, { readonly value: string; readonly exp: number }>();

  const authorizationFor = (audience: string, nowS: number): string => {
    const cached = authorizations.get(audience);
    if (cached !== undefined && nowS < cached.exp - vapidRenewBeforeS && nowS >= cached.exp - vapidLifetimeS)
      return cached.value;
    const exp = nowS + vapidLifetimeS;
    const { Authorization } = webPush.getVapidHeaders(
      audience,
      vapid.subject,
      vapid.publicKey,
      vapid.privateKey,
      'aes128gcm',
      exp,
    );
    authorizations.set(audience, { value: Authorization, exp });
    return Authorization;
  };

  return (target, message, nowMs) => {
    try {
      const details = webPush.generateRequestDetails(
        { endpoint: target.endpoint, keys: { p256dh: target.p256dh, auth: target.auth } },
        message.payload,
        // No vapidDetails: the Authorization is the cached one below (web-push adds none without them).
        { TTL: message.ttlSeconds, urgency: 'normal', topic: message.topic, contentEncoding: 'aes128gcm' },
      );
      const headers: Record<string, string> = {};
      for (const [name, value] of Object.entries(details.headers)) headers[name.toLowerCase()] = String(value);
      headers.authorization = authorizationFor(new URL(target.endpoint).origin, Math.floor(nowMs / 1000));
      return { ok: true, headers, body: details.body };
    } catch (error) {
      // A subscription key that is no point of the curve, a topic out of its alphabet: nothing was sent.
      return {
        ok: false,
        error: `the message could not be prepared: ${error instanceof Error ? error.message : String(error)}`,
      };
    }
  };
}
