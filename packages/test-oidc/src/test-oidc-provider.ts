import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import Provider, { type Configuration } from 'oidc-provider';

/** A person at the test provider: their login (the subject), name and the roles their access tokens carry. */
export interface TestUser {
  readonly login: string;
  readonly name: string;
  readonly roles: readonly string[];
}

/** The three people the sign-in tests need: an admin, a kitchen worker, and someone with no role at all. */
export const testUsers = {
  admin: { login: 'ada', name: 'Ada Admin', roles: ['canteen-admin'] },
  kitchen: { login: 'kim', name: 'Kim Kitchen', roles: ['kitchen'] },
  nobody: { login: 'nora', name: 'Nora Nobody', roles: [] },
} as const satisfies Record<string, TestUser>;

/** The roles as the service is told to read them: Keycloak's realm roles, and what each grants. */
export const testRoleSettings = {
  TOKEN_ROLES_CLAIM: 'realm_access.roles',
  TOKEN_ROLE_SCOPES: 'canteen-admin=meals:write,meals:read-reports;kitchen=meals:kitchen',
} as const;

export interface TestOidcOptions {
  /** The API the access tokens are for: their `aud`, and the resource (RFC 8707) the pages ask for. */
  readonly audience: string;
  readonly users?: readonly TestUser[];
  /** Lifetime of access tokens; default 10 minutes. */
  readonly accessTokenTtlS?: number;
}

export interface TestOidcProvider {
  /** `http://127.0.0.1:<port>`: the issuer, its discovery below it. */
  readonly issuer: string;
  readonly jwksUrl: string;
  readonly audience: string;
  readonly clientId: string;
  /**
   * Registers the pages of the server at `origin` as a public client (PKCE, no secret) with `/` (the students' app),
   * `/admin` and `/dashboard`
   * as redirect and post-logout URIs, and starts answering. Separate from the start because the server's settings
   * need the issuer before its own address exists.
   */
  registerPages(origin: string): void;
  close(): Promise<void>;
}

const clientId = 'canteen-meals-pages';
const pagePaths = ['/', '/admin', '/dashboard'];

/**
 * A real OpenID provider (panva's oidc-provider) on 127.0.0.1: discovery, authorization code with PKCE, refresh tokens,
 * end session, and JWT access tokens for the API's audience that carry the person's roles where Keycloak puts them
 * (`realm_access.roles`). Login and consent are oidc-provider's development screens (any password is accepted; the
 * login names the person): a test fills them in the browser as a person would.
 */
export async function startTestOidcProvider(options: TestOidcOptions): Promise<TestOidcProvider> {
  const users = new Map((options.users ?? Object.values(testUsers)).map((user) => [user.login, user]));
  let handle: ((request: IncomingMessage, response: ServerResponse) => void) | undefined;
  const server = createServer((request, response) => {
    if (handle !== undefined) return handle(request, response);
    response.writeHead(503).end('the test provider has no client yet: call registerPages');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const signingKey = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ format: 'jwk' });

  function registerPages(origin: string) {
    const uris = pagePaths.map((path) => `${origin}${path}`);
    const configuration: Configuration = {
      clients: [
        {
          client_id: clientId,
          token_endpoint_auth_method: 'none',
          grant_types: ['authorization_code', 'refresh_token'],
          response_types: ['code'],
          redirect_uris: uris,
          post_logout_redirect_uris: uris,
        },
      ],
      jwks: { keys: [{ ...signingKey, kid: 'test-key', alg: 'RS256', use: 'sig' }] },
      cookies: { keys: [randomBytes(32).toString('base64url')] },
      claims: { openid: ['sub'], profile: ['name', 'preferred_username'] },
      // The person's name in the ID token, where the pages read it (they ask no userinfo).
      conformIdTokenClaims: false,
      async findAccount(_context, id) {
        const user = users.get(id);
        if (user === undefined) return undefined;
        return { accountId: id, claims: async () => ({ sub: id, name: user.name, preferred_username: id }) };
      },
      features: {
        devInteractions: { enabled: true },
        resourceIndicators: {
          enabled: true,
          defaultResource: async () => options.audience,
          useGrantedResource: async () => true,
          getResourceServerInfo: async (_context, resource) => {
            if (resource !== options.audience) throw new Error(`unknown resource ${resource}`);
            return {
              scope: 'meals',
              audience: options.audience,
              accessTokenFormat: 'jwt',
              accessTokenTTL: options.accessTokenTtlS ?? 600,
              jwt: { sign: { alg: 'RS256' } },
            };
          },
        },
      },
      // The pages are a public client on another origin: they call the token endpoint with CORS.
      clientBasedCORS: (_context, requestOrigin) => requestOrigin === origin,
      // Refresh tokens for the pages without `offline_access`, as Keycloak gives them.
      issueRefreshToken: async (_context, client) => client.grantTypeAllowed('refresh_token'),
      // Roles where Keycloak carries them, for TOKEN_ROLES_CLAIM=realm_access.roles.
      extraTokenClaims: async (_context, token) => {
        const user =
          'accountId' in token && typeof token.accountId === 'string' ? users.get(token.accountId) : undefined;
        return user === undefined ? undefined : { realm_access: { roles: [...user.roles] } };
      },
      // Every lifetime said (oidc-provider notes each one left to its default): a test's session, not a deployment's.
      ttl: {
        AccessToken: options.accessTokenTtlS ?? 600,
        AuthorizationCode: 60,
        Grant: 3600,
        IdToken: 3600,
        Interaction: 600,
        RefreshToken: 3600,
        Session: 3600,
      },
    };
    const provider = new Provider(issuer, configuration);
    handle = provider.callback();
  }

  return {
    issuer,
    jwksUrl: `${issuer}/jwks`,
    audience: options.audience,
    clientId,
    registerPages,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}
