import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createHmacTokenVerifier,
  createJwksTokenVerifier,
  createPublicKeyTokenVerifier,
  type TokenVerifier,
} from '../src/index.js';
import { buildAppWith, markMealRequest } from './app-with.js';
import {
  ecKey,
  encodeJson,
  JwksServer,
  nowSeconds,
  rsaKey,
  signJwt,
  type SigningKey,
} from '../../adapters-jwt/test/token-fixtures.js';

// Every kind of bad token, against every kind of key source: each one is a 401 invalid_token, none a 5xx.

const issuer = 'https://id.canteen.test';
const audience = 'meals-api';
const secret = 'token-matrix-secret-of-at-least-32-bytes';
const clockToleranceMs = 5_000;
const maxLifetimeMs = 24 * 60 * 60 * 1000;
const rsa = rsaKey('rsa-1');
const ec = ecKey('ec-1');
const rogueRsa = rsaKey('rsa-1');
const jwks = new JwksServer([rsa, ec]);

interface Service {
  readonly name: string;
  readonly verifier: () => TokenVerifier;
  /** What signs a valid token for it: the HS256 secret or the private key. */
  readonly signer: SigningKey | string;
  readonly alg: 'HS256' | 'RS256' | 'ES256';
  readonly kid?: string;
  /** The public key an attacker can read, for the HS256-with-the-public-key attack. */
  readonly publicPem: string;
  readonly usesJwks: boolean;
}

const claims = { issuer, audience, clockToleranceMs, maxLifetimeMs };
const services: Service[] = [
  {
    name: 'HS256 secret',
    verifier: () => createHmacTokenVerifier({ ...claims, secret }),
    signer: secret,
    alg: 'HS256',
    publicPem: rsa.publicPem,
    usesJwks: false,
  },
  {
    name: 'RS256 public key',
    verifier: () => createPublicKeyTokenVerifier({ ...claims, publicKeyPem: rsa.publicPem }),
    signer: rsa,
    alg: 'RS256',
    publicPem: rsa.publicPem,
    usesJwks: false,
  },
  {
    name: 'ES256 public key',
    verifier: () => createPublicKeyTokenVerifier({ ...claims, publicKeyPem: ec.publicPem }),
    signer: ec,
    alg: 'ES256',
    publicPem: ec.publicPem,
    usesJwks: false,
  },
  {
    name: 'JWKS, RS256 key',
    verifier: () => createJwksTokenVerifier({ ...claims, jwksUrl: jwks.url }),
    signer: rsa,
    alg: 'RS256',
    kid: rsa.kid,
    publicPem: rsa.publicPem,
    usesJwks: true,
  },
  {
    name: 'JWKS, ES256 key',
    verifier: () => createJwksTokenVerifier({ ...claims, jwksUrl: jwks.url }),
    signer: ec,
    alg: 'ES256',
    kid: ec.kid,
    publicPem: ec.publicPem,
    usesJwks: true,
  },
];

const validPayload = () => ({ iss: issuer, aud: audience, sub: 'alice', iat: nowSeconds(), exp: nowSeconds() + 3600 });
const headerOf = (service: Service) => ({
  alg: service.alg,
  typ: 'JWT',
  ...(service.kid === undefined ? {} : { kid: service.kid }),
});

function token(service: Service, payload: Record<string, unknown> = {}, header: Record<string, unknown> = {}): string {
  const fullPayload = Object.fromEntries(
    Object.entries({ ...validPayload(), ...payload }).filter(([, value]) => value !== undefined),
  );
  return signJwt({ ...headerOf(service), ...header }, fullPayload, service.signer);
}

interface BadToken {
  readonly name: string;
  /** The whole Authorization header. */
  readonly authorization: (service: Service) => string;
  readonly onlyFor?: (service: Service) => boolean;
}

const bearer = (make: (service: Service) => string) => (service: Service) => `Bearer ${make(service)}`;
const past = () => nowSeconds() - 60;
const future = () => nowSeconds() + 60;

