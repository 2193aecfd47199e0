import { createSigner } from 'fast-jwt';

export interface TokenClaims {
  readonly sub: string;
  readonly scope?: string | undefined;
  readonly issuer?: string | undefined;
  readonly audience?: string | undefined;
  /** Lifetime in milliseconds; one hour by default. */
  readonly expiresInMs?: number | undefined;
}

/** Signs HS256 tokens, for local use (the `pnpm issue-token` command) and tests. */
export function signHmacToken(secret: string, claims: TokenClaims): string {
  const sign = createSigner({
    key: secret,
    algorithm: 'HS256',
    expiresIn: claims.expiresInMs ?? 60 * 60 * 1000,
    ...(claims.issuer === undefined ? {} : { iss: claims.issuer }),
    ...(claims.audience === undefined ? {} : { aud: claims.audience }),
  });
  return sign({ sub: claims.sub, ...(claims.scope === undefined ? {} : { scope: claims.scope }) });
}
