import { createVerifier } from 'fast-jwt';
import { HttpError } from '../http-error.js';
import type { Principal } from './principal.js';

export interface HmacTokenOptions {
  /** HS256 shared secret, at least 32 bytes. */
  readonly secret: string;
  readonly issuer?: string | undefined;
  readonly audience?: string | undefined;
  /** Leeway for exp and nbf, in milliseconds. */
  readonly clockToleranceMs?: number | undefined;
}

/** Turns a bearer token into a principal, or throws HttpError('invalid_token'). */
export type TokenVerifier = (token: string) => Principal;

export const minSecretBytes = 32;
export const maxSubjectLength = 255;

export function createHmacTokenVerifier(options: HmacTokenOptions): TokenVerifier {
  if (Buffer.byteLength(options.secret) < minSecretBytes) {
    throw new Error(`the JWT secret must have at least ${minSecretBytes} bytes`);
  }
  const verify = createVerifier({
    key: options.secret,
    algorithms: ['HS256'],
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
  });
  return (token) => {
    let decoded: { header: Record<string, unknown>; payload: Record<string, unknown> };
    try {
      decoded = verify(token);
    } catch {
      throw invalidToken('The token is not valid.');
    }
    return principalOf(decoded.header, decoded.payload);
  };
}

/** Checks the claims every verifier shares, whatever the key: a subject we can store, and no unknown extension. */
export function principalOf(header: Record<string, unknown>, payload: Record<string, unknown>): Principal {
  // RFC 7515 §4.1.11: a recipient must reject a token whose critical extensions it does not understand (we know none).
  if (header.crit !== undefined) throw invalidToken('The token uses a critical extension this service does not know.');
  const { sub, scope } = payload;
  if (typeof sub !== 'string' || sub.length === 0 || sub.length > maxSubjectLength) {
    throw invalidToken(`The token's sub must be a string of 1 to ${maxSubjectLength} characters.`);
  }
  if (typeof payload.exp !== 'number') throw invalidToken('The token has no numeric exp claim.');
  const scopes = typeof scope === 'string' ? scope.split(' ').filter((s) => s.length > 0) : [];
  return { userId: sub, scopes: new Set(scopes) };
}

export function invalidToken(message: string): HttpError {
  return new HttpError('invalid_token', message, {
    'www-authenticate': 'Bearer error="invalid_token"',
  });
}
