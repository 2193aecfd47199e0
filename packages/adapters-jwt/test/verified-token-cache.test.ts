import { afterEach, describe, expect, it, vi } from 'vitest';
import { noGrants } from '@canteen-meals/domain';
import { createHmacTokenVerifier, signHmacToken, type Principal } from '../src/index.js';
import { maxRememberedTokenLength, VerifiedTokenCache } from '../src/verified-token-cache.js';

const alice: Principal = { userId: 'alice', scopes: new Set(), grants: noGrants };
const bob: Principal = { userId: 'bob', scopes: new Set(), grants: noGrants };

describe('VerifiedTokenCache', () => {
  it('remembers an accepted token until its exp plus the leeway, and not a millisecond longer', () => {
    let now = 1_000_000;
    const cache = new VerifiedTokenCache({ clockToleranceMs: 5_000, now: () => now });
    cache.remember('token-a', alice, 2_000); // exp: 2 000 000 ms
    now = 2_005_000;
    expect(cache.get('token-a')).toBe(alice);
    now = 2_005_001;
    expect(cache.get('token-a')).toBeUndefined();
    expect(cache.size).toBe(0);
  });

  it('keeps at most maxEntries tokens, forgetting the longest remembered first', () => {
    const cache = new VerifiedTokenCache({ maxEntries: 2, now: () => 0 });
    cache.remember('token-a', alice, 60);
    cache.remember('token-b', bob, 60);
    cache.remember('token-c', bob, 60);
    expect(cache.get('token-a')).toBeUndefined();
    expect(cache.get('token-b')).toBe(bob);
    expect(cache.get('token-c')).toBe(bob);
  });

  it('does not keep overlong tokens, so that its memory stays bounded', () => {
    const cache = new VerifiedTokenCache({ now: () => 0 });
    cache.remember('x'.repeat(maxRememberedTokenLength + 1), alice, 60);
    expect(cache.size).toBe(0);
  });
});

describe('a fixed-key verifier that remembers tokens', () => {
  const secret = 'verified-token-cache-secret-of-32-bytes!';
  afterEach(() => vi.useRealTimers());

  it('refuses a token it accepted before once that token has expired', () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2026-03-02T12:00:00Z'));
    const verify = createHmacTokenVerifier({ secret, clockToleranceMs: 0 });
    const token = signHmacToken(secret, { sub: 'alice', expiresInMs: 60_000 });
    expect(verify(token).userId).toBe('alice');
    expect(verify(token).userId).toBe('alice');
    vi.setSystemTime(new Date('2026-03-02T12:01:01Z'));
    expect(() => verify(token)).toThrowError(expect.objectContaining({ code: 'invalid_token' }));
  });

  it('holds a remembered token to the maximum lifetime: a clock set back does not stretch it', () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2026-03-02T12:00:00Z'));
    const verify = createHmacTokenVerifier({ secret, clockToleranceMs: 0, maxLifetimeMs: 3_600_000 });
    const token = signHmacToken(secret, { sub: 'alice', expiresInMs: 3_600_000 });
    expect(verify(token).userId).toBe('alice');
    vi.setSystemTime(new Date('2026-03-02T11:59:00Z'));
    expect(() => verify(token)).toThrowError(expect.objectContaining({ code: 'invalid_token' }));
  });

  it('verifies in full any token it has not accepted: a remembered one does not vouch for a tampered copy', () => {
    const verify = createHmacTokenVerifier({ secret });
    const token = signHmacToken(secret, { sub: 'alice' });
    expect(verify(token).userId).toBe('alice');
    const [header, , signature] = token.split('.');
    const bobPayload = Buffer.from(JSON.stringify({ sub: 'bob', exp: Math.floor(Date.now() / 1000) + 3600 })).toString(
      'base64url',
    );
    expect(() => verify(`${header}.${bobPayload}.${signature}`)).toThrowError(
      expect.objectContaining({ code: 'invalid_token' }),
    );
  });
});
