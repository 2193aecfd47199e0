import { KeyObject } from 'node:crypto';
import type { createLocalJWKSet, createRemoteJWKSet, JWSHeaderParameters } from 'jose';
import { algorithmOfKey, type AsymmetricAlgorithm } from './public-key-token-verifier.js';

export interface JwksKeyResolverOptions {
  /** The key set's address, from configuration: never derived from a token. */
  readonly url: URL;
  /** After a fetch, this long passes before an unknown kid or a failed fetch may cause another (default 30 s). */
  readonly cooldownMs?: number | undefined;
  /** A fetched key set is used this long before it is fetched again (default 10 min). */
  readonly cacheMaxAgeMs?: number | undefined;
  /** A fetch taking longer fails (default 5 s). */
  readonly timeoutMs?: number | undefined;
}

/** Finds the public key (as PEM, for fast-jwt) that verifies a token with this header, or throws KeyNotResolved. */
export type JwksKeyResolver = (header: Readonly<Record<string, unknown>>) => Promise<string>;

/** The token names no usable key; `unavailable` when the key set could not be fetched (worth a warning in the log). */
export class KeyNotResolved extends Error {
  override readonly name = 'KeyNotResolved';

  constructor(
    message: string,
    readonly unavailable = false,
    options?: ErrorOptions,
  ) {
    super(message, options);
  }
}

const jwksAlgorithms: readonly AsymmetricAlgorithm[] = ['RS256', 'ES256'];

type Jose = typeof import('jose');
/** jose (46 modules) is loaded by the first JWKS resolver, not by every process that imports this package (start time). */
let jose: Jose | undefined;
const loadJose = async (): Promise<Jose> => (jose ??= await import('jose'));

/**
 * jose's remote key set caches the whole set, so one fetch learns every key (a rotated-in key included), and after
 * a fetch an unknown kid waits out a cooldown instead of causing another. It would retry a failed fetch at once,
 * though: here a failure also starts a cooldown, during which the last good set (even a stale one) answers.
 */
export function createJwksKeyResolver(options: JwksKeyResolverOptions): JwksKeyResolver {
  const cooldownMs = options.cooldownMs ?? 30_000;
  const remoteSet = loadJose().then(({ createRemoteJWKSet }) =>
    createRemoteJWKSet(options.url, {
      cooldownDuration: cooldownMs,
      cacheMaxAge: options.cacheMaxAgeMs ?? 600_000,
      timeoutDuration: options.timeoutMs ?? 5_000,
    }),
  );
  // Settled or not, a failure to load shows where the set is used, not as an unhandled rejection.
  remoteSet.catch(() => {});
  let failedAt = Number.NEGATIVE_INFINITY;
  let lastGoodSet: { readonly failedAt: number; readonly resolve: ReturnType<typeof createLocalJWKSet> } | undefined;
  const pemOf = new WeakMap<object, string>();

  /** The last set that was fetched, even if stale: while the endpoint fails, it is better than nothing. */
  const lastGoodSetResolver = async () => {
    if (lastGoodSet?.failedAt !== failedAt) {
      const [{ createLocalJWKSet }, remote] = await Promise.all([loadJose(), remoteSet]);
      const set = remote.jwks();
      lastGoodSet = set === undefined ? undefined : { failedAt, resolve: createLocalJWKSet(set) };
    }
    return lastGoodSet?.resolve;
  };

  const fromLastGoodSet = async (header: JWSHeaderParameters, cause?: unknown) => {
    const resolve = await lastGoodSetResolver();
    if (resolve === undefined) throw new KeyNotResolved('the key set could not be fetched', true, { cause });
    return resolve(header);
  };

  const keyFor = async (header: JWSHeaderParameters) => {
    if (Date.now() - failedAt < cooldownMs) return fromLastGoodSet(header);
    const remote = await remoteSet;
    try {
      return await remote(header);
    } catch (error) {
      if (isNoSuchKey(error)) throw error;
      failedAt = Date.now();
      return fromLastGoodSet(header, error);
    }
  };

  return async (header) => {
    const { alg, kid } = header;
    if (!jwksAlgorithms.includes(alg as AsymmetricAlgorithm)) {
      throw new KeyNotResolved(`the token's alg must be one of ${jwksAlgorithms.join(', ')}`);
    }
    if (typeof kid !== 'string' || kid.length === 0) throw new KeyNotResolved('the token names no kid');
    let key: Awaited<ReturnType<ReturnType<typeof createRemoteJWKSet>>>;
    try {
      key = await keyFor({ alg: alg as AsymmetricAlgorithm, kid });
    } catch (error) {
      if (error instanceof KeyNotResolved) throw error;
      if (isNoSuchKey(error)) throw new KeyNotResolved(`no key ${kid} for ${alg} in the key set`);
      throw new KeyNotResolved('the key set is not usable', true, { cause: error });
    }
    return pemOfKey(key, alg as AsymmetricAlgorithm, pemOf);
  };
}

function isNoSuchKey(error: unknown): boolean {
  // Only jose throws these, so before jose is loaded no error is one of them.
  if (jose === undefined) return false;
  const { errors } = jose;
  return (
    error instanceof errors.JWKSNoMatchingKey ||
    error instanceof errors.JWKSMultipleMatchingKeys ||
    error instanceof errors.JOSENotSupported
  );
}

/** jose hands out the same CryptoKey for a key until the set changes, so each key is exported once. */
function pemOfKey(
  key: Parameters<typeof KeyObject.from>[0],
  alg: AsymmetricAlgorithm,
  cache: WeakMap<object, string>,
): string {
  const cached = cache.get(key);
  if (cached !== undefined) return cached;
  const keyObject = KeyObject.from(key);
  // The same rules as a configured key file: RSA of 2048 bits or more for RS256, P-256 for ES256, nothing else.
  let keyAlgorithm: AsymmetricAlgorithm;
  try {
    keyAlgorithm = algorithmOfKey(keyObject);
  } catch (error) {
    throw new KeyNotResolved(`the key set's key is not acceptable: ${(error as Error).message}`);
  }
  if (keyAlgorithm !== alg) throw new KeyNotResolved(`the key set's key verifies ${keyAlgorithm}, not ${alg}`);
  const pem = keyObject.export({ type: 'spki', format: 'pem' }).toString();
  cache.set(key, pem);
  return pem;
}
