// TEMPORARY (branch i28-console): a pasted token until the sign-in branch (i28-signin) brings the real session, which
// replaces this file. It implements the shared contract and nothing more: the token stays in sessionStorage.
import type { Language } from './language.js';
import { element } from './dom.js';

export interface Session {
  readonly user: string;
  getToken(): Promise<string>;
  signOut(): Promise<void>;
}

const key = 'canteen-meals.token';
const words = {
  en: { heading: 'Sign in', token: 'Access token', use: 'Use this token' },
  de: { heading: 'Anmelden', token: 'Zugangstoken', use: 'Dieses Token verwenden' },
} as const;

/** The token's `sub` (read, not verified: the API verifies every call). */
function userOf(token: string): string {
  try {
    const payload = JSON.parse(atob(token.split('.')[1]!.replace(/-/g, '+').replace(/_/g, '/'))) as { sub?: unknown };
    return typeof payload.sub === 'string' ? payload.sub : '?';
  } catch {
    return '?';
  }
}

function sessionOf(token: string): Session {
  return {
    user: userOf(token),
    getToken: async () => token,
    signOut: async () => {
      sessionStorage.removeItem(key);
      location.reload();
    },
  };
}

export function startSession(root: HTMLElement, options: { language: Language; requiredScope: 'meals:write' | 'meals:kitchen' }): Promise<Session | null> {
  const stored = sessionStorage.getItem(key);
  if (stored !== null) return Promise.resolve(sessionOf(stored));
  const w = words[options.language];
  const form = element('form', 'paste-token');
  const input = element('input');
  input.id = 'pasted-token';
  input.type = 'password';
  input.required = true;
  input.autocomplete = 'off';
  const label = element('label', '', `${w.token} (${options.requiredScope})`);
  label.htmlFor = input.id;
  const submit = element('button', '', w.use);
  submit.type = 'submit';
  form.append(element('h1', '', w.heading), label, input, submit);
  const main = element('main');
  main.append(form);
  root.replaceChildren(main);
  return new Promise((resolve) => {
    form.addEventListener('submit', (event) => {
      event.preventDefault();
      const token = input.value.trim();
      if (token === '') return;
      sessionStorage.setItem(key, token);
      resolve(sessionOf(token));
    });
  });
}
