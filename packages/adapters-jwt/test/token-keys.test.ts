import { generateKeyPairSync, randomUUID } from 'node:crypto';
import { noGrants } from '@canteen-meals/domain';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, describe, expect, it } from 'vitest';
import {
  createJwksTokenVerifier,
  createPublicKeyTokenVerifier,
  InvalidTokenError,
  type TokenVerifier,
} from '../src/index.js';
import { ecKey, JwksServer, nowSeconds, pemOf, rsaKey, signJwt, type SigningKey } from './token-fixtures.js';

const issuer = 'https://id.canteen.test';
// A jti makes every token new to the verifier's cache, so that each one needs its key.
const payload = () => ({ iss: issuer, sub: 'alice', exp: nowSeconds() + 3600, jti: randomUUID() });
const tokenOf = (key: SigningKey, kid = key.kid) => signJwt({ alg: key.alg, typ: 'JWT', kid }, payload(), key);

/** The verifier's answer: the user, or the wire code it refused with. */
async function outcome(verify: TokenVerifier, token: string): Promise<string> {
  try {
    return (await verify(token)).userId;
  } catch (error) {
    if (error instanceof InvalidTokenError) return error.code;
    throw error;
  }
}

describe('a public key file: the algorithm is pinned to the key', () => {
  const rsa = rsaKey('r');
  const ec = ecKey('e');

  it('lets an RSA key verify RS256 only, synchronously', () => {
    const verify = createPublicKeyTokenVerifier({ publicKeyPem: rsa.publicPem, issuer });
    expect(verify(tokenOf(rsa))).toEqual({ userId: 'alice', scopes: new Set(), grants: noGrants });
    const otherAlgorithms = ['RS384', 'RS512', 'PS256', 'ES256', 'HS256'].map((alg) =>
      signJwt({ alg, typ: 'JWT' }, payload(), alg === 'HS256' ? rsa.publicPem : rsa),
    );
    for (const token of otherAlgorithms) expect(() => verify(token)).toThrow(InvalidTokenError);
  });

  it('lets a P-256 key verify ES256 only', () => {
    const verify = createPublicKeyTokenVerifier({ publicKeyPem: ec.publicPem, issuer });
    expect(verify(tokenOf(ec)).userId).toBe('alice');
    expect(() => verify(signJwt({ alg: 'RS256', typ: 'JWT' }, payload(), rsa))).toThrow(InvalidTokenError);
    expect(() => verify(signJwt({ alg: 'HS256', typ: 'JWT' }, payload(), ec.publicPem))).toThrow(InvalidTokenError);
  });

  it.each([
    ['an RSA key under 2048 bits', rsaKey('small', 1024).publicPem, /at least 2048 bits/],
    ['a P-384 key', ecKey('p384', 'P-384').publicPem, /EC P-256/],
    ['an Ed25519 key', pemOf(generateKeyPairSync('ed25519').publicKey), /RSA \(RS256\) or EC P-256/],
    ['a private key', rsa.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(), /private key/],
    [
      'something that is not a key',
      '-----BEGIN PUBLIC KEY-----\nnot a key\n-----END PUBLIC KEY-----\n',
      /not a PEM public key/,
    ],
  ])('refuses %s when it is configured', (_, publicKeyPem, reason) => {
    expect(() => createPublicKeyTokenVerifier({ publicKeyPem })).toThrow(reason);
  });
});

