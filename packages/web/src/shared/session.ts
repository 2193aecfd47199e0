// Who uses a page, and the access token its API calls carry. With the server's OIDC_ISSUER and OIDC_CLIENT_ID, the page
// signs in at the identity provider with oidc-client-ts (authorization code with PKCE, a public client, the provider's
// endpoints from its discovery); without them it says how to configure them and takes a pasted token. Tokens live in
// sessionStorage only: gone with the tab, never in localStorage or a cookie.
import './sign-in.css';
import { MealsApiError } from '@canteen-meals/client';
import { UserManager, WebStorageStateStore, type User } from 'oidc-client-ts';
import { messageOf, pageClient } from './api.js';
import { element } from './dom.js';
import type { Language } from './language.js';
import {
  accessAllows,
  audienceParameters,
  displayNameOf,
  isSignInCallback,
  needsRenewal,
  signInSettingsOf,
  unverifiedClaims,
  type SignInSettings,
} from './sign-in-settings.js';
import { signInTexts, type SignInTexts } from './sign-in-texts.js';

export interface Session {
  readonly user: string;
  getToken(): Promise<string>;
  signOut(): Promise<void>;
}

export type RequiredScope = 'meals:write' | 'meals:kitchen';

export interface SessionOptions {
  readonly language: Language;
  readonly requiredScope: RequiredScope;
  /**
   * A call that needs the scope, made once signed in: a 403 shows the not-allowed screen. Default: for `meals:write`
   * the admin's canteen list; for `meals:kitchen` `GET /me/access`, whose scopes must allow it (see accessAllows).
   */
  readonly probe?: (getToken: () => Promise<string>) => Promise<unknown>;
}

/** Where a pasted token is kept (this tab only). */
const pastedTokenKey = 'canteen-meals.token';

/** Resolves with a session, or renders a sign-in/how-to-configure/not-allowed screen into `root` and resolves null. */
export async function startSession(root: HTMLElement, options: SessionOptions): Promise<Session | null> {
  const t = signInTexts[options.language];
  const settings = signInSettingsOf(document.documentElement.dataset);
  const session = settings === undefined ? pastedTokenSession() : await providerSession(root, settings, t);
  if (session === null) {
    if (settings === undefined) notConfiguredScreen(root, options, t);
    return null;
  }
  const probe = options.probe ?? defaultProbe(options.requiredScope);
  if (probe !== undefined) {
    try {
      await probe(() => session.getToken());
    } catch (error) {
      if (error instanceof NotAllowed || (error instanceof MealsApiError && error.status === 403)) {
        notAllowedScreen(root, { ...options, session, ...(error instanceof MealsApiError ? { status: error.status } : {}) });
        return null;
      }
      if (error instanceof MealsApiError && error.status === 401 && settings === undefined) {
        // A pasted token the API refuses (expired, another issuer): ask for another one.
        sessionStorage.removeItem(pastedTokenKey);
        notConfiguredScreen(root, options, t, t.pasteRejected(error.message));
        return null;
      }
      // Anything else (the API down for a moment) is the page's to show: it makes the same call and says why.
    }
  }
  return session;
}

/**
 * The screen for someone signed in whose account lacks the scope (the API answered 403): who they are, what is
 * missing, and a way to sign out (to sign in as someone else). Exported for pages that learn it from a later call.
 */
export function notAllowedScreen(
  root: HTMLElement,
  context: { language: Language; requiredScope: RequiredScope; session: Session; status?: number },
): void {
  const t = signInTexts[context.language];
  const box = screen(root, 'not-allowed', t.notAllowedHeading);
  box.append(element('p', '', t.notAllowed(context.session.user, context.requiredScope)));
  if (context.status !== undefined) box.append(element('p', 'sign-in-detail', t.notAllowedAnswer(context.status)));
  box.append(element('p', '', t.notAllowedHelp));
  box.append(button(t.signOut, () => void context.session.signOut()));
}

/** The API granted the token less than the page needs (its scopes after the role mapping). */
class NotAllowed extends Error {}

/**
 * The administrator's pages ask for the admin's canteen list, which answers 403 to anyone else. The kitchen's has no
 * such read: it asks the API what the token may do here (its scopes after the role mapping, which the page cannot
 * do itself) and refuses when the kitchen's scope is not among them.
 */
function defaultProbe(scope: RequiredScope): SessionOptions['probe'] {
  if (scope === 'meals:write') return (getToken) => pageClient(getToken).listAdminCanteens();
  return async (getToken) => {
    const access = await pageClient(getToken).getMyAccess();
    if (!accessAllows(access.scopes, scope)) {
      throw new NotAllowed();
    }
  };
}

