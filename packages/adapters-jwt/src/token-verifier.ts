import { isBlankText, isUserId, userIdMaxLength } from '@canteen-meals/domain';
import { createVerifier, type VerifierOptions } from 'fast-jwt';
import type { Principal } from './principal.js';
import { grantsOfToken, scopesGrantedBy, splitCanteenSuffix, type RoleMapping } from './role-mapping.js';
import { VerifiedTokenCache } from './verified-token-cache.js';

/** What every verifier checks besides the signature. */
export interface ClaimOptions {
  readonly issuer?: string | undefined;
  readonly audience?: string | undefined;
  /** Leeway for exp and nbf, in milliseconds. */
  readonly clockToleranceMs?: number | undefined;
  /** The furthest a token's exp may lie ahead of now, in milliseconds (plus the leeway); none when undefined. */
  readonly maxLifetimeMs?: number | undefined;
  /** Milliseconds since the epoch, for the lifetime check and the verified-token cache; Date.now unless a test swaps it. */
  readonly now?: (() => number) | undefined;
  /** Scopes granted by the identity provider's roles, besides the `scope` claim; none when undefined. */
  readonly roleMapping?: RoleMapping | undefined;
  /**
   * Whether the token's own `scope` claim grants scopes (true unless false). False where the identity provider hands
   * out any scope a client asks for: then the roles alone decide (TOKEN_SCOPE_CLAIM=off).
   */
  readonly scopeClaim?: boolean | undefined;
}

export interface HmacTokenOptions extends ClaimOptions {
  /** HS256 shared secret, at least 32 bytes. */
  readonly secret: string;
}

/**
 * Turns a bearer token into a principal, or fails with an InvalidTokenError. A verifier with a fixed key
 * answers synchronously; one that may have to fetch keys (JWKS) answers with a promise.
 */
export type TokenVerifier = (token: string) => Principal | Promise<Principal>;

/** A verifier with a fixed key (HS256 secret, public key file): it never waits. */
export type SyncTokenVerifier = (token: string) => Principal;

export const minSecretBytes = 32;
export const maxSubjectLength = userIdMaxLength;

export function createHmacTokenVerifier(options: HmacTokenOptions): SyncTokenVerifier {
  if (Buffer.byteLength(options.secret) < minSecretBytes) {
    throw new Error(`the JWT secret must have at least ${minSecretBytes} bytes`);
  }
  const verify = createVerifier({
    ...claimVerifierOptions(options),
    cache: false,
    key: options.secret,
    algorithms: ['HS256'],
  });
  return principalVerifier(verify, options);
}

/**
 * Wraps a synchronous fast-jwt verifier (give it `cache: false`): any failure is invalid_token, a verified token goes
 * through principalOf, and its principal is remembered until the token expires (VerifiedTokenCache).
 */
export function principalVerifier(verify: (token: string) => unknown, options: ClaimOptions = {}): SyncTokenVerifier {
  const remembered = new VerifiedTokenCache({
    clockToleranceMs: options.clockToleranceMs,
    maxLifetimeMs: options.maxLifetimeMs,
    ...(options.now === undefined ? {} : { now: options.now }),
  });
  return (token) => {
    const known = remembered.get(token);
    if (known !== undefined) return known;
    let decoded: DecodedToken;
    try {
      decoded = verify(token) as DecodedToken;
    } catch {
      throw invalidToken('The token is not valid.');
    }
    const principal = principalOf(decoded.header, decoded.payload, options);
    // principalOf has checked that exp is a number.
    remembered.remember(token, principal, decoded.payload.exp as number);
    return principal;
  };
}

export interface DecodedToken {
  readonly header: Record<string, unknown>;
  readonly payload: Record<string, unknown>;
}

/** The fast-jwt options every verifier shares, whatever its key: required claims, issuer, audience, leeway. */
export function claimVerifierOptions(options: ClaimOptions) {
  return {
    complete: true,
    // fast-jwt checks iss and aud only when present: a configured one must also be required.
    requiredClaims: [
      'exp',
      'sub',
      ...(options.issuer === undefined ? [] : ['iss']),
      ...(options.audience === undefined ? [] : ['aud']),
    ],
    clockTolerance: options.clockToleranceMs ?? 0,
    cache: true,
    ...(options.issuer === undefined ? {} : { allowedIss: options.issuer }),
    ...(options.audience === undefined ? {} : { allowedAud: options.audience }),
  } satisfies Partial<VerifierOptions>;
}

