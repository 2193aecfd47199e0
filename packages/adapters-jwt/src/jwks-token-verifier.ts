import { createVerifier } from 'fast-jwt';
import { createJwksKeyResolver, KeyNotResolved, type JwksKeyResolverOptions } from './jwks-key-resolver.js';
import {
  claimVerifierOptions,
  invalidToken,
  principalOf,
  type ClaimOptions,
  type DecodedToken,
  type TokenVerifier,
} from './token-verifier.js';

export interface JwksTokenOptions extends ClaimOptions, Omit<JwksKeyResolverOptions, 'url'> {
  /** The JWKS endpoint, from configuration. */
  readonly jwksUrl: URL;
  /** Required: a key set serves one issuer, and only its tokens are accepted. */
  readonly issuer: string;
}

/** Verifies RS256 or ES256 tokens with the key their kid names in a JWKS; asynchronous, since a key may be fetched. */
export function createJwksTokenVerifier(options: JwksTokenOptions): TokenVerifier {
  if (options.issuer.trim() === '') throw new Error('a JWKS verifier needs the issuer whose keys it fetches');
  if (options.jwksUrl.protocol !== 'https:' && options.jwksUrl.protocol !== 'http:') {
    throw new Error(`the JWKS URL must be http(s), not ${options.jwksUrl.protocol}`);
  }
  const resolveKey = createJwksKeyResolver({ ...options, url: options.jwksUrl });
  const verify = createVerifier({
    ...claimVerifierOptions(options),
    key: async ({ header }: { header: Record<string, unknown> }) => resolveKey(header),
    algorithms: ['RS256', 'ES256'],
  });
  return async (token) => {
    let decoded: DecodedToken;
    try {
      decoded = (await verify(token)) as DecodedToken;
    } catch (error) {
      const cause = (error as { originalError?: unknown }).originalError;
      // The key set being unreachable is our problem, not the client's: the failure keeps its cause for the log.
      if (cause instanceof KeyNotResolved && cause.unavailable) {
        throw invalidToken('The token cannot be verified now.', cause);
      }
      throw invalidToken('The token is not valid.');
    }
    return principalOf(decoded.header, decoded.payload, options);
  };
}
