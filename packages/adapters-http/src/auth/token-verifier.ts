import { isUserId, userIdMaxLength } from '@meals/domain';
import { createVerifier, type VerifierOptions } from 'fast-jwt';
import { HttpError } from '../http-error.js';
import type { Principal } from './principal.js';

/** What every verifier checks besides the signature. */
export interface ClaimOptions {
  readonly issuer?: string | undefined;
  readonly audience?: string | undefined;
  /** Leeway for exp and nbf, in milliseconds. */
  readonly clockToleranceMs?: number | undefined;
}

export interface HmacTokenOptions extends ClaimOptions {
  /** HS256 shared secret, at least 32 bytes. */
  readonly secret: string;
}

/**
 * Turns a bearer token into a principal, or fails with HttpError('invalid_token'). A verifier with a fixed key
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
  return principalVerifier(createVerifier({ ...claimVerifierOptions(options), key: options.secret, algorithms: ['HS256'] }));
}

/** Wraps a synchronous fast-jwt verifier: any failure is invalid_token, a verified token goes through principalOf. */
export function principalVerifier(verify: (token: string) => unknown): SyncTokenVerifier {
  return (token) => {
    let decoded: DecodedToken;
    try {
      decoded = verify(token) as DecodedToken;
    } catch {
      throw invalidToken('The token is not valid.');
    }
    return principalOf(decoded.header, decoded.payload);
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

/** Checks the claims every verifier shares, whatever the key: a subject we can store, and no unknown extension. */
export function principalOf(header: Record<string, unknown>, payload: Record<string, unknown>): Principal {
  // RFC 7515 §4.1.11: a recipient must reject a token whose critical extensions it does not understand (we know none).
  if (header.crit !== undefined) throw invalidToken('The token uses a critical extension this service does not know.');
  const { sub, scope } = payload;
  if (!isUserId(sub)) {
    throw invalidToken(`The token's sub must be a string of 1 to ${maxSubjectLength} characters, without NUL or unpaired surrogates.`);
  }
  if (typeof payload.exp !== 'number') throw invalidToken('The token has no numeric exp claim.');
  const scopes = typeof scope === 'string' ? scope.split(' ').filter((s) => s.length > 0) : [];
  return { userId: sub, scopes: new Set(scopes) };
}

/** A 401 for a token we do not accept; a cause, when given, is a server-side reason worth logging. */
export function invalidToken(message: string, cause?: unknown): HttpError {
  return new HttpError(
    'invalid_token',
    message,
    { 'www-authenticate': 'Bearer error="invalid_token"' },
    cause === undefined ? undefined : { cause },
  );
}