/**
 * Checks the claims every verifier shares, whatever the key: a subject we can store and tell apart, an exp within the
 * maximum lifetime, and no unknown extension.
 */
export function principalOf(
  header: Record<string, unknown>,
  payload: Record<string, unknown>,
  options: Pick<ClaimOptions, 'clockToleranceMs' | 'maxLifetimeMs' | 'now' | 'roleMapping' | 'scopeClaim'> = {},
): Principal {
  // RFC 7515 §4.1.11: a recipient must reject a token whose critical extensions it does not understand (we know none).
  if (header.crit !== undefined) throw invalidToken('The token uses a critical extension this service does not know.');
  const { sub, scope } = payload;
  if (!isUserId(sub)) {
    throw invalidToken(
      `The token's sub must be a string of 1 to ${maxSubjectLength} characters, without NUL or unpaired surrogates.`,
    );
  }
  if (!isDistinguishableSubject(sub)) {
    throw invalidToken(
      "The token's sub must not be blank (only spaces or invisible characters) nor hold control characters.",
    );
  }
  if (typeof payload.exp !== 'number') throw invalidToken('The token has no numeric exp claim.');
  if (exceedsMaxLifetime(payload.exp, options)) {
    throw invalidToken(
      `The token's exp lies more than ${formatHours(options.maxLifetimeMs!)} hours ahead: ask for a shorter-lived token.`,
    );
  }
  const claimed =
    options.scopeClaim !== false && typeof scope === 'string' ? scope.split(' ').filter((s) => s.length > 0) : [];
  // `scopes` holds what counts at every canteen; `meals:kitchen@mensa-nord` counts at its canteen only (grants).
  const scopes = claimed.filter((each) => splitCanteenSuffix(each).canteenId === null);
  if (options.roleMapping !== undefined) scopes.push(...scopesGrantedBy(payload, options.roleMapping));
  return { userId: sub, scopes: new Set(scopes), grants: grantsOfToken(claimed, payload, options.roleMapping) };
}

// Unicode Cc: U+0000-U+001F and U+007F-U+009F.
const controlCharacter = /\p{Cc}/u;

/** A subject a person (and a log line) can tell apart: not blank, not invisible, no control characters. */
export function isDistinguishableSubject(sub: string): boolean {
  return !isBlankText(sub) && !controlCharacter.test(sub);
}

/** Whether exp (seconds) lies further ahead of now than the maximum lifetime plus the leeway allows. */
export function exceedsMaxLifetime(
  expSeconds: number,
  options: Pick<ClaimOptions, 'clockToleranceMs' | 'maxLifetimeMs' | 'now'>,
): boolean {
  if (options.maxLifetimeMs === undefined) return false;
  const now = (options.now ?? Date.now)();
  return expSeconds * 1000 - now > options.maxLifetimeMs + (options.clockToleranceMs ?? 0);
}

const formatHours = (ms: number) => String(Math.round((ms / 3_600_000) * 1000) / 1000);

/**
 * A bearer token we do not accept: the HTTP adapter answers it 401 `invalid_token` with these headers (the code and
 * the headers an HttpError would carry). A cause, when given, is a server-side reason worth logging.
 */
export class InvalidTokenError extends Error {
  override readonly name = 'InvalidTokenError';
  readonly code = 'invalid_token';
  readonly headers: Readonly<Record<string, string>> = { 'www-authenticate': 'Bearer error="invalid_token"' };

  get statusCode(): number {
    return 401;
  }
}

/** A 401 for a token we do not accept; a cause, when given, is a server-side reason worth logging. */
export function invalidToken(message: string, cause?: unknown): InvalidTokenError {
  return new InvalidTokenError(message, cause === undefined ? undefined : { cause });
}
