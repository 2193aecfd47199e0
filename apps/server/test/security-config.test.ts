import { createHmac, generateKeyPairSync, randomUUID, sign } from 'node:crypto';
import { once } from 'node:events';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defaultHttpTimeouts, signHmacToken } from '@canteen-meals/adapters-http';
import { MealMother } from '@canteen-meals/repository-contract';
import { afterAll, describe, expect, it, onTestFinished } from 'vitest';
import { buildServer } from '../src/composition-root.js';
import { loadConfig } from '../src/config.js';
import { configProblems } from './support/config-problems.js';

const folder = mkdtempSync(join(tmpdir(), 'meals-security-config-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

const secret = 'security-config-secret-of-32-bytes-or-more';
const issuer = 'https://id.canteen.test';
const rsa = generateKeyPairSync('rsa', { modulusLength: 2048 });
const rsaPublicPem = rsa.publicKey.export({ type: 'spki', format: 'pem' }).toString();

function file(name: string, content: string): string {
  const path = join(folder, name);
  writeFileSync(path, content);
  return path;
}

const rsaKeyFile = file('rsa.pem', rsaPublicPem);

describe('security settings: defaults', () => {
  it('limits 120 requests a minute per user and 600 per address, trusts no proxy, sets every timeout', () => {
    const config = loadConfig({});
    expect(config.rateLimits).toEqual({ userPerMinute: 120, ipPerMinute: 600 });
    expect(config.trustProxy).toBe(false);
    expect(config.httpTimeouts).toEqual(defaultHttpTimeouts);
    expect(config.jwtKey).toEqual({ kind: 'secret' });
    expect(config.jwtClockToleranceMs).toBe(5_000);
    expect(config.jwtMaxLifetimeMs).toBe(24 * 3_600_000);
  });
});

describe('token keys: exactly one source', () => {
  const jwks = 'https://id.canteen.test/.well-known/jwks.json';

  it.each([
    [{ JWT_SECRET: secret, JWT_PUBLIC_KEY_FILE: rsaKeyFile }, 'JWT_SECRET and JWT_PUBLIC_KEY_FILE'],
    [{ JWT_SECRET: secret, JWT_JWKS_URL: jwks, JWT_ISSUER: issuer }, 'JWT_SECRET and JWT_JWKS_URL'],
    [
      { JWT_PUBLIC_KEY_FILE: rsaKeyFile, JWT_JWKS_URL: jwks, JWT_ISSUER: issuer },
      'JWT_PUBLIC_KEY_FILE and JWT_JWKS_URL',
    ],
  ])('refuses two key sources at once (%#)', (env, named) => {
    expect(configProblems(env)).toContain(`Configure exactly one token key, not ${named}`);
  });

  it('needs a key source in production, and any one of the three will do', () => {
    expect(configProblems({ NODE_ENV: 'production' })).toContain('JWT_SECRET is required');
    expect(loadConfig({ NODE_ENV: 'production', JWT_PUBLIC_KEY_FILE: rsaKeyFile }).jwtKey.kind).toBe('public-key');
    expect(loadConfig({ NODE_ENV: 'production', JWT_JWKS_URL: jwks, JWT_ISSUER: issuer }).jwtKey.kind).toBe('jwks');
  });

  it('reads and checks the public key file at start', () => {
    const config = loadConfig({ JWT_PUBLIC_KEY_FILE: rsaKeyFile });
    expect(config.jwtKey).toEqual({ kind: 'public-key', path: rsaKeyFile, pem: rsaPublicPem });
    expect(config.jwtSecretIsDevelopmentDefault).toBe(false);
    expect(configProblems({ JWT_PUBLIC_KEY_FILE: join(folder, 'missing.pem') })).toContain(
      'JWT_PUBLIC_KEY_FILE cannot be read',
    );
    const privatePem = rsa.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
    expect(configProblems({ JWT_PUBLIC_KEY_FILE: file('private.pem', privatePem) })).toContain('private key');
    const p384 = generateKeyPairSync('ec', { namedCurve: 'P-384' }).publicKey.export({ type: 'spki', format: 'pem' });
    expect(configProblems({ JWT_PUBLIC_KEY_FILE: file('p384.pem', p384.toString()) })).toContain('EC P-256');
  });

  it('needs JWT_ISSUER with a JWKS URL, and https in production', () => {
    expect(configProblems({ JWT_JWKS_URL: jwks })).toContain('JWT_JWKS_URL needs JWT_ISSUER');
    expect(configProblems({ JWT_JWKS_URL: 'ftp://id.canteen.test/jwks' })).toContain('http(s) URL');
    expect(
      configProblems({ NODE_ENV: 'production', JWT_JWKS_URL: 'http://id.canteen.test/jwks', JWT_ISSUER: issuer }),
    ).toContain('https');
    const config = loadConfig({ JWT_JWKS_URL: jwks, JWT_ISSUER: issuer, JWT_JWKS_COOLDOWN_S: '10' });
    expect(config.jwtKey).toEqual({ kind: 'jwks', url: new URL(jwks), issuer, cooldownMs: 10_000 });
  });

  it('keeps the clock tolerance at 30 s at most', () => {
    expect(loadConfig({ JWT_CLOCK_TOLERANCE_S: '30' }).jwtClockToleranceMs).toBe(30_000);
    expect(configProblems({ JWT_CLOCK_TOLERANCE_S: '31' })).toContain('JWT_CLOCK_TOLERANCE_S');
  });

  it('takes a maximum token lifetime of 1 to 8760 hours', () => {
    expect(loadConfig({ JWT_MAX_LIFETIME_HOURS: '2' }).jwtMaxLifetimeMs).toBe(2 * 3_600_000);
    expect(configProblems({ JWT_MAX_LIFETIME_HOURS: '0' })).toContain('JWT_MAX_LIFETIME_HOURS');
    expect(configProblems({ JWT_MAX_LIFETIME_HOURS: '8761' })).toContain('JWT_MAX_LIFETIME_HOURS');
  });
});

describe('rate limits, trust proxy and timeouts', () => {
  it('reads the limits, 0 turning one off', () => {
    expect(loadConfig({ RATE_LIMIT_USER_PER_MIN: '0', RATE_LIMIT_IP_PER_MIN: '30' }).rateLimits).toEqual({
      userPerMinute: 0,
      ipPerMinute: 30,
    });
    expect(configProblems({ RATE_LIMIT_IP_PER_MIN: '-1' })).toContain('RATE_LIMIT_IP_PER_MIN');
    expect(configProblems({ RATE_LIMIT_USER_PER_MIN: 'many' })).toContain('RATE_LIMIT_USER_PER_MIN');
  });

  it.each([
    ['false', false],
    ['TRUE', true],
    ['2', 2],
    ['10.0.0.0/8, 192.168.1.7', ['10.0.0.0/8', '192.168.1.7']],
    ['loopback,fd00::/8', ['loopback', 'fd00::/8']],
  ])('reads TRUST_PROXY=%s', (raw, expected) => {
    expect(loadConfig({ TRUST_PROXY: raw }).trustProxy).toEqual(expected);
  });

  it.each([
    'yes',
    '10.0.0.0/33',
    '300.1.1.1',
    'proxy.internal',
    '0',
    '10.0.0.1/8/8',
  ])('refuses TRUST_PROXY=%s', (raw) => {
    expect(configProblems({ TRUST_PROXY: raw })).toContain('TRUST_PROXY');
  });

  it('reads the timeouts and refuses combinations that cannot work', () => {
    const config = loadConfig({
      HTTP_REQUEST_TIMEOUT_MS: '3000',
      HTTP_HEADERS_TIMEOUT_MS: '2000',
      HTTP_KEEP_ALIVE_TIMEOUT_MS: '1000',
      HTTP_CONNECTION_TIMEOUT_MS: '0',
    });
    expect(config.httpTimeouts).toEqual({ requestMs: 3000, headersMs: 2000, keepAliveMs: 1000, connectionIdleMs: 0 });
    expect(configProblems({ HTTP_REQUEST_TIMEOUT_MS: '1000', HTTP_HEADERS_TIMEOUT_MS: '2000' })).toContain(
      'HTTP_HEADERS_TIMEOUT_MS cannot be longer',
    );
    expect(configProblems({ HTTP_KEEP_ALIVE_TIMEOUT_MS: '5000', HTTP_CONNECTION_TIMEOUT_MS: '5000' })).toContain(
      'HTTP_CONNECTION_TIMEOUT_MS',
    );
  });
});

describe('roles from the identity provider', () => {
  it('are off by default: only the scope claim counts', () => {
    expect(loadConfig({}).roleMapping).toBeUndefined();
  });

  it('reads the claim paths and the role mapping', () => {
    const { roleMapping } = loadConfig({
      TOKEN_ROLES_CLAIM: 'realm_access.roles, roles',
      TOKEN_ROLE_SCOPES: 'canteen-admin=meals:write,meals:read-reports;kitchen=meals:kitchen',
    });
    expect(roleMapping?.claimPaths).toEqual(['realm_access.roles', 'roles']);
    expect([...roleMapping!.scopesByRole]).toEqual([
      ['canteen-admin', ['meals:write', 'meals:read-reports']],
      ['kitchen', ['meals:kitchen']],
    ]);
  });

  it('refuses one setting without the other, and unknown scopes, saying what to give', () => {
    expect(configProblems({ TOKEN_ROLES_CLAIM: 'roles' })).toContain('TOKEN_ROLES_CLAIM needs TOKEN_ROLE_SCOPES');
    expect(configProblems({ TOKEN_ROLE_SCOPES: 'kitchen=meals:kitchen' })).toContain(
      'TOKEN_ROLE_SCOPES needs TOKEN_ROLES_CLAIM',
    );
    expect(configProblems({ TOKEN_ROLES_CLAIM: 'roles', TOKEN_ROLE_SCOPES: 'kitchen=meals:cook' })).toContain(
      'TOKEN_ROLE_SCOPES: role "kitchen" names unknown scopes meals:cook',
    );
    expect(configProblems({ TOKEN_ROLES_CLAIM: 'roles,', TOKEN_ROLE_SCOPES: 'kitchen=meals:kitchen' })).toContain(
      'TOKEN_ROLES_CLAIM:',
    );
  });
});

describe('PUBLIC_BASE_URL (issue 39)', () => {
  it('takes an http(s) address, a path allowed, without its trailing slash; refuses a query or anything else', () => {
    expect(loadConfig({}).publicBaseUrl).toBeUndefined();
    expect(loadConfig({ PUBLIC_BASE_URL: 'https://meals.example.org/' }).publicBaseUrl).toBe(
      'https://meals.example.org',
    );
    expect(loadConfig({ PUBLIC_BASE_URL: 'https://example.org/mensa/' }).publicBaseUrl).toBe(
      'https://example.org/mensa',
    );
    expect(configProblems({ PUBLIC_BASE_URL: 'meals.example.org' })).toContain(
      'PUBLIC_BASE_URL must be an http(s) URL',
    );
    expect(configProblems({ PUBLIC_BASE_URL: 'https://meals.example.org/?a=1' })).toContain(
      'PUBLIC_BASE_URL must be the service',
    );
  });
});

describe('TOKEN_SCOPE_CLAIM (issue 39)', () => {
  it('keeps the scope claim by default, turns it off with roles, and refuses off without roles', () => {
    expect(loadConfig({}).scopeClaim).toBe(true);
    const roles = { TOKEN_ROLES_CLAIM: 'roles', TOKEN_ROLE_SCOPES: 'canteen-admin=meals:write' };
    expect(loadConfig({ ...roles, TOKEN_SCOPE_CLAIM: 'off' }).scopeClaim).toBe(false);
    expect(configProblems({ TOKEN_SCOPE_CLAIM: 'off' })).toContain(
      'TOKEN_SCOPE_CLAIM=off needs TOKEN_ROLES_CLAIM and TOKEN_ROLE_SCOPES: without the scope claim, roles are the only source of scopes.',
    );
    expect(configProblems({ TOKEN_SCOPE_CLAIM: 'none' })).toContain('TOKEN_SCOPE_CLAIM');
  });
});

describe("the pages' sign-in settings (OIDC_*)", () => {
  it('reads the issuer and client, with the default scopes; none of them: no sign-in', () => {
    expect(loadConfig({}).signIn).toBeUndefined();
    expect(
      loadConfig({ OIDC_ISSUER: 'https://id.canteen.test/realms/campus', OIDC_CLIENT_ID: 'pages' }).signIn,
    ).toEqual({
      issuer: 'https://id.canteen.test/realms/campus',
      clientId: 'pages',
      scopes: 'openid profile',
      audience: undefined,
    });
    // Kept as written: Auth0's issuer ends in a slash, and the ID token's iss must equal it.
    const auth0 = loadConfig({
      OIDC_ISSUER: 'https://campus.eu.auth0.com/',
      OIDC_CLIENT_ID: 'pages',
      OIDC_SCOPES: ' openid  profile offline_access ',
      OIDC_AUDIENCE: 'https://meals.canteen.test/api',
    }).signIn;
    expect(auth0).toEqual({
      issuer: 'https://campus.eu.auth0.com/',
      clientId: 'pages',
      scopes: 'openid profile offline_access',
      audience: 'https://meals.canteen.test/api',
    });
  });

  it('refuses one without the other, http in production, a query, and scopes without openid', () => {
    expect(configProblems({ OIDC_ISSUER: issuer })).toContain('OIDC_ISSUER needs OIDC_CLIENT_ID');
    expect(configProblems({ OIDC_CLIENT_ID: 'pages' })).toContain('OIDC_CLIENT_ID needs OIDC_ISSUER');
    expect(configProblems({ OIDC_ISSUER: 'ftp://id.canteen.test', OIDC_CLIENT_ID: 'pages' })).toContain(
      'OIDC_ISSUER must be an http(s) URL',
    );
    expect(
      configProblems({
        NODE_ENV: 'production',
        JWT_SECRET: secret,
        OIDC_ISSUER: 'http://id.canteen.test',
        OIDC_CLIENT_ID: 'pages',
      }),
    ).toContain('OIDC_ISSUER must be https when NODE_ENV=production');
    expect(
      loadConfig({
        NODE_ENV: 'production',
        JWT_SECRET: secret,
        OIDC_ISSUER: 'https://id.canteen.test',
        OIDC_CLIENT_ID: 'pages',
      }).signIn?.issuer,
    ).toBe('https://id.canteen.test');
    expect(configProblems({ OIDC_ISSUER: 'https://id.canteen.test/?tenant=1', OIDC_CLIENT_ID: 'pages' })).toContain(
      'without a query',
    );
    expect(configProblems({ OIDC_ISSUER: issuer, OIDC_CLIENT_ID: 'pages', OIDC_SCOPES: 'profile email' })).toContain(
      'OIDC_SCOPES must include openid',
    );
  });
});

describe('the composition root wires the security settings', () => {
  const base = { DATABASE_URL: 'memory:', LOG_LEVEL: 'silent' };
  const rs256 = (payload: Record<string, unknown>, kid?: string) => {
    const header = Buffer.from(
      JSON.stringify({ alg: 'RS256', typ: 'JWT', ...(kid === undefined ? {} : { kid }) }),
    ).toString('base64url');
    const body = Buffer.from(
      JSON.stringify({ exp: Math.floor(Date.now() / 1000) + 600, jti: randomUUID(), ...payload }),
    ).toString('base64url');
    return `${header}.${body}.${sign('sha256', Buffer.from(`${header}.${body}`), rsa.privateKey).toString('base64url')}`;
  };

  async function serverFor(env: Record<string, string>) {
    const server = await buildServer(loadConfig({ ...base, ...env }));
    onTestFinished(() => server.app.close());
    await server.persistence.meals.upsertMany([MealMother.servedAt(new Date(), { id: 1, name: 'Soup' })]);
    const mark = (token: string) =>
      server.app.inject({
        method: 'POST',
        url: '/api/v1/mark-meal',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        payload: { meal_id: 1, marked: true },
      });
    return { ...server, mark };
  }

  it('verifies with the public key file and limits each user as configured', async () => {
    const { mark } = await serverFor({ JWT_PUBLIC_KEY_FILE: rsaKeyFile, RATE_LIMIT_USER_PER_MIN: '2' });
    expect((await mark(rs256({ sub: 'alice' }))).statusCode).toBe(200);
    expect((await mark(signHmacToken(secret, { sub: 'alice' }))).statusCode).toBe(401);
    expect((await mark(rs256({ sub: 'alice' }))).statusCode).toBe(200);
    const limited = await mark(rs256({ sub: 'alice' }));
    expect(limited.statusCode).toBe(429);
    expect(limited.headers['retry-after']).toBeDefined();
  });

  it('verifies with the JWKS endpoint and issuer as configured', async () => {
    let requests = 0;
    const jwks = createServer((_request, response) => {
      requests += 1;
      const jwk = { ...rsa.publicKey.export({ format: 'jwk' }), kid: 'k1', alg: 'RS256', use: 'sig' };
      response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ keys: [jwk] }));
    });
    jwks.listen(0, '127.0.0.1');
    await once(jwks, 'listening');
    onTestFinished(() => void jwks.close());
    const url = `http://127.0.0.1:${(jwks.address() as AddressInfo).port}/jwks.json`;
    const { mark } = await serverFor({ JWT_JWKS_URL: url, JWT_ISSUER: issuer });
    expect((await mark(rs256({ sub: 'alice', iss: issuer }, 'k1'))).statusCode).toBe(200);
    expect((await mark(rs256({ sub: 'alice', iss: 'https://other.test' }, 'k1'))).statusCode).toBe(401);
    expect((await mark(rs256({ sub: 'alice', iss: issuer }, 'k2'))).statusCode).toBe(401);
    expect(requests).toBe(1);
  });

  it('grants the scopes of mapped roles: an admin role opens the admin routes, another role does not', async () => {
    const { app } = await serverFor({
      JWT_SECRET: secret,
      TOKEN_ROLES_CLAIM: 'realm_access.roles',
      TOKEN_ROLE_SCOPES: 'canteen-admin=meals:write;kitchen=meals:kitchen',
    });
    const hs256 = (roles: string[]) => {
      const header = Buffer.from(JSON.stringify({ alg: 'HS256', typ: 'JWT' })).toString('base64url');
      const payload = { sub: 'carol', exp: Math.floor(Date.now() / 1000) + 600, realm_access: { roles } };
      const body = Buffer.from(JSON.stringify(payload)).toString('base64url');
      return `${header}.${body}.${createHmac('sha256', secret).update(`${header}.${body}`).digest('base64url')}`;
    };
    const listWebhooks = (roles: string[]) =>
      app.inject({
        method: 'GET',
        url: '/api/v1/admin/webhooks',
        headers: { authorization: `Bearer ${hs256(roles)}` },
      });
    expect((await listWebhooks(['canteen-admin'])).statusCode).toBe(200);
    expect((await listWebhooks(['kitchen'])).statusCode).toBe(403);
  });
});