const badTokens: BadToken[] = [
  {
    name: 'alg none',
    authorization: bearer((s) => `${encodeJson({ ...headerOf(s), alg: 'none' })}.${encodeJson(validPayload())}.`),
  },
  {
    name: 'alg none keeping a valid signature',
    authorization: bearer((s) => {
      const [, payload, signature] = token(s).split('.');
      return `${encodeJson({ ...headerOf(s), alg: 'none' })}.${payload}.${signature}`;
    }),
  },
  {
    name: 'HS256 signed with the public key as the HMAC secret',
    authorization: bearer((s) => signJwt({ ...headerOf(s), alg: 'HS256' }, validPayload(), s.publicPem)),
  },
  {
    name: 'the key type of the other algorithm (ES256 header, RS256 key, or the reverse)',
    authorization: bearer((s) => token(s, {}, { alg: s.alg === 'ES256' ? 'RS256' : 'ES256' })),
  },
  {
    name: 'a key the service does not trust',
    authorization: bearer((s) =>
      token({
        ...s,
        signer:
          typeof s.signer === 'string' ? `${secret}-rogue` : s.alg === 'RS256' ? rogueRsa : ecKey(s.kid ?? 'ec-1'),
      }),
    ),
  },
  { name: 'a wrong issuer', authorization: bearer((s) => token(s, { iss: 'https://evil.test' })) },
  { name: 'no issuer', authorization: bearer((s) => token(s, { iss: undefined })) },
  { name: 'an array issuer', authorization: bearer((s) => token(s, { iss: [issuer] })) },
  {
    name: 'an array issuer with another one',
    authorization: bearer((s) => token(s, { iss: [issuer, 'https://evil.test'] })),
  },
  { name: 'a wrong audience', authorization: bearer((s) => token(s, { aud: 'another-api' })) },
  { name: 'no audience', authorization: bearer((s) => token(s, { aud: undefined })) },
  { name: 'an expired token (past the clock tolerance)', authorization: bearer((s) => token(s, { exp: past() })) },
  { name: 'nbf in the future (past the clock tolerance)', authorization: bearer((s) => token(s, { nbf: future() })) },
  { name: 'no exp', authorization: bearer((s) => token(s, { exp: undefined })) },
  { name: 'a string exp', authorization: bearer((s) => token(s, { exp: String(nowSeconds() + 3600) })) },
  { name: 'an exp in the year 9999', authorization: bearer((s) => token(s, { exp: 253_402_300_799 })) },
  {
    name: 'an exp just past the maximum lifetime plus the clock tolerance',
    authorization: bearer((s) => token(s, { exp: nowSeconds() + maxLifetimeMs / 1000 + 10 })),
  },
  { name: 'no sub', authorization: bearer((s) => token(s, { sub: undefined })) },
  { name: 'a numeric sub', authorization: bearer((s) => token(s, { sub: 42 })) },
  { name: 'an empty sub', authorization: bearer((s) => token(s, { sub: '' })) },
  ...[
    ' ',
    '   ',
    '\t',
    '\u00A0',
    '\u3000',
    '\u2028',
    '\u200B',
    '\u200C',
    '\u200D',
    '\u2060',
    '\uFEFF',
    ' \u200B\uFEFF ',
  ].map((sub) => ({
    name: `a blank sub (${JSON.stringify(sub)})`,
    authorization: bearer((s) => token(s, { sub })),
  })),
  ...['ali\u0001ce', 'alice\n', 'alice\u001F', 'ali\u007Fce', 'alice\u0085', 'alice\u009F'].map((sub) => ({
    name: `a sub with a control character (${JSON.stringify(sub)})`,
    authorization: bearer((s) => token(s, { sub })),
  })),
  { name: 'a sub of 256 characters', authorization: bearer((s) => token(s, { sub: 'a'.repeat(256) })) },
  { name: 'a huge sub (64 KiB)', authorization: bearer((s) => token(s, { sub: 'a'.repeat(64 * 1024) })) },
  {
    name: 'a tampered payload',
    authorization: bearer((s) => {
      const [header, , signature] = token(s).split('.');
      return `${header}.${encodeJson({ ...validPayload(), sub: 'mallory' })}.${signature}`;
    }),
  },
  {
    name: 'a truncated signature',
    authorization: bearer((s) => token(s).slice(0, -10)),
  },
  {
    name: 'an unknown kid',
    authorization: bearer((s) =>
      token(
        { ...s, signer: s.alg === 'RS256' ? rsaKey('unknown-kid') : ecKey('unknown-kid') },
        {},
        { kid: 'unknown-kid' },
      ),
    ),
    onlyFor: (s) => s.usesJwks,
  },
  { name: 'no kid', authorization: bearer((s) => token(s, {}, { kid: undefined })), onlyFor: (s) => s.usesJwks },
  {
    name: 'a kid that is not a string',
    authorization: bearer((s) => token(s, {}, { kid: { $ne: null } })),
    onlyFor: (s) => s.usesJwks,
  },
  {
    name: 'an unknown crit header',
    authorization: bearer((s) => token(s, {}, { crit: ['x-unknown'], 'x-unknown': true })),
  },
  { name: 'an empty crit header', authorization: bearer((s) => token(s, {}, { crit: [] })) },
  { name: 'garbage', authorization: () => 'Bearer not-a-jwt' },
  { name: 'three empty segments', authorization: () => 'Bearer ..' },
  { name: 'segments that are not base64url JSON', authorization: () => 'Bearer e30.bm90IGpzb24.c2ln' },
  {
    name: 'a header that is JSON but not an object',
    authorization: (s) => `Bearer ${encodeJson([1])}.${encodeJson(validPayload())}.${token(s).split('.')[2]}`,
  },
  { name: 'an empty bearer', authorization: () => 'Bearer ' },
  { name: 'a bare Bearer', authorization: () => 'Bearer' },
];

