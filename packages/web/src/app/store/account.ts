// Signing in and the person's data. With the server's OIDC_ISSUER and OIDC_CLIENT_ID the app signs in at the identity
// provider (authorization code with PKCE, as the console does): the sign-in library is loaded only when needed (back
// from the provider, a session in this tab, a tap on "Sign in"), so the first view stays small. Without them, a
// pasted token (development). Anyone signed in may mark and rate: no role is asked for.
import type { UserDataErasure } from '@canteen-meals/client';
import { messageOf } from '../../shared/api.js';
import { pastedTokenSession } from '../../shared/pasted-token.js';
import { isSignInCallback, signInSettingsOf, type SignInSettings } from '../../shared/sign-in-settings.js';
import { personalClient } from './clients.js';
import { notice, providerSignIn, session, t } from './state.js';

const settings: SignInSettings | undefined = signInSettingsOf(document.documentElement.dataset);
providerSignIn.value = settings !== undefined;

/** oidc-client-ts keeps the signed-in user in sessionStorage under `oidc.user:<issuer>:<client>`. */
const hasProviderUser = () => Object.keys(sessionStorage).some((key) => key.startsWith('oidc.user:'));

const signInFlow = () => import('../../shared/sign-in-flow.js');

/** The session of this tab, if any: back from the provider, signed in earlier in this tab, or a pasted token. */
export async function resumeSession(): Promise<void> {
  if (settings === undefined) {
    session.value = pastedTokenSession();
    return;
  }
  if (!isSignInCallback(location.hash) && !hasProviderUser()) return;
  try {
    const state = await (await signInFlow()).providerState(settings);
    session.value = state.session;
    if (state.failure !== undefined) notice.value = { kind: 'error', text: t.value.signInFailed(state.failure) };
  } catch (error) {
    notice.value = { kind: 'error', text: t.value.signInFailed(messageOf(error)) };
  }
}

/** "Sign in": off to the provider (back to this very URL); without one, the caller shows the token form. */
export async function signIn(): Promise<'redirecting' | 'paste'> {
  if (settings === undefined) return 'paste';
  const flow = await signInFlow();
  const { manager } = await flow.providerState(settings);
  await flow.signInRedirect(manager);
  return 'redirecting';
}

export async function signOut(): Promise<void> {
  await session.value?.signOut();
}

/** The person's data as a JSON file to download (the export's answer as the API gives it). */
export async function exportData(): Promise<{ readonly name: string; readonly url: string }> {
  const signedIn = session.value;
  if (signedIn === null) throw new Error('not signed in');
  const data = await personalClient(() => signedIn.getToken()).exportMyData();
  const blob = new Blob([`${JSON.stringify(data, null, 2)}\n`], { type: 'application/json' });
  return {
    name: `canteen-meals-my-data-${new Date().toISOString().slice(0, 10)}.json`,
    url: URL.createObjectURL(blob),
  };
}

export async function eraseData(): Promise<UserDataErasure> {
  const signedIn = session.value;
  if (signedIn === null) throw new Error('not signed in');
  return personalClient(() => signedIn.getToken()).eraseMyData();
}
