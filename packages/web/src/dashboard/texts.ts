import type { PageTexts, TextTables } from '../shared/language.js';
import type { Availability } from './availability.js';

/** Every text the dashboard shows, in each language (the server takes `title` and `noscript` for the HTML). */
export interface DashboardTexts extends PageTexts {
  readonly heading: string;
  readonly canteen: string;
  readonly day: string;
  readonly meals: string;
  readonly noMeals: string;
  readonly ranking: string;
  readonly loading: string;
  readonly live: string;
  readonly reconnecting: string;
  readonly noCanteen: string;
  readonly noRatings: string;
  readonly unrated: string;
  readonly noAverage: string;
  readonly canteensUnavailable: (message: string) => string;
  readonly menuUnavailable: (message: string) => string;
  readonly rankingUnavailable: (message: string) => string;
  readonly ratings: (count: string, one: boolean) => string;
  readonly median: (value: string) => string;
  readonly averageOf: (value: string) => string;
  readonly stars: (stars: number, count: number) => string;
  readonly rankingExplained: string;
  readonly atLeast: (value: string) => string;
  readonly availability: Readonly<Record<Availability, string>>;
  readonly kitchenHeading: string;
  readonly wallHeading: string;
  readonly nextTap: (meal: string, now: string, next: string) => string;
  readonly changed: (meal: string, status: string) => string;
  readonly undo: string;
  readonly undoChange: (meal: string, status: string) => string;
  readonly changeFailed: (message: string) => string;
  readonly chooseCanteen: string;
  readonly pageOf: (page: number, count: number) => string;
  readonly signOut: string;
}

export const texts: TextTables<DashboardTexts> = {
  en: {
    title: 'Kitchen dashboard',
    noscript: 'The dashboard needs JavaScript.',
    heading: 'Kitchen dashboard',
    canteen: 'Canteen',
    day: 'Day',
    meals: 'Meals',
    noMeals: 'No meals on this day.',
    ranking: 'Ranking of the day',
    loading: 'Loading…',
    live: 'Live',
    reconnecting: 'Reconnecting…',
    noCanteen: 'No canteen yet',
    noRatings: 'no ratings yet',
    unrated: 'unrated',
    noAverage: 'no average',
    canteensUnavailable: (message) => `Canteens unavailable: ${message}`,
    menuUnavailable: (message) => `Menu unavailable: ${message}`,
    rankingUnavailable: (message) => `Ranking unavailable: ${message}`,
    ratings: (count, one) => (one ? '1 rating' : `${count} ratings`),
    median: (value) => `median ${value}`,
    averageOf: (value) => `average ${value} of 5`,
    stars: (stars, count) => `${stars} ${stars === 1 ? 'star' : 'stars'}: ${count}`,
    rankingExplained:
      'Ranked by how sure we are that it is good: a few ratings count for less than many. The bar shows the rating it surely has at least.',
    atLeast: (value) => `surely at least ${value} of 5`,
    availability: { available: 'Available', few_left: 'Few left', sold_out: 'Sold out' },
    kitchenHeading: 'Kitchen: what is left',
    wallHeading: 'Today at',
    nextTap: (meal, now, next) => `${meal}: ${now}. Tap for ${next}`,
    changed: (meal, status) => `${meal}: ${status}`,
    undo: 'Undo',
    undoChange: (meal, status) => `Undo: ${meal} back to ${status}`,
    changeFailed: (message) => `Not changed: ${message}`,
    chooseCanteen: 'Which canteen should this screen show?',
    pageOf: (page, count) => `Page ${page} of ${count}`,
    signOut: 'Sign out',
  },
  de: {
    title: 'Küchen-Dashboard',
    noscript: 'Das Dashboard braucht JavaScript.',
    heading: 'Küchen-Dashboard',
    canteen: 'Mensa',
    day: 'Tag',
    meals: 'Gerichte',
    noMeals: 'An diesem Tag gibt es keine Gerichte.',
    ranking: 'Rangliste des Tages',
    loading: 'Wird geladen…',
    live: 'Live',
    reconnecting: 'Verbindung wird wiederhergestellt…',
    noCanteen: 'Noch keine Mensa',
    noRatings: 'noch keine Bewertungen',
    unrated: 'unbewertet',
    noAverage: 'kein Durchschnitt',
    canteensUnavailable: (message) => `Mensen nicht verfügbar: ${message}`,
    menuUnavailable: (message) => `Speiseplan nicht verfügbar: ${message}`,
    rankingUnavailable: (message) => `Rangliste nicht verfügbar: ${message}`,
    ratings: (count, one) => (one ? '1 Bewertung' : `${count} Bewertungen`),
    median: (value) => `Median ${value}`,
    averageOf: (value) => `Durchschnitt ${value} von 5`,
    stars: (stars, count) => `${stars} ${stars === 1 ? 'Stern' : 'Sterne'}: ${count}`,
    rankingExplained:
      'Gereiht danach, wie sicher wir sind, dass es gut ist: wenige Bewertungen zählen weniger als viele. Der Balken zeigt die Note, die es sicher mindestens hat.',
    atLeast: (value) => `sicher mindestens ${value} von 5`,
    availability: { available: 'Verfügbar', few_left: 'Nur noch wenige', sold_out: 'Ausverkauft' },
    kitchenHeading: 'Küche: was noch da ist',
    wallHeading: 'Heute in',
    nextTap: (meal, now, next) => `${meal}: ${now}. Tippen für ${next}`,
    changed: (meal, status) => `${meal}: ${status}`,
    undo: 'Rückgängig',
    undoChange: (meal, status) => `Rückgängig: ${meal} wieder ${status}`,
    changeFailed: (message) => `Nicht geändert: ${message}`,
    chooseCanteen: 'Welche Mensa soll dieser Bildschirm zeigen?',
    pageOf: (page, count) => `Seite ${page} von ${count}`,
    signOut: 'Abmelden',
  },
};