const apps = new Map<string, FastifyInstance>();
let tokensTried = 0;

beforeAll(async () => {
  await jwks.start();
  for (const service of services) {
    apps.set(service.name, (await buildAppWith({ verifyToken: service.verifier() })).app);
  }
});

afterAll(async () => {
  await Promise.all([...apps.values()].map((app) => app.close()));
  await jwks.stop();
  // Printed for docs/reliability.md: how many bad tokens the matrix tries in one run.
  console.info(`token matrix: ${tokensTried} bad tokens tried against ${services.length} key sources`);
});

describe.each(services)('token matrix: $name', (service) => {
  const app = () => apps.get(service.name)!;

  it("accepts a valid token (so that every refusal below is the token's fault)", async () => {
    const response = await app().inject(markMealRequest(`Bearer ${token(service)}`));
    expect(response.statusCode).toBe(200);
  });

  it('accepts exp and nbf within the clock tolerance', async () => {
    const response = await app().inject(
      markMealRequest(`Bearer ${token(service, { exp: nowSeconds() - 2, nbf: nowSeconds() + 2 })}`),
    );
    expect(response.statusCode).toBe(200);
  });

  it('accepts an exp at the maximum lifetime, and a sub with inner spaces or a zero-width joiner between letters', async () => {
    for (const payload of [{ exp: nowSeconds() + maxLifetimeMs / 1000 }, { sub: 'alice smith' }, { sub: 'a\u200Db' }]) {
      const response = await app().inject(markMealRequest(`Bearer ${token(service, payload)}`));
      expect(response.statusCode).toBe(200);
    }
  });

  it.each(
    badTokens.filter((bad) => bad.onlyFor?.(service) ?? true),
  )('refuses $name: 401 invalid_token', async (bad) => {
    tokensTried += 1;
    const response = await app().inject(markMealRequest(bad.authorization(service)));
    expect(response.statusCode).toBe(401);
    expect(response.json()).toEqual({ status: 'error', error: { code: 'invalid_token', message: expect.any(String) } });
    expect(response.headers['www-authenticate']).toBe('Bearer error="invalid_token"');
  });
});