/** The identity provider's session, after handling its answer when the browser comes back from signing in. */
async function providerSession(root: HTMLElement, settings: SignInSettings, t: SignInTexts): Promise<Session | null> {
  // The page itself, without query or fragment, is the redirect URI: what the provider has registered exactly.
  const pageUrl = `${location.origin}${location.pathname}`;
  const store = new WebStorageStateStore({ store: sessionStorage });
  const audience = settings.audience;
  const manager = new UserManager({
    authority: settings.issuer,
    client_id: settings.clientId,
    redirect_uri: pageUrl,
    post_logout_redirect_uri: pageUrl,
    response_type: 'code',
    // The answer in the fragment: no server (nor its access log) sees the code, and the pages' query stays theirs.
    response_mode: 'fragment',
    scope: settings.scopes,
    userStore: store,
    stateStore: store,
    // The access token is for the API, not the provider's userinfo; the ID token names the person.
    loadUserInfo: false,
    // Both use an iframe at the provider, which the pages' CSP (frames: none) refuses; getToken renews instead.
    automaticSilentRenew: false,
    monitorSession: false,
    ...audienceParameters(audience),
  });

  if (isSignInCallback(location.hash)) {
    try {
      const user = await manager.signinRedirectCallback(location.href);
      const asked = (user.state as { back?: string } | undefined)?.back;
      const back = asked !== undefined && asked.startsWith(pageUrl) ? asked : pageUrl;
      if (back !== pageUrl) {
        // The page as it was asked for (its ?lang= chooses the server's language): loaded again, signed in now.
        location.replace(back);
        return new Promise<never>(() => {});
      }
      history.replaceState(null, '', pageUrl);
    } catch (error) {
      history.replaceState(null, '', pageUrl);
      signInScreen(root, t, manager, t.signInFailed(messageOf(error)));
      return null;
    }
  }
  const user = await manager.getUser();
  if (user === null) {
    signInScreen(root, t, manager);
    return null;
  }
  return {
    user: displayNameOf(user.profile, user.profile.sub),
    getToken: renewingToken(manager),
    async signOut() {
      // Ends the session at the provider where it offers that (end_session_endpoint), else here only.
      const endSession = await manager.metadataService.getEndSessionEndpoint().catch(() => undefined);
      if (endSession === undefined) {
        await manager.removeUser();
        location.assign(pageUrl);
        return;
      }
      await manager.signoutRedirect();
    },
  };
}

/**
 * The access token, renewed when it is about to expire: with the refresh token where the provider gave one, else (or
 * when the refresh is refused) by signing in again, which comes back to this page. One renewal at a time.
 */
function renewingToken(manager: UserManager): () => Promise<string> {
  let renewal: Promise<string> | null = null;
  const renew = async (user: User | null): Promise<string> => {
    if (user?.refresh_token) {
      try {
        const renewed = await manager.signinSilent();
        if (renewed !== null) return renewed.access_token;
      } catch {
        // Refused (revoked, expired, the provider restarted): sign in again below.
      }
    }
    await manager.removeUser();
    await signInRedirect(manager);
    // The browser is on its way to the provider; the call that asked waits for nothing.
    return new Promise<string>(() => {});
  };
  return async () => {
    const user = await manager.getUser();
    if (user !== null && !needsRenewal(user.expires_at, Date.now())) return user.access_token;
    renewal ??= renew(user).finally(() => {
      renewal = null;
    });
    return renewal;
  };
}

/** Off to the provider, to come back to this very URL (its query: the language, the page's own parameters). */
function signInRedirect(manager: UserManager): Promise<void> {
  return manager.signinRedirect({ state: { back: location.href.split('#')[0] } });
}

function signInScreen(root: HTMLElement, t: SignInTexts, manager: UserManager, problem?: string) {
  const box = screen(root, 'sign-in', t.signInHeading);
  box.append(element('p', '', t.signInIntro));
  if (problem !== undefined) box.append(alert(problem));
  const go = button(problem === undefined ? t.signIn : t.tryAgain, () => {
    go.disabled = true;
    go.textContent = t.signingIn;
    signInRedirect(manager).catch((error: unknown) => {
      go.disabled = false;
      go.textContent = t.tryAgain;
      box.append(alert(t.signInFailed(messageOf(error))));
    });
  });
  box.append(go);
  go.focus();
}

/** A pasted token's session: the token as given; the API decides what it may do. */
function pastedTokenSession(): Session | null {
  const token = sessionStorage.getItem(pastedTokenKey);
  if (token === null || token === '') return null;
  return {
    user: displayNameOf(unverifiedClaims(token), '?'),
    getToken: async () => token,
    async signOut() {
      sessionStorage.removeItem(pastedTokenKey);
      location.reload();
    },
  };
}

function notConfiguredScreen(root: HTMLElement, options: SessionOptions, t: SignInTexts, problem?: string) {
  const box = screen(root, 'not-configured', t.notConfiguredHeading);
  box.append(element('p', '', t.notConfiguredIntro), element('pre', 'sign-in-settings', t.notConfiguredSettings));
  box.append(element('p', '', t.notConfiguredDocs));
  const form = element('form', 'paste-token');
  form.setAttribute('aria-label', t.pasteHeading);
  const input = element('input');
  input.id = 'pasted-token';
  input.name = 'token';
  input.type = 'password';
  input.required = true;
  input.autocomplete = 'off';
  input.spellcheck = false;
  const label = element('label', '', t.pasteLabel);
  label.htmlFor = input.id;
  const use = element('button', '', t.pasteUse);
  use.type = 'submit';
  form.append(label, input, use);
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const token = input.value.trim().replace(/^Bearer\s+/i, '');
    if (token === '') return;
    sessionStorage.setItem(pastedTokenKey, token);
    // The page starts again with the token: its probe (a refused token comes back here with the API's reason), then
    // the page itself.
    location.reload();
  });
  box.append(form);
  if (problem !== undefined) box.append(alert(problem));
}

/** One screen in place of the page: a heading and what follows it. */
function screen(root: HTMLElement, kind: string, heading: string): HTMLElement {
  const main = element('main', 'sign-in-screen');
  main.dataset.screen = kind;
  const title = element('h1', '', heading);
  title.id = `${kind}-heading`;
  main.setAttribute('aria-labelledby', title.id);
  main.append(title);
  root.replaceChildren(main);
  return main;
}

function button(text: string, onClick: () => void): HTMLButtonElement {
  const node = element('button', '', text);
  node.type = 'button';
  node.addEventListener('click', onClick);
  return node;
}

function alert(text: string): HTMLParagraphElement {
  const node = element('p', 'sign-in-problem', text);
  node.setAttribute('role', 'alert');
  return node;
}
