import type { PageTexts, TextTables } from '../shared/language.js';

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
  readonly notLive: string;
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
    notLive: 'Not live: reload the page',
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
    notLive: 'Nicht live: Seite neu laden',
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
  },
};
