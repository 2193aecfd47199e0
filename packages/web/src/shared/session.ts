// The screens of a page that needs a signed-in person with a scope (the console, the kitchen's mode): sign in, how to
// configure signing in, not allowed. With the server's OIDC_ISSUER and OIDC_CLIENT_ID the page signs in at the identity
// provider (sign-in-flow.ts); without them it says how to configure them and takes a pasted token (pasted-token.ts).
import './sign-in.css';
import { MealsApiError } from '@canteen-meals/client';
import { messageOf, pageClient } from './api.js';
import { element } from './dom.js';
import type { Language } from './language.js';
import { forgetPastedToken, keepPastedToken, pastedTokenSession } from './pasted-token.js';
import { providerState, signInRedirect, type UserManager } from './sign-in-flow.js';
import {
  accessAllows,
  signInSettingsOf,
  type PageAccess,
  type Session,
  type SignInSettings,
} from './sign-in-settings.js';
import { signInTexts, type SignInTexts } from './sign-in-texts.js';

export type { Session };

export type RequiredScope = 'meals:write' | 'meals:manage' | 'meals:kitchen';

export interface SessionOptions {
  readonly language: Language;
  readonly requiredScope: RequiredScope;
  /**
   * A call that needs the scope, made once signed in: a 403 shows the not-allowed screen. Default: for the console the
   * admin's canteen list (meals:manage at some canteen); for `meals:kitchen` `GET /me/access`, which must allow it at
   * some canteen at least (see accessAllows).
   */
  readonly probe?: (getToken: () => Promise<string>) => Promise<unknown>;
  /** Given what `GET /me/access` answered, when the default probe asked it (the page need not ask again). */
  readonly onAccess?: (access: PageAccess) => void;
}

/** Resolves with a session, or renders a sign-in/how-to-configure/not-allowed screen into `root` and resolves null. */
export async function startSession(root: HTMLElement, options: SessionOptions): Promise<Session | null> {
  const t = signInTexts[options.language];
  const settings = signInSettingsOf(document.documentElement.dataset);
  const session = settings === undefined ? pastedTokenSession() : await providerSession(root, settings, t);
  if (session === null) {
    if (settings === undefined) notConfiguredScreen(root, options, t);
    return null;
  }
  const probe = options.probe ?? defaultProbe(options.requiredScope, options.onAccess);
  if (probe !== undefined) {
    try {
      await probe(() => session.getToken());
    } catch (error) {
      if (error instanceof NotAllowed || (error instanceof MealsApiError && error.status === 403)) {
        notAllowedScreen(root, {
          ...options,
          session,
          ...(error instanceof MealsApiError ? { status: error.status } : {}),
        });
        return null;
      }
      if (error instanceof MealsApiError && error.status === 401 && settings === undefined) {
        // A pasted token the API refuses (expired, another issuer): ask for another one.
        forgetPastedToken();
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
 * The console asks for the admin's canteen list, which answers 403 to anyone who manages no canteen. The kitchen's
 * page has no such read: it asks the API what the token may do here (its scopes after the role mapping, per canteen,
 * which the page cannot work out itself) and refuses when the kitchen's scope is allowed at no canteen.
 */
function defaultProbe(scope: RequiredScope, onAccess?: (access: PageAccess) => void): SessionOptions['probe'] {
  if (scope !== 'meals:kitchen') return (getToken) => pageClient(getToken).listAdminCanteens();
  return async (getToken) => {
    const access = await pageClient(getToken).getMyAccess();
    onAccess?.(access);
    if (!accessAllows(access, scope)) {
      throw new NotAllowed();
    }
  };
}

/** The provider's session, or its sign-in screen (with why the last attempt failed) and null. */
async function providerSession(root: HTMLElement, settings: SignInSettings, t: SignInTexts): Promise<Session | null> {
  const { manager, session, failure } = await providerState(settings);
  if (session === null) signInScreen(root, t, manager, failure === undefined ? undefined : t.signInFailed(failure));
  return session;
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

function notConfiguredScreen(root: HTMLElement, _options: SessionOptions, t: SignInTexts, problem?: string) {
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
    if (!keepPastedToken(input.value)) return;
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
