import type { Principal } from './principal.js';

export interface VerifiedTokenCacheOptions {
  /** How many tokens are remembered; past that, the longest remembered is forgotten first. */
  readonly maxEntries?: number;
  /** Leeway after `exp`, in milliseconds: the same the verifier allows. */
  readonly clockToleranceMs?: number | undefined;
  /** The verifier's maximum lifetime: a remembered token whose exp lies further ahead than that is verified again. */
  readonly maxLifetimeMs?: number | undefined;
  readonly now?: () => number;
}

/** Longer tokens are verified every time: a remembered token is kept as its key, and memory must stay bounded. */
export const maxRememberedTokenLength = 2048;

/**
 * The principals of tokens that a fixed-key verifier has accepted, each until its token expires. A user sends the
 * same token with every request; fast-jwt's own cache hashes it with SHA-256 on every lookup, which was a tenth of
 * a request's CPU in the benchmark's profile, while this is one Map lookup. Keyed by the token itself: two different
 * tokens never share an entry. Refused tokens are never remembered.
 */
export class VerifiedTokenCache {
  private readonly entries = new Map<string, { readonly principal: Principal; readonly expiresAtMs: number }>();
  private readonly maxEntries: number;
  private readonly toleranceMs: number;
  private readonly maxAheadMs: number;
  private readonly now: () => number;

  constructor(options: VerifiedTokenCacheOptions = {}) {
    this.maxEntries = options.maxEntries ?? 10_000;
    this.toleranceMs = options.clockToleranceMs ?? 0;
    // expiresAtMs already holds the leeway once; the lifetime check allows it once more.
    this.maxAheadMs = (options.maxLifetimeMs ?? Number.POSITIVE_INFINITY) + 2 * this.toleranceMs;
    this.now = options.now ?? Date.now;
  }

  /** The principal of a token accepted before and not expired since; undefined otherwise. */
  get(token: string): Principal | undefined {
    const entry = this.entries.get(token);
    if (entry === undefined) return undefined;
    const now = this.now();
    // A clock set back must not let a remembered token outlive the maximum lifetime.
    if (now > entry.expiresAtMs || entry.expiresAtMs - now > this.maxAheadMs) {
      this.entries.delete(token);
      return undefined;
    }
    return entry.principal;
  }

  /** Remembers a token the verifier has just accepted, until its `exp` (in seconds) plus the leeway. */
  remember(token: string, principal: Principal, expSeconds: number): void {
    if (token.length > maxRememberedTokenLength) return;
    if (this.entries.size >= this.maxEntries) this.entries.delete(this.entries.keys().next().value!);
    this.entries.set(token, { principal, expiresAtMs: expSeconds * 1000 + this.toleranceMs });
  }

  get size(): number {
    return this.entries.size;
  }
}
