import type { TextTables } from './language.js';

/** Every text of the sign-in screens (session.ts), in each language; the page's own texts stay in its texts.ts. */
export interface SignInTexts {
  readonly signInHeading: string;
  readonly signInIntro: string;
  readonly signIn: string;
  readonly signingIn: string;
  readonly signOut: string;
  readonly signInFailed: (message: string) => string;
  readonly tryAgain: string;
  readonly notConfiguredHeading: string;
  readonly notConfiguredIntro: string;
  readonly notConfiguredSettings: string;
  readonly notConfiguredDocs: string;
  readonly pasteHeading: string;
  readonly pasteLabel: string;
  readonly pasteUse: string;
  readonly pasteRejected: (message: string) => string;
  readonly notAllowedHeading: string;
  readonly notAllowed: (user: string, scope: string) => string;
  readonly notAllowedAnswer: (status: number) => string;
  readonly notAllowedHelp: string;
  readonly signedInAs: (user: string) => string;
}

export const signInTexts: TextTables<SignInTexts> = {
  en: {
    signInHeading: 'Sign in',
    signInIntro: 'This page needs you to sign in with your organisation’s account.',
    signIn: 'Sign in',
    signingIn: 'Signing in…',
    signOut: 'Sign out',
    signInFailed: (message) => `Signing in failed: ${message}`,
    tryAgain: 'Try again',
    notConfiguredHeading: 'Sign-in is not configured',
    notConfiguredIntro:
      'The server has no identity provider to sign in with. Its operator sets these two settings and restarts it:',
    notConfiguredSettings: 'OIDC_ISSUER=https://id.example.org/realms/campus\nOIDC_CLIENT_ID=canteen-meals-pages',
    notConfiguredDocs:
      'See docs/identity-providers.md for Keycloak, Microsoft Entra ID and Auth0. Until then, paste an access token:',
    pasteHeading: 'Use an access token',
    pasteLabel: 'Access token',
    pasteUse: 'Use this token',
    pasteRejected: (message) => `The token was not accepted: ${message}`,
    notAllowedHeading: 'Not allowed',
    notAllowed: (user, scope) =>
      `You are signed in as ${user}, but your account may not use this page: it needs the permission ${scope}.`,
    notAllowedAnswer: (status) => `The service answered ${status} (forbidden).`,
    notAllowedHelp: 'Ask an administrator of your identity provider for the role, then sign in again.',
    signedInAs: (user) => `Signed in as ${user}`,
  },
  de: {
    signInHeading: 'Anmelden',
    signInIntro: 'Für diese Seite melden Sie sich mit dem Konto Ihrer Einrichtung an.',
    signIn: 'Anmelden',
    signingIn: 'Anmeldung läuft…',
    signOut: 'Abmelden',
    signInFailed: (message) => `Die Anmeldung ist fehlgeschlagen: ${message}`,
    tryAgain: 'Erneut versuchen',
    notConfiguredHeading: 'Die Anmeldung ist nicht eingerichtet',
    notConfiguredIntro:
      'Der Server kennt keinen Identitätsanbieter. Wer ihn betreibt, setzt diese beiden Einstellungen und startet ihn neu:',
    notConfiguredSettings: 'OIDC_ISSUER=https://id.example.org/realms/campus\nOIDC_CLIENT_ID=canteen-meals-pages',
    notConfiguredDocs:
      'Anleitungen für Keycloak, Microsoft Entra ID und Auth0 stehen in docs/identity-providers.md. Bis dahin können Sie ein Zugriffstoken einfügen:',
    pasteHeading: 'Mit einem Zugriffstoken arbeiten',
    pasteLabel: 'Zugriffstoken',
    pasteUse: 'Token verwenden',
    pasteRejected: (message) => `Das Token wurde nicht angenommen: ${message}`,
    notAllowedHeading: 'Kein Zugriff',
    notAllowed: (user, scope) =>
      `Sie sind als ${user} angemeldet, aber Ihr Konto darf diese Seite nicht nutzen: Dafür ist die Berechtigung ${scope} nötig.`,
    notAllowedAnswer: (status) => `Der Dienst hat mit ${status} (verboten) geantwortet.`,
    notAllowedHelp:
      'Bitten Sie die Verwaltung Ihres Identitätsanbieters um die Rolle und melden Sie sich dann erneut an.',
    signedInAs: (user) => `Angemeldet als ${user}`,
  },
};
