import { describe, expect, it } from 'vitest';
import {
  accessAllows,
  accessAllowsAt,
  audienceParameters,
  displayNameOf,
  isSignInCallback,
  needsRenewal,
  renewalMarginS,
  signInSettingsOf,
  unverifiedClaims,
} from '../src/shared/sign-in-settings.js';
import { signInTexts } from '../src/shared/sign-in-texts.js';

// As a token carries it: the JSON's UTF-8 bytes in base64url.
const base64url = (value: unknown) =>
  btoa(String.fromCharCode(...new TextEncoder().encode(JSON.stringify(value))))
    .replace(/\+/g, '-')
    .replace(/\//g, '_')
    .replace(/=+$/, '');

describe('the sign-in settings from <html data-oidc-*>', () => {
  it('needs both the issuer and the client id; the scopes default to openid profile', () => {
    expect(signInSettingsOf({})).toBeUndefined();
    expect(signInSettingsOf({ oidcIssuer: 'https://id.test' })).toBeUndefined();
    expect(signInSettingsOf({ oidcClientId: 'pages' })).toBeUndefined();
    expect(signInSettingsOf({ oidcIssuer: '', oidcClientId: 'pages' })).toBeUndefined();
    expect(signInSettingsOf({ oidcIssuer: 'https://id.test', oidcClientId: 'pages' })).toEqual({
      issuer: 'https://id.test',
      clientId: 'pages',
      scopes: 'openid profile',
      audience: undefined,
    });
    expect(
      signInSettingsOf({
        oidcIssuer: 'https://id.test',
        oidcClientId: 'pages',
        oidcScopes: 'openid offline_access',
        oidcAudience: 'api',
      }),
    ).toEqual({ issuer: 'https://id.test', clientId: 'pages', scopes: 'openid offline_access', audience: 'api' });
  });
});

describe('renewing the access token', () => {
  const expiresAt = 1_800_000_000;
  it(`renews from ${renewalMarginS} s before it expires, and when expired`, () => {
    expect(needsRenewal(expiresAt, (expiresAt - renewalMarginS - 1) * 1000)).toBe(false);
    expect(needsRenewal(expiresAt, (expiresAt - renewalMarginS) * 1000)).toBe(true);
    expect(needsRenewal(expiresAt, (expiresAt + 3600) * 1000)).toBe(true);
  });
  it('keeps a token that says no expiry (the API decides)', () => {
    expect(needsRenewal(undefined, Date.UTC(2030, 0, 1))).toBe(false);
  });
});

describe('the provider answer in the fragment', () => {
  it('is a code or an error with its state', () => {
    expect(isSignInCallback('#code=abc&state=s1')).toBe(true);
    expect(isSignInCallback('#error=access_denied&state=s1')).toBe(true);
    expect(isSignInCallback('#code=abc')).toBe(false);
    expect(isSignInCallback('#section=feeds')).toBe(false);
    expect(isSignInCallback('')).toBe(false);
  });
});

describe('who a token names', () => {
  it('reads the payload of a JWT without trusting it, and names the person by name, login, mail or subject', () => {
    const token = `${base64url({ alg: 'none' })}.${base64url({ sub: 'u-1', preferred_username: 'jürgen' })}.sig`;
    expect(unverifiedClaims(token)).toEqual({ sub: 'u-1', preferred_username: 'jürgen' });
    expect(displayNameOf(unverifiedClaims(token), '?')).toBe('jürgen');
    expect(displayNameOf({ sub: 'u-1', name: 'Ada Admin' }, '?')).toBe('Ada Admin');
    expect(displayNameOf({ sub: 'u-1' }, '?')).toBe('u-1');
    expect(displayNameOf(unverifiedClaims('not a token'), '?')).toBe('?');
    expect(unverifiedClaims('a.bm90IGpzb24.c')).toBeUndefined();
  });
});

describe('the sign-in texts', () => {
  it('say the same things in German and English', () => {
    expect(Object.keys(signInTexts.de).sort()).toEqual(Object.keys(signInTexts.en).sort());
    expect(signInTexts.de.notAllowed('Nora', 'meals:write')).toContain('meals:write');
    expect(signInTexts.en.notAllowedAnswer(403)).toContain('403');
  });
});

describe('accessAllows (what GET /me/access granted, against what a page needs)', () => {
  const at = (canteens: Record<string, string[]>, global: string[] = []) => ({ global, canteens });
  const admin = at({}, ['meals:write', 'meals:manage', 'meals:kitchen', 'meals:read-reports']);

  it("lets the kitchen's page in with the kitchen's scope at some canteen or at all, and nothing else", () => {
    expect(accessAllows(at({ 'mensa-nord': ['meals:kitchen'] }), 'meals:kitchen')).toBe(true);
    expect(accessAllows(at({}, ['meals:kitchen']), 'meals:kitchen')).toBe(true);
    expect(accessAllows(admin, 'meals:kitchen')).toBe(true);
    expect(accessAllows(at({ 'mensa-nord': ['meals:read-reports'] }, ['meals:read-reports']), 'meals:kitchen')).toBe(
      false,
    );
    expect(accessAllows(at({}), 'meals:kitchen')).toBe(false);
  });

  it("lets the console in with a manager's scope at some canteen, or the administrator's: the kitchen's is less", () => {
    expect(accessAllows(admin, 'meals:manage')).toBe(true);
    expect(
      accessAllows(at({ 'mensa-nord': ['meals:manage', 'meals:kitchen', 'meals:read-reports'] }), 'meals:manage'),
    ).toBe(true);
    expect(accessAllows(at({ 'mensa-nord': ['meals:kitchen'] }, ['meals:read-reports']), 'meals:manage')).toBe(false);
  });

  it('tells one canteen from another', () => {
    const kitchen = at({ 'mensa-nord': ['meals:kitchen'] });
    expect(accessAllowsAt(kitchen, 'meals:kitchen', 'mensa-nord')).toBe(true);
    expect(accessAllowsAt(kitchen, 'meals:kitchen', 'mensa-sued')).toBe(false);
    expect(accessAllowsAt(admin, 'meals:write', 'mensa-sued')).toBe(true);
  });
});

describe('the API named in the sign-in requests (issue 39)', () => {
  it('sends RFC 8707 resource only for an absolute URI, and audience always', () => {
    expect(audienceParameters(undefined)).toEqual({});
    // Keycloak's style: an audience that is no URI; a provider refuses it as resource (invalid_target).
    expect(audienceParameters('meals-api')).toEqual({ extraQueryParams: { audience: 'meals-api' } });
    expect(audienceParameters('https://meals.example.org/api')).toEqual({
      resource: 'https://meals.example.org/api',
      extraQueryParams: { audience: 'https://meals.example.org/api' },
      extraTokenParams: { resource: 'https://meals.example.org/api' },
    });
    expect(audienceParameters('urn:meals:api')).toMatchObject({ resource: 'urn:meals:api' });
    // RFC 8707 §2: a resource must not hold a fragment.
    expect(audienceParameters('https://meals.example.org/#api')).toEqual({
      extraQueryParams: { audience: 'https://meals.example.org/#api' },
    });
  });
});
