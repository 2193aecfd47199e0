import { createHmac, generateKeyPairSync, sign, type KeyObject } from 'node:crypto';
import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { signHmacToken, type TokenClaims } from '../src/index.js';

/** A signing key pair as an identity provider holds it: the private half signs, the public half is published. */
export interface SigningKey {
  readonly alg: 'RS256' | 'ES256';
  readonly kid: string;
  readonly privateKey: KeyObject;
  readonly publicKey: KeyObject;
  readonly publicPem: string;
}

export function rsaKey(kid: string, modulusLength = 2048): SigningKey {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength });
  return { alg: 'RS256', kid, privateKey, publicKey, publicPem: pemOf(publicKey) };
}

export function ecKey(kid: string, namedCurve = 'P-256'): SigningKey {
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve });
  return { alg: 'ES256', kid, privateKey, publicKey, publicPem: pemOf(publicKey) };
}

export function pemOf(key: KeyObject): string {
  return key.export({ type: 'spki', format: 'pem' }).toString();
}

const base64url = (value: Buffer | string) => Buffer.from(value).toString('base64url');
export const encodeJson = (value: unknown) => base64url(JSON.stringify(value));

/** Signs exactly the header and payload given: the tests need tokens no well-behaved signer would produce. */
export function signJwt(
  header: Record<string, unknown>,
  payload: Record<string, unknown>,
  key: SigningKey | string,
): string {
  const input = `${encodeJson(header)}.${encodeJson(payload)}`;
  let signature: Buffer;
  if (typeof key === 'string') signature = createHmac('sha256', key).update(input).digest();
  else if (key.alg === 'RS256') signature = sign('sha256', Buffer.from(input), key.privateKey);
  else signature = sign('sha256', Buffer.from(input), { key: key.privateKey, dsaEncoding: 'ieee-p1363' });
  return `${input}.${base64url(signature)}`;
}

export const nowSeconds = () => Math.floor(Date.now() / 1000);

/** The users tests act as; a test names the one that matters to it and leaves the rest alone. */
export const UserIds = { alice: 'alice', bob: 'bob', carol: 'carol', admin: 'admin' } as const;

/** The scope that lets a token upsert meals. */
export const adminScope = 'meals:write';

/**
 * Builds the HS256 tokens a test sends (an object mother), signed as the server under test verifies them:
 * `const tokens = TokenMother.signedWith(secret)`, then `tokens.user('alice')`, `tokens.admin()`, `tokens.expired()`,
 * and `tokens.bearer(...)` for an authorization header. Issuer and audience, where the server checks them, go in once.
 */
export const TokenMother = {
  signedWith(secret: string, defaults: Omit<Partial<TokenClaims>, 'sub'> = {}) {
    const sign = (claims: TokenClaims) => signHmacToken(secret, { ...defaults, ...claims });
    return {
      /** A user's token: no scope, valid for an hour. */
      user: (sub: string = UserIds.alice, claims: Omit<Partial<TokenClaims>, 'sub'> = {}) => sign({ ...claims, sub }),
      /** A token with the admin scope. */
      admin: (sub: string = UserIds.admin) => sign({ sub, scope: adminScope }),
      /** A user's token that expired a minute ago. */
      expired: (sub: string = UserIds.alice) => sign({ sub, expiresInMs: -60_000 }),
      /** The authorization header value for a token, by default the user's. */
      bearer: (token: string = sign({ sub: UserIds.alice })) => `Bearer ${token}`,
    };
  },
};

/** A local JWKS endpoint on loopback that counts its requests, and whose key set and status a test can change. */
export class JwksServer {
  requests = 0;
  status = 200;
  private keys: SigningKey[];
  private server: Server | undefined;

  constructor(keys: SigningKey[]) {
    this.keys = keys;
  }

  get url(): URL {
    const { port } = this.server!.address() as AddressInfo;
    return new URL(`http://127.0.0.1:${port}/.well-known/jwks.json`);
  }

  publish(keys: SigningKey[]): void {
    this.keys = keys;
  }

  async start(): Promise<this> {
    this.server = createServer((request, response) => {
      this.requests += 1;
      if (this.status !== 200 || request.url !== '/.well-known/jwks.json') {
        response.writeHead(this.status === 200 ? 404 : this.status).end();
        return;
      }
      const keys = this.keys.map((key) => ({
        ...key.publicKey.export({ format: 'jwk' }),
        kid: key.kid,
        alg: key.alg,
        use: 'sig',
      }));
      response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ keys }));
    });
    this.server.listen(0, '127.0.0.1');
    await once(this.server, 'listening');
    return this;
  }

  async stop(): Promise<void> {
    if (this.server === undefined) return;
    this.server.closeAllConnections();
    this.server.close();
    await once(this.server, 'close');
  }
}
