// PLACEHOLDER until the console (branch i28-console) is merged: the merger takes that branch's texts.ts. Only what the
// bootstrap (main.ts) and the placeholder console-app.ts show.
import type { PageTexts, TextTables } from '../shared/language.js';

export interface ConsoleTexts extends PageTexts {
  readonly heading: string;
  readonly canteens: string;
  readonly noCanteens: string;
  readonly loadFailed: (message: string) => string;
  readonly signedInAs: (user: string) => string;
  readonly signOut: string;
}

export const texts: TextTables<ConsoleTexts> = {
  en: {
    title: 'Admin console',
    noscript: 'The admin console needs JavaScript.',
    heading: 'Admin console',
    canteens: 'Canteens',
    noCanteens: 'No canteen yet.',
    loadFailed: (message) => `Canteens unavailable: ${message}`,
    signedInAs: (user) => `Signed in as ${user}`,
    signOut: 'Sign out',
  },
  de: {
    title: 'Verwaltung',
    noscript: 'Die Verwaltung braucht JavaScript.',
    heading: 'Verwaltung',
    canteens: 'Mensen',
    noCanteens: 'Noch keine Mensa.',
    loadFailed: (message) => `Mensen nicht verfügbar: ${message}`,
    signedInAs: (user) => `Angemeldet als ${user}`,
    signOut: 'Abmelden',
  },
};
