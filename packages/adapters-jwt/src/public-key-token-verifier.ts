import { createPublicKey, type KeyObject } from 'node:crypto';
import { createVerifier } from 'fast-jwt';
import {
  claimVerifierOptions,
  principalVerifier,
  type ClaimOptions,
  type SyncTokenVerifier,
} from './token-verifier.js';

export type AsymmetricAlgorithm = 'RS256' | 'ES256';

export interface PublicKeyTokenOptions extends ClaimOptions {
  /** An SPKI PEM public key: RSA (2048 bits or more) or EC P-256. */
  readonly publicKeyPem: string;
}

export const minRsaModulusBits = 2048;

/**
 * The one algorithm a key may verify: an RSA key only RS256, a P-256 key only ES256. Pinning the algorithm to the key,
 * never to the token's header, is what stops a token signed with HS256 and the public key as its "secret".
 */
export function algorithmOfKey(key: KeyObject): AsymmetricAlgorithm {
  if (key.type !== 'public') throw new Error('the key must be a public key');
  const details = key.asymmetricKeyDetails ?? {};
  if (key.asymmetricKeyType === 'rsa') {
    if ((details.modulusLength ?? 0) < minRsaModulusBits) {
      throw new Error(`an RSA key must have at least ${minRsaModulusBits} bits (it has ${details.modulusLength})`);
    }
    return 'RS256';
  }
  if (key.asymmetricKeyType === 'ec' && details.namedCurve === 'prime256v1') return 'ES256';
  throw new Error(
    `the key must be RSA (RS256) or EC P-256 (ES256), not ${key.asymmetricKeyType}` +
      (details.namedCurve === undefined ? '' : ` on ${details.namedCurve}`),
  );
}

/** Verifies RS256 or ES256 tokens with one public key, synchronously. */
export function createPublicKeyTokenVerifier(options: PublicKeyTokenOptions): SyncTokenVerifier {
  const { key, algorithm } = parsePublicKey(options.publicKeyPem);
  const pem = key.export({ type: 'spki', format: 'pem' }).toString();
  return principalVerifier(
    createVerifier({ ...claimVerifierOptions(options), cache: false, key: pem, algorithms: [algorithm] }),
    options,
  );
}

/** The algorithm a PEM public key verifies; throws, saying why, for anything we do not accept. */
export function publicKeyAlgorithm(publicKeyPem: string): AsymmetricAlgorithm {
  return parsePublicKey(publicKeyPem).algorithm;
}

function parsePublicKey(publicKeyPem: string): { key: KeyObject; algorithm: AsymmetricAlgorithm } {
  // createPublicKey would happily derive the public half, but a private key has no business on a verifying server.
  if (/-----BEGIN [A-Z ]*PRIVATE KEY-----/.test(publicKeyPem)) {
    throw new Error('the file holds a private key: give the public key only');
  }
  let key: KeyObject;
  try {
    key = createPublicKey(publicKeyPem);
  } catch (error) {
    throw new Error(`not a PEM public key (${(error as Error).message})`);
  }
  return { key, algorithm: algorithmOfKey(key) };
}
