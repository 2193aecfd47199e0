// TEMPORARY (until the sign-in branch lands its session.ts): the session contract with a pasted token only, kept in
// sessionStorage (gone with the tab). The sign-in engineer's version replaces this file whole.
import { element } from './dom.js';
import type { Language } from './language.js';

export interface Session {
  readonly user: string;
  getToken(): Promise<string>;
  signOut(): Promise<void>;
}

const key = 'canteen-meals.token';
const texts = {
  en: { heading: 'Sign in', token: 'Access token', submit: 'Sign in', bad: 'This token is not valid or lacks the scope' },
  de: { heading: 'Anmelden', token: 'Zugangstoken', submit: 'Anmelden', bad: 'Dieses Token ist ungültig oder hat den Scope nicht' },
} satisfies Record<Language, Record<string, string>>;

/** The token's claims, unchecked (the server checks the signature): who, and whether it may do what the page needs. */
function claimsOf(token: string): { sub?: string; scope?: string } | null {
  try {
    const part = token.split('.')[1] ?? '';
    return JSON.parse(atob(part.replace(/-/g, '+').replace(/_/g, '/'))) as { sub?: string; scope?: string };
  } catch {
    return null;
  }
}

function sessionOf(token: string, requiredScope: string): Session | null {
  const claims = claimsOf(token);
  const scopes = (claims?.scope ?? '').split(' ');
  if (claims === null || !(scopes.includes(requiredScope) || scopes.includes('meals:write'))) return null;
  return {
    user: claims.sub ?? '?',
    getToken: async () => token,
    signOut: async () => {
      sessionStorage.removeItem(key);
      location.reload();
    },
  };
}

export function startSession(
  root: HTMLElement,
  options: { language: Language; requiredScope: 'meals:write' | 'meals:kitchen' },
): Promise<Session | null> {
  const kept = sessionStorage.getItem(key);
  const session = kept === null ? null : sessionOf(kept, options.requiredScope);
  if (session !== null) return Promise.resolve(session);
  const t = texts[options.language];
  const form = element('form', 'sign-in');
  const label = element('label', '', t.token);
  const input = element('input');
  input.id = 'pasted-token';
  input.type = 'password';
  input.autocomplete = 'off';
  input.required = true;
  label.htmlFor = 'pasted-token';
  const problem = element('p', 'sign-in-problem');
  problem.setAttribute('role', 'alert');
  form.append(element('h1', '', t.heading), label, input, element('button', '', t.submit), problem);
  root.replaceChildren(form);
  return new Promise((resolve) => {
    form.addEventListener('submit', (event) => {
      event.preventDefault();
      const pasted = input.value.trim();
      const signedIn = sessionOf(pasted, options.requiredScope);
      if (signedIn === null) {
        problem.textContent = t.bad;
        return;
      }
      sessionStorage.setItem(key, pasted);
      resolve(signedIn);
    });
  });
}
