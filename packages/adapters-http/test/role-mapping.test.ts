import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createJwksTokenVerifier,
  parseRoleClaimPaths,
  parseRoleScopes,
  grantsOfToken,
  rolesIn,
  scopesGrantedBy,
  splitCanteenSuffix,
  type RoleMapping,
  type TokenVerifier,
} from '../src/index.js';
import { buildAppWith } from './app-with.js';
import { JwksServer, nowSeconds, rsaKey, signJwt } from '../../adapters-jwt/test/token-fixtures.js';

// Roles as identity providers write them, turned into this service's scopes by TOKEN_ROLES_CLAIM and TOKEN_ROLE_SCOPES.

const issuer = 'https://id.university.test/realms/campus';
const key = rsaKey('campus-1');
const jwks = new JwksServer([key]);
const namespacedClaim = 'https://meals.example/roles';

const mapping: RoleMapping = {
  claimPaths: parseRoleClaimPaths(
    `realm_access.roles,resource_access.meals-api.roles,roles,permissions,${namespacedClaim}`,
  ),
  scopesByRole: parseRoleScopes(
    'canteen-admin=meals:write,meals:read-reports;kitchen=meals:kitchen;Meals.Report=meals:read-reports',
  ),
};

let verify: TokenVerifier;
beforeAll(async () => {
  await jwks.start();
  verify = createJwksTokenVerifier({ issuer, jwksUrl: jwks.url, roleMapping: mapping });
});
afterAll(() => jwks.stop());

const tokenWith = (claims: Record<string, unknown>) =>
  signJwt(
    { alg: 'RS256', typ: 'JWT', kid: key.kid },
    { iss: issuer, sub: 'u-1', iat: nowSeconds(), exp: nowSeconds() + 300, ...claims },
    key,
  );

const scopesOf = async (claims: Record<string, unknown>) => [...(await verify(tokenWith(claims))).scopes].sort();

describe('tokens shaped as identity providers issue them', () => {
  it('Keycloak: realm roles and client roles, beside its own space-separated scope claim', async () => {
    const keycloak = {
      typ: 'Bearer',
      azp: 'meals-console',
      scope: 'openid profile email',
      realm_access: { roles: ['offline_access', 'uma_authorization', 'kitchen'] },
      resource_access: { 'meals-api': { roles: ['canteen-admin'] }, account: { roles: ['manage-account'] } },
    };
    expect(await scopesOf(keycloak)).toEqual([
      'email',
      'meals:kitchen',
      'meals:read-reports',
      'meals:write',
      'openid',
      'profile',
    ]);
  });

  it('Entra ID: app roles in `roles`, delegated permissions in `scp` (not a scope claim of ours)', async () => {
    const entra = { ver: '2.0', tid: 'c0ffee', roles: ['Meals.Report'], scp: 'meals:write' };
    expect(await scopesOf(entra)).toEqual(['meals:read-reports']);
  });

  it('Auth0: RBAC permissions and a namespaced claim whose name holds dots', async () => {
    const auth0 = {
      permissions: ['kitchen'],
      [namespacedClaim]: ['canteen-admin'],
      azp: 'abc',
      gty: 'client-credentials',
    };
    expect(await scopesOf(auth0)).toEqual(['meals:kitchen', 'meals:read-reports', 'meals:write']);
  });

  it('roles that the mapping does not name grant nothing, and a token without roles keeps its scope claim only', async () => {
    expect(await scopesOf({ realm_access: { roles: ['meals:write', 'admin'] } })).toEqual([]);
    expect(await scopesOf({ scope: 'meals:write' })).toEqual(['meals:write']);
  });
});

