export {
  adminScope,
  kitchenScope,
  knownScopes,
  manageScope,
  reportsScope,
  type Principal,
} from './principal.js';
export {
  parseRoleClaimPaths,
  parseRoleScopes,
  grantsOfToken,
  rolesIn,
  scopesGrantedBy,
  splitCanteenSuffix,
  type RoleMapping,
} from './role-mapping.js';
export { signHmacToken, type TokenClaims } from './token-signer.js';
export {
  createHmacTokenVerifier,
  InvalidTokenError,
  maxSubjectLength,
  minSecretBytes,
  type ClaimOptions,
  type HmacTokenOptions,
  type SyncTokenVerifier,
  type TokenVerifier,
} from './token-verifier.js';
export {
  createPublicKeyTokenVerifier,
  minRsaModulusBits,
  publicKeyAlgorithm,
  type AsymmetricAlgorithm,
  type PublicKeyTokenOptions,
} from './public-key-token-verifier.js';
export { createJwksTokenVerifier, type JwksTokenOptions } from './jwks-token-verifier.js';
export { maxRememberedTokenLength, VerifiedTokenCache } from './verified-token-cache.js';
