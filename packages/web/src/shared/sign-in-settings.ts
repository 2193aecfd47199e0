// What the page's HTML tells the script about signing in (the server writes the OIDC_* settings as data-* attributes
// on <html>), and the small decisions around tokens that do not need a browser: unit-tested in test/sign-in.test.ts.

/** Who is signed in, and the access token for the API calls (renewed before it expires). */
export interface Session {
  readonly user: string;
  getToken(): Promise<string>;
  signOut(): Promise<void>;
}

/** The identity provider the page signs in with; absent when the server has no OIDC_ISSUER and OIDC_CLIENT_ID. */
export interface SignInSettings {
  readonly issuer: string;
  readonly clientId: string;
  readonly scopes: string;
  /** The API the access token is for (`audience` for Auth0, `resource` per RFC 8707); undefined: none asked. */
  readonly audience: string | undefined;
}

/** The settings from <html data-oidc-issuer data-oidc-client-id data-oidc-scopes data-oidc-audience>. */
export function signInSettingsOf(
  data: DOMStringMap | Readonly<Record<string, string | undefined>>,
): SignInSettings | undefined {
  const issuer = data.oidcIssuer;
  const clientId = data.oidcClientId;
  if (issuer === undefined || issuer === '' || clientId === undefined || clientId === '') return undefined;
  const audience = data.oidcAudience;
  return {
    issuer,
    clientId,
    scopes: data.oidcScopes || 'openid profile',
    audience: audience === '' ? undefined : audience,
  };
}

/** Renewed this long before it expires: a call started just before must not arrive with an expired token. */
export const renewalMarginS = 30;

/**
 * Whether an access token expiring at `expiresAt` (seconds since the epoch; undefined: not said) needs renewing now.
 */
export function needsRenewal(expiresAt: number | undefined, nowMs: number): boolean {
  return expiresAt !== undefined && expiresAt * 1000 - renewalMarginS * 1000 <= nowMs;
}

/**
 * The claims of a JWT's payload, read without verifying it (only to name and time a pasted token; the API verifies).
 */
export function unverifiedClaims(token: string): Readonly<Record<string, unknown>> | undefined {
  const payload = token.split('.')[1];
  if (payload === undefined) return undefined;
  try {
    const base64 = payload.replace(/-/g, '+').replace(/_/g, '/');
    const json = new TextDecoder().decode(Uint8Array.from(atob(base64), (character) => character.charCodeAt(0)));
    const claims: unknown = JSON.parse(json);
    return typeof claims === 'object' && claims !== null && !Array.isArray(claims)
      ? (claims as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}

/** Whom to show as signed in: the person's name as the provider gives it, else their login, mail or subject. */
export function displayNameOf(claims: Readonly<Record<string, unknown>> | undefined, fallback: string): string {
  for (const claim of ['name', 'preferred_username', 'email', 'sub']) {
    const value = claims?.[claim];
    if (typeof value === 'string' && value.trim() !== '') return value;
  }
  return fallback;
}

/**
 * Whether this URL is the provider's answer to a sign-in of this page: with response_mode=fragment it comes back as
 * `#code=…&state=…` (or `#error=…&state=…`), which no server sees.
 */
export function isSignInCallback(hash: string): boolean {
  const answer = new URLSearchParams(hash.startsWith('#') ? hash.slice(1) : hash);
  return answer.has('state') && (answer.has('code') || answer.has('error'));
}

/** What `GET /me/access` answers of a token: its scopes at every canteen and per canteen, implied ones included. */
export interface PageAccess {
  readonly global: readonly string[];
  readonly canteens: Readonly<Record<string, readonly string[]>>;
}

/**
 * Whether what the API grants a token (`GET /me/access`) allows what a page needs, at some canteen at least. The API
 * answers the implied scopes too (`meals:write` implies the kitchen's, so an administrator may work the kitchen's
 * page).
 */
export function accessAllows(access: PageAccess, required: string): boolean {
  return access.global.includes(required) || Object.values(access.canteens).some((held) => held.includes(required));
}

/** Whether the access allows `required` at one canteen (for every canteen included). */
export function accessAllowsAt(access: PageAccess, required: string, canteenId: string): boolean {
  return access.global.includes(required) || (access.canteens[canteenId]?.includes(required) ?? false);
}

/**
 * What the authorization and token requests carry to name the API the access token is for: `audience` (Auth0's
 * parameter, any string) always, and RFC 8707's `resource` only when the audience is an absolute URI without a
 * fragment, as that RFC demands: a provider refuses `resource=meals-api` (Keycloak's style of audience) with
 * `invalid_target`, and sign-in failed.
 */
export function audienceParameters(audience: string | undefined): {
  readonly resource?: string;
  readonly extraQueryParams?: Record<string, string>;
  readonly extraTokenParams?: Record<string, string>;
} {
  if (audience === undefined) return {};
  if (!/^[A-Za-z][A-Za-z0-9+.-]*:[^#]*$/.test(audience)) return { extraQueryParams: { audience } };
  return { resource: audience, extraQueryParams: { audience }, extraTokenParams: { resource: audience } };
}