describe('a JWKS endpoint', () => {
  const rsa = rsaKey('rsa-1');
  const ec = ecKey('ec-1');
  let server: JwksServer;
  let other: JwksServer | undefined;

  afterEach(async () => {
    await server.stop();
    await other?.stop();
    other = undefined;
  });

  const start = async (keys: SigningKey[]) => (server = await new JwksServer(keys).start());
  const verifierFor = (options: { cooldownMs?: number; cacheMaxAgeMs?: number } = {}) =>
    createJwksTokenVerifier({ jwksUrl: server.url, issuer, cooldownMs: 60_000, ...options });

  it('verifies with the key the kid names, fetching the set once for every key in it', async () => {
    await start([rsa, ec]);
    const verify = verifierFor();
    expect(await outcome(verify, tokenOf(rsa))).toBe('alice');
    expect(await outcome(verify, tokenOf(ec))).toBe('alice');
    expect(server.requests).toBe(1);
  });

  it('answers an unknown kid with invalid_token, and unknown kids do not flood the endpoint', async () => {
    await start([rsa]);
    const verify = verifierFor();
    expect(await outcome(verify, tokenOf(rsa))).toBe('alice');
    const forged = Array.from({ length: 50 }, (_, i) => tokenOf(rsa, `unknown-${i}`));
    const outcomes = await Promise.all(forged.map((token) => outcome(verify, token)));
    expect(new Set(outcomes)).toEqual(new Set(['invalid_token']));
    // Within the cooldown after the first fetch, not one more request reached the endpoint.
    expect(server.requests).toBe(1);
  });

  it('shares one fetch among concurrent first requests', async () => {
    await start([rsa]);
    const verify = verifierFor();
    const outcomes = await Promise.all(Array.from({ length: 20 }, () => outcome(verify, tokenOf(rsa))));
    expect(outcomes.every((userId) => userId === 'alice')).toBe(true);
    expect(server.requests).toBe(1);
  });

  it('learns a rotated-in key with one refetch once the cooldown has passed', async () => {
    await start([rsa]);
    const verify = verifierFor({ cooldownMs: 50 });
    expect(await outcome(verify, tokenOf(rsa))).toBe('alice');
    const rotated = rsaKey('rsa-2');
    server.publish([rsa, rotated]);
    await sleep(100);
    const outcomes = await Promise.all(Array.from({ length: 10 }, () => outcome(verify, tokenOf(rotated))));
    expect(outcomes.every((userId) => userId === 'alice')).toBe(true);
    expect(server.requests).toBe(2);
  });

  it('does not retry a failing endpoint before the cooldown, and keeps serving the last good keys meanwhile', async () => {
    await start([rsa]);
    const verify = verifierFor({ cooldownMs: 60_000, cacheMaxAgeMs: 1 });
    expect(await outcome(verify, tokenOf(rsa))).toBe('alice');
    server.status = 503;
    await sleep(10);
    // The set is stale: one refetch is tried, it fails, that starts a cooldown, and the last good set answers.
    const outcomes = [];
    for (let i = 0; i < 20; i++) outcomes.push(await outcome(verify, tokenOf(rsa)));
    expect(server.requests).toBe(2);
    expect(outcomes.every((userId) => userId === 'alice')).toBe(true);
    expect(await outcome(verify, tokenOf(ecKey('unknown'), 'unknown'))).toBe('invalid_token');
    expect(server.requests).toBe(2);
  });

  it('answers invalid_token, without a flood, when the endpoint was never reachable', async () => {
    await start([rsa]);
    server.status = 500;
    const verify = verifierFor();
    const outcomes = await Promise.all(Array.from({ length: 10 }, () => outcome(verify, tokenOf(rsa))));
    for (let i = 0; i < 10; i++) outcomes.push(await outcome(verify, tokenOf(rsa)));
    expect(new Set(outcomes)).toEqual(new Set(['invalid_token']));
    expect(server.requests).toBe(1);
  });

  it('never fetches keys from where the token says (iss, jku, x5u)', async () => {
    await start([rsa]);
    const attacker = rsaKey('rsa-1');
    other = await new JwksServer([attacker]).start();
    const verify = verifierFor();
    const token = signJwt(
      { alg: 'RS256', typ: 'JWT', kid: 'rsa-1', jku: other.url.href, x5u: other.url.href },
      { ...payload(), iss: other.url.origin },
      attacker,
    );
    expect(await outcome(verify, token)).toBe('invalid_token');
    const sameIssuer = signJwt({ alg: 'RS256', typ: 'JWT', kid: 'rsa-1', jku: other.url.href }, payload(), attacker);
    expect(await outcome(verify, sameIssuer)).toBe('invalid_token');
    expect(other.requests).toBe(0);
  });

  it('refuses a JWKS key of the wrong type for the token algorithm', async () => {
    const ecNamedLikeRsa = ecKey('shared');
    await start([ecNamedLikeRsa]);
    const verify = verifierFor();
    // An RS256 header naming an EC key: jose finds no RSA key of that kid.
    const token = signJwt({ alg: 'RS256', typ: 'JWT', kid: 'shared' }, payload(), rsaKey('shared'));
    expect(await outcome(verify, token)).toBe('invalid_token');
    expect(await outcome(verify, tokenOf(ecNamedLikeRsa))).toBe('alice');
  });

  it('needs an issuer and an http(s) URL', () => {
    expect(() => createJwksTokenVerifier({ jwksUrl: new URL('http://127.0.0.1/jwks'), issuer: ' ' })).toThrow(/issuer/);
    expect(() => createJwksTokenVerifier({ jwksUrl: new URL('file:///etc/jwks.json'), issuer })).toThrow(/http/);
  });
});