describe('TOKEN_SCOPE_CLAIM=off (issue 39): roles are the only source', () => {
  it('ignores a scope claim that asks for meals:write, and still grants what the roles map to, on the routes too', async () => {
    const rolesOnly = createJwksTokenVerifier({ issuer, jwksUrl: jwks.url, roleMapping: mapping, scopeClaim: false });
    const asked = tokenWith({ scope: 'openid meals:write', realm_access: { roles: ['kitchen'] } });
    expect([...(await rolesOnly(asked)).scopes]).toEqual(['meals:kitchen']);
    expect([...(await verify(asked)).scopes].sort()).toEqual(['meals:kitchen', 'meals:write', 'openid']);
    const { app } = await buildAppWith({ verifyToken: rolesOnly });
    try {
      const webhooks = await app.inject({
        method: 'GET',
        url: '/api/v1/admin/webhooks',
        headers: { authorization: `Bearer ${asked}` },
      });
      expect([webhooks.statusCode, webhooks.json().error.code]).toEqual([403, 'forbidden']);
      const admin = tokenWith({ scope: 'meals:kitchen', realm_access: { roles: ['canteen-admin'] } });
      expect(
        (
          await app.inject({
            method: 'GET',
            url: '/api/v1/admin/webhooks',
            headers: { authorization: `Bearer ${admin}` },
          })
        ).statusCode,
      ).toBe(200);
    } finally {
      await app.close();
    }
  });
});

describe('reading roles', () => {
  it('takes arrays and space-separated strings, and ignores what is neither', () => {
    const payload = { a: { b: 'x y  z' }, c: ['p', 7, null, 'q'], d: 42, e: { f: { g: ['deep'] } } };
    expect(rolesIn(payload, ['a.b', 'c', 'd', 'e.f.g', 'missing.path', 'a.b.c'])).toEqual([
      'x',
      'y',
      'z',
      'p',
      'q',
      'deep',
    ]);
  });

  it('grants the union of the scopes of every mapped role it finds', () => {
    expect(scopesGrantedBy({ roles: ['kitchen', 'canteen-admin'] }, mapping)).toEqual([
      'meals:kitchen',
      'meals:write',
      'meals:read-reports',
    ]);
  });

  it('grants a role written ROLE@CANTEEN_ID the scopes of ROLE at that canteen only; a role without @ at all', () => {
    const grants = grantsOfToken(
      [],
      {
        realm_access: {
          roles: ['kitchen@mensa-nord', 'Meals.Report@mensa-sued', 'Meals.Report', 'unknown@mensa-nord'],
        },
        roles: ['canteen-admin@mensa-west'],
      },
      mapping,
    );
    expect([...grants.global]).toEqual(['meals:read-reports']);
    expect(Object.fromEntries([...grants.byCanteen].map(([canteen, scopes]) => [canteen, [...scopes]]))).toEqual({
      'mensa-nord': ['meals:kitchen'],
      'mensa-west': ['meals:write'],
    });
  });

  it('reads a role whose text after @ is no canteen id, or that is mapped with its @, as a role for all canteens', () => {
    const withAt: RoleMapping = {
      claimPaths: ['roles'],
      scopesByRole: parseRoleScopes('staff@campus=meals:kitchen;kitchen=meals:kitchen'),
    };
    const grants = grantsOfToken([], { roles: ['staff@campus', 'kitchen@Mensa Nord'] }, withAt);
    expect([...grants.global]).toEqual(['meals:kitchen']);
    expect(grants.byCanteen.size).toBe(0);
    expect(splitCanteenSuffix('kitchen@mensa-nord')).toEqual({ name: 'kitchen', canteenId: 'mensa-nord' });
    expect(splitCanteenSuffix('@mensa-nord')).toEqual({ name: '@mensa-nord', canteenId: null });
  });

  it('takes SCOPE@CANTEEN_ID in the scope claim as that scope at that canteen', () => {
    const grants = grantsOfToken(['openid', 'meals:manage@mensa-nord', 'meals:kitchen', 'email@x'], {}, undefined);
    expect([...grants.global]).toEqual(['meals:kitchen']);
    expect([...(grants.byCanteen.get('mensa-nord') ?? [])]).toEqual(['meals:manage']);
  });

  it('never reads inherited properties as claims', () => {
    expect(rolesIn({}, ['constructor', 'toString', '__proto__'])).toEqual([]);
  });
});

