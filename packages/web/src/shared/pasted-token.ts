// A pasted token's session (development, no identity provider configured): the token as given, kept in this tab's
// sessionStorage only; the API decides what it may do. No sign-in library needed.
import { displayNameOf, unverifiedClaims, type Session } from './sign-in-settings.js';

/** Where a pasted token is kept (this tab only). */
export const pastedTokenKey = 'canteen-meals.token';

/** The pasted token's session, or null when none was pasted in this tab. */
export function pastedTokenSession(): Session | null {
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

/** Keeps a pasted token (a `Bearer ` prefix taken off); false when nothing is left of it. */
export function keepPastedToken(text: string): boolean {
  const token = text.trim().replace(/^Bearer\s+/i, '');
  if (token === '') return false;
  sessionStorage.setItem(pastedTokenKey, token);
  return true;
}

/** Forgets the pasted token (a token the API refused). */
export const forgetPastedToken = () => sessionStorage.removeItem(pastedTokenKey);
