import { createHmac } from 'node:crypto';

const base64url = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

/**
 * Builds a JWT by hand, so that a test can make the ones no well-behaved signer would: any header, any claims,
 * any algorithm name, signed with any secret (or not at all).
 */
export function craftToken(
  header: Record<string, unknown>,
  payload: Record<string, unknown>,
  signWith: { secret: string; hmac: 'sha256' | 'sha512' } | 'unsigned',
): string {
  const signingInput = `${base64url(header)}.${base64url(payload)}`;
  if (signWith === 'unsigned') return `${signingInput}.`;
  return `${signingInput}.${createHmac(signWith.hmac, signWith.secret).update(signingInput).digest('base64url')}`;
}

export const nowInSeconds = () => Math.floor(Date.now() / 1000);