describe('the settings', () => {
  it('refuses malformed claim paths', () => {
    for (const text of ['', 'roles,', 'realm_access..roles', '.roles']) {
      expect(() => parseRoleClaimPaths(text), text).toThrow(/claim paths/);
    }
  });

  it('refuses malformed mappings, unknown scopes and roles mapped twice, naming the problem', () => {
    expect(() => parseRoleScopes('canteen-admin')).toThrow(/role=scope/);
    expect(() => parseRoleScopes('=meals:write')).toThrow(/role=scope/);
    expect(() => parseRoleScopes('admin=')).toThrow(/role=scope/);
    expect(() => parseRoleScopes('admin=meals:wirte')).toThrow(
      'role "admin" names unknown scopes meals:wirte (known: meals:write, meals:read-reports, meals:kitchen, meals:manage)',
    );
    expect(() => parseRoleScopes('a=meals:write;a=meals:kitchen')).toThrow('role "a" is mapped twice');
    expect(() => parseRoleScopes(' ; ')).toThrow(/no role is mapped/);
  });

  it('keeps roles that hold `=` and trims around separators', () => {
    expect([...parseRoleScopes(' cn=admins,ou=staff = meals:write ; kitchen=meals:kitchen ').entries()]).toEqual([
      ['cn=admins,ou=staff', ['meals:write']],
      ['kitchen', ['meals:kitchen']],
    ]);
  });
});

describe('scopes from roles on the routes', () => {
  it('a mapped admin role opens the admin routes; the kitchen role does not (403); no token is 401', async () => {
    const { app } = await buildAppWith({ verifyToken: verify });
    try {
      const list = (claims: Record<string, unknown> | null) =>
        app.inject({
          method: 'GET',
          url: '/api/v1/admin/webhooks',
          headers: claims === null ? {} : { authorization: `Bearer ${tokenWith(claims)}` },
        });
      expect((await list({ realm_access: { roles: ['canteen-admin'] } })).statusCode).toBe(200);
      const kitchen = await list({ realm_access: { roles: ['kitchen'] } });
      expect([kitchen.statusCode, kitchen.json().error.code]).toEqual([403, 'forbidden']);
      expect((await list(null)).statusCode).toBe(401);
    } finally {
      await app.close();
    }
  });

  it('GET /me/access says who the token names and the scopes it has here, the mapped ones among them', async () => {
    const { app } = await buildAppWith({ verifyToken: verify });
    try {
      const access = (claims: Record<string, unknown> | null) =>
        app.inject({
          method: 'GET',
          url: '/api/v1/me/access',
          headers: claims === null ? {} : { authorization: `Bearer ${tokenWith(claims)}` },
        });
      const admin = await access({ realm_access: { roles: ['canteen-admin'] }, scope: 'openid profile' });
      expect(admin.statusCode).toBe(200);
      // Sorted, and only the scopes this service knows: `openid` and `profile` grant nothing here.
      expect(admin.json()).toEqual({
        status: 'success',
        data: {
          user: 'u-1',
          scopes: ['meals:read-reports', 'meals:write'],
          global: ['meals:write', 'meals:manage', 'meals:kitchen', 'meals:read-reports'],
          canteens: {},
        },
      });
      // The caller's own answer: no shared cache may keep it.
      expect(admin.headers['cache-control']).toBe('private, no-store');
      expect((await access({ roles: ['Meals.Report'], scope: 'meals:kitchen' })).json().data.scopes).toEqual([
        'meals:kitchen',
        'meals:read-reports',
      ]);
      expect((await access({ realm_access: { roles: ['student'] } })).json().data).toEqual({
        user: 'u-1',
        scopes: [],
        global: [],
        canteens: {},
      });
      // The test menu's canteen is `default`: a kitchen role there is listed, one for a canteen that does not exist
      // not.
      const kitchen = await access({ realm_access: { roles: ['kitchen@default', 'kitchen@nowhere'] } });
      expect(kitchen.json().data).toEqual({
        user: 'u-1',
        scopes: [],
        global: [],
        canteens: { default: ['meals:kitchen'] },
      });
      const anonymous = await access(null);
      expect([anonymous.statusCode, anonymous.json().error.code]).toEqual([401, 'unauthenticated']);
    } finally {
      await app.close();
    }
  });
});
