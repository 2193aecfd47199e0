// Signing in at an identity provider with oidc-client-ts (authorization code with PKCE, a public client, the provider's
// endpoints from its discovery): the flow without any screen, for the pages that draw their own (session.ts's screens
// for the console and the kitchen; the students' app's button). The app loads this module only when it signs in.
// Tokens live in sessionStorage only: gone with the tab, never in localStorage or a cookie.
import { UserManager, WebStorageStateStore, type User } from 'oidc-client-ts';
import { messageOf } from './api.js';
import {
  audienceParameters,
  displayNameOf,
  isSignInCallback,
  needsRenewal,
  type Session,
  type SignInSettings,
} from './sign-in-settings.js';

export type { UserManager };

/** The provider's side of a page's sign-in: its client, the session when signed in, why a sign-in just failed. */
export interface ProviderState {
  readonly manager: UserManager;
  readonly session: Session | null;
  /** The provider refused the sign-in the browser came back from (its message), or it could not be completed. */
  readonly failure?: string;
}

/**
 * The identity provider's session, after handling its answer when the browser comes back from signing in. Draws
 * nothing: the page decides what a person without a session sees (a sign-in screen, or the page with a button).
 */
export async function providerState(settings: SignInSettings): Promise<ProviderState> {
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
      const back = asked?.startsWith(pageUrl) ? asked : pageUrl;
      if (back !== pageUrl) {
        // The page as it was asked for (its ?lang= chooses the server's language): loaded again, signed in now.
        location.replace(back);
        return new Promise<never>(() => {});
      }
      history.replaceState(null, '', pageUrl);
    } catch (error) {
      history.replaceState(null, '', pageUrl);
      return { manager, session: null, failure: messageOf(error) };
    }
  }
  const user = await manager.getUser();
  if (user === null) return { manager, session: null };
  const session: Session = {
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
  return { manager, session };
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
export function signInRedirect(manager: UserManager): Promise<void> {
  return manager.signinRedirect({ state: { back: location.href.split('#')[0] } });
}
