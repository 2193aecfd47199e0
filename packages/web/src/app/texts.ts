import type { PageTexts, TextTables } from '../shared/language.js';
import type { PriceGroup } from './model/prices.js';

/** Every text of the students' app, in each language (the server takes `title` and `noscript` for the HTML). */
export interface AppTexts extends PageTexts {
  readonly appName: string;
  readonly shortName: string;
  readonly description: string;
  readonly views: { readonly menu: string; readonly favourites: string; readonly data: string };
  readonly mainNavigation: string;
  readonly canteen: string;
  readonly searchCanteens: string;
  readonly noCanteenFound: string;
  readonly noCanteens: string;
  readonly days: string;
  readonly today: string;
  readonly closed: string;
  readonly closedDay: string;
  readonly noMeals: string;
  readonly loading: string;
  readonly uncategorised: string;
  readonly priceGroup: string;
  readonly priceGroups: Readonly<Record<PriceGroup, string>>;
  readonly noPrice: string;
  readonly labelsOfMeal: string;
  readonly soldOut: string;
  readonly fewLeft: string;
  readonly ratingSummary: (average: string, count: number) => string;
  readonly noRatings: string;
  readonly showMedian: string;
  readonly median: (value: string) => string;
  readonly top: (place: number) => string;
  readonly filters: string;
  readonly filtersActive: (count: number) => string;
  readonly leaveOut: string;
  readonly only: string;
  readonly closeFilters: string;
  readonly clearFilters: string;
  readonly hiddenMeals: (count: number) => string;
  readonly showHidden: string;
  readonly hideHidden: string;
  readonly hiddenByFilters: string;
  readonly yourRating: string;
  readonly stars: (count: number) => string;
  readonly removeRating: string;
  readonly ratingNotYet: string;
  readonly ratingOver: string;
  readonly ratingNotRateable: string;
  readonly favourite: string;
  readonly hideDish: string;
  readonly dishHidden: (name: string) => string;
  readonly undo: string;
  readonly signInToRate: string;
  readonly signIn: string;
  readonly signOut: string;
  readonly signedInAs: (user: string) => string;
  readonly pasteHeading: string;
  readonly pasteIntro: string;
  readonly pasteLabel: string;
  readonly pasteUse: string;
  readonly cancel: string;
  readonly signInFailed: (message: string) => string;
  readonly offlineAsOf: (time: string) => string;
  readonly offline: string;
  readonly waiting: string;
  readonly notSaved: (meal: string, message: string) => string;
  readonly saveFailed: (message: string) => string;
  readonly menuUnavailable: (message: string) => string;
  readonly live: string;
  readonly favouritesHeading: string;
  readonly upcomingIntro: string;
  readonly noUpcoming: string;
  readonly hiddenDishesHeading: string;
  readonly noHiddenDishes: string;
  readonly showDishAgain: (name: string) => string;
  readonly signInForFavourites: string;
  readonly dataHeading: string;
  readonly ratedMeals: string;
  readonly markedMeals: string;
  readonly noneYet: string;
  readonly yourStars: (rating: number) => string;
  readonly exportData: string;
  readonly exportIntro: string;
  readonly eraseData: string;
  readonly eraseIntro: string;
  readonly eraseConfirm: string;
  readonly erased: (ratings: number, markings: number) => string;
  readonly signInForData: string;
  readonly newVersion: string;
  readonly language: string;
  readonly notificationsHeading: string;
  readonly notifyMe: string;
  readonly notifyIntro: string;
  readonly soldOutToo: string;
  readonly sendTest: string;
  readonly testSent: (delivered: number, total: number) => string;
  readonly notificationsBlocked: string;
  readonly notificationsFailed: (message: string) => string;
}

export const texts: TextTables<AppTexts> = {
  en: {
    title: 'Canteen meals',
    noscript: 'This app needs JavaScript: the menus, ratings and favourites come from the API of this site.',
    appName: 'Canteen meals',
    shortName: 'Meals',
    description: "Today's menus of your canteens: filter, rate and mark your favourite meals.",
    views: { menu: 'Menu', favourites: 'Favourites', data: 'My data' },
    mainNavigation: 'Views',
    canteen: 'Canteen',
    searchCanteens: 'Search canteens',
    noCanteenFound: 'No canteen has that name.',
    noCanteens: 'No canteen is set up yet.',
    days: 'Days',
    today: 'Today',
    closed: 'closed',
    closedDay: 'The canteen is closed on this day.',
    noMeals: 'No meals on this day.',
    loading: 'Loading…',
    uncategorised: 'More',
    priceGroup: 'Prices for',
    priceGroups: { student: 'Students', employee: 'Employees', pupil: 'Pupils', other: 'Others' },
    noPrice: 'No price given',
    labelsOfMeal: 'Labels',
    soldOut: 'Sold out',
    fewLeft: 'Few left',
    ratingSummary: (average, count) => `${average} of 5 stars from ${count} ${count === 1 ? 'rating' : 'ratings'}`,
    noRatings: 'Not rated yet',
    showMedian: 'Median',
    median: (value) => `Median ${value} of 5`,
    top: (place) => `Top ${place} of the day`,
    filters: 'Filters',
    filtersActive: (count) => `Filters (${count})`,
    leaveOut: 'Leave out',
    only: 'Only',
    closeFilters: 'Done',
    clearFilters: 'Clear all',
    hiddenMeals: (count) => `${count} ${count === 1 ? 'meal is' : 'meals are'} hidden by your filters.`,
    showHidden: 'Show them',
    hideHidden: 'Hide them again',
    hiddenByFilters: 'Hidden by your filters',
    yourRating: 'Your rating',
    stars: (count) => `${count} ${count === 1 ? 'star' : 'stars'}`,
    removeRating: 'Remove my rating',
    ratingNotYet: 'Rating opens when it is served',
    ratingOver: 'Rating closed a week after serving',
    ratingNotRateable: 'This meal takes no ratings',
    favourite: 'Favourite',
    hideDish: 'Hide this dish',
    dishHidden: (name) => `“${name}” is hidden.`,
    undo: 'Undo',
    signInToRate: 'Sign in to rate meals and mark favourites.',
    signIn: 'Sign in',
    signOut: 'Sign out',
    signedInAs: (user) => `Signed in as ${user}`,
    pasteHeading: 'Sign in with a token',
    pasteIntro:
      'This server has no sign-in configured (OIDC_ISSUER, OIDC_CLIENT_ID). Paste an access token to try the app.',
    pasteLabel: 'Access token',
    pasteUse: 'Use token',
    cancel: 'Cancel',
    signInFailed: (message) => `Signing in failed: ${message}`,
    offlineAsOf: (time) => `Offline – as of ${time}`,
    offline: 'Offline',
    waiting: 'Waiting to send',
    notSaved: (meal, message) => `Not saved for “${meal}”: ${message}`,
    saveFailed: (message) => `Not saved: ${message}`,
    menuUnavailable: (message) => `The menu could not be loaded: ${message}`,
    live: 'Live',
    favouritesHeading: 'Your favourites coming up',
    upcomingIntro: 'Servings in the coming week of the dishes you marked.',
    noUpcoming: 'None of your favourites is on a menu this week.',
    hiddenDishesHeading: 'Hidden dishes',
    noHiddenDishes: 'You hide no dish.',
    showDishAgain: (name) => `Show “${name}” again`,
    signInForFavourites: 'Sign in to see your favourites coming up.',
    dataHeading: 'My data',
    ratedMeals: 'Meals you rated',
    markedMeals: 'Meals you marked',
    noneYet: 'None yet.',
    yourStars: (rating) => `Your rating: ${rating} of 5`,
    exportData: 'Download my data',
    exportIntro: 'Every rating and marking the service holds for you, as a JSON file.',
    eraseData: 'Erase my data',
    eraseIntro: 'Deletes every rating and marking of yours. This cannot be undone.',
    eraseConfirm: 'Yes, erase everything',
    erased: (ratings, markings) =>
      `Erased ${ratings} ${ratings === 1 ? 'rating' : 'ratings'} and ${markings} ${markings === 1 ? 'marking' : 'markings'}.`,
    signInForData: 'Sign in to see and manage your data.',
    newVersion: 'A new version is ready: it starts the next time you open the app.',
    language: 'Deutsch',
    notificationsHeading: 'Notifications',
    notifyMe: 'Notify me',
    notifyIntro: 'A notification on the days your favourites are on the menu.',
    soldOutToo: 'Also when a favourite of today sells out',
    sendTest: 'Send a test notification',
    testSent: (delivered, total) => `Sent to ${delivered} of ${total} ${total === 1 ? 'device' : 'devices'}.`,
    notificationsBlocked: 'Notifications are blocked for this site: allow them in the browser’s settings.',
    notificationsFailed: (message) => `Notifications could not be set up: ${message}`,
  },
  de: {
    title: 'Mensaessen',
    noscript: 'Diese App braucht JavaScript: Speisepläne, Bewertungen und Favoriten kommen von der API dieser Seite.',
    appName: 'Mensaessen',
    shortName: 'Mensa',
    description: 'Die heutigen Speisepläne deiner Mensen: filtern, bewerten und Lieblingsessen merken.',
    views: { menu: 'Speiseplan', favourites: 'Favoriten', data: 'Meine Daten' },
    mainNavigation: 'Ansichten',
    canteen: 'Mensa',
    searchCanteens: 'Mensen suchen',
    noCanteenFound: 'Keine Mensa hat diesen Namen.',
    noCanteens: 'Es ist noch keine Mensa eingerichtet.',
    days: 'Tage',
    today: 'Heute',
    closed: 'geschlossen',
    closedDay: 'Die Mensa ist an diesem Tag geschlossen.',
    noMeals: 'An diesem Tag gibt es keine Gerichte.',
    loading: 'Wird geladen …',
    uncategorised: 'Weiteres',
    priceGroup: 'Preise für',
    priceGroups: { student: 'Studierende', employee: 'Bedienstete', pupil: 'Schüler', other: 'Gäste' },
    noPrice: 'Kein Preis angegeben',
    labelsOfMeal: 'Kennzeichnungen',
    soldOut: 'Ausverkauft',
    fewLeft: 'Nur noch wenige',
    ratingSummary: (average, count) =>
      `${average} von 5 Sternen aus ${count} ${count === 1 ? 'Bewertung' : 'Bewertungen'}`,
    noRatings: 'Noch nicht bewertet',
    showMedian: 'Median',
    median: (value) => `Median ${value} von 5`,
    top: (place) => `Platz ${place} des Tages`,
    filters: 'Filter',
    filtersActive: (count) => `Filter (${count})`,
    leaveOut: 'Ohne',
    only: 'Nur',
    closeFilters: 'Fertig',
    clearFilters: 'Alle entfernen',
    hiddenMeals: (count) =>
      `${count} ${count === 1 ? 'Gericht ist' : 'Gerichte sind'} durch deine Filter ausgeblendet.`,
    showHidden: 'Anzeigen',
    hideHidden: 'Wieder ausblenden',
    hiddenByFilters: 'Durch deine Filter ausgeblendet',
    yourRating: 'Deine Bewertung',
    stars: (count) => `${count} ${count === 1 ? 'Stern' : 'Sterne'}`,
    removeRating: 'Bewertung löschen',
    ratingNotYet: 'Bewerten geht, sobald es serviert wird',
    ratingOver: 'Bewerten endete eine Woche nach dem Servieren',
    ratingNotRateable: 'Dieses Gericht kann nicht bewertet werden',
    favourite: 'Favorit',
    hideDish: 'Gericht ausblenden',
    dishHidden: (name) => `„${name}“ ist ausgeblendet.`,
    undo: 'Rückgängig',
    signInToRate: 'Melde dich an, um Gerichte zu bewerten und Favoriten zu merken.',
    signIn: 'Anmelden',
    signOut: 'Abmelden',
    signedInAs: (user) => `Angemeldet als ${user}`,
    pasteHeading: 'Mit einem Token anmelden',
    pasteIntro:
      'Auf diesem Server ist keine Anmeldung eingerichtet (OIDC_ISSUER, OIDC_CLIENT_ID). Füge ein Zugriffstoken ein, um die App auszuprobieren.',
    pasteLabel: 'Zugriffstoken',
    pasteUse: 'Token verwenden',
    cancel: 'Abbrechen',
    signInFailed: (message) => `Anmelden fehlgeschlagen: ${message}`,
    offlineAsOf: (time) => `Offline – Stand ${time}`,
    offline: 'Offline',
    waiting: 'Wartet aufs Senden',
    notSaved: (meal, message) => `Nicht gespeichert für „${meal}“: ${message}`,
    saveFailed: (message) => `Nicht gespeichert: ${message}`,
    menuUnavailable: (message) => `Der Speiseplan konnte nicht geladen werden: ${message}`,
    live: 'Live',
    favouritesHeading: 'Deine Favoriten demnächst',
    upcomingIntro: 'Wann die Gerichte, die du gemerkt hast, in der kommenden Woche serviert werden.',
    noUpcoming: 'Keiner deiner Favoriten steht diese Woche auf einem Speiseplan.',
    hiddenDishesHeading: 'Ausgeblendete Gerichte',
    noHiddenDishes: 'Du blendest kein Gericht aus.',
    showDishAgain: (name) => `„${name}“ wieder anzeigen`,
    signInForFavourites: 'Melde dich an, um deine kommenden Favoriten zu sehen.',
    dataHeading: 'Meine Daten',
    ratedMeals: 'Von dir bewertete Gerichte',
    markedMeals: 'Von dir gemerkte Gerichte',
    noneYet: 'Noch keine.',
    yourStars: (rating) => `Deine Bewertung: ${rating} von 5`,
    exportData: 'Meine Daten herunterladen',
    exportIntro: 'Jede Bewertung und Markierung, die der Dienst von dir hat, als JSON-Datei.',
    eraseData: 'Meine Daten löschen',
    eraseIntro: 'Löscht alle deine Bewertungen und Markierungen. Das lässt sich nicht rückgängig machen.',
    eraseConfirm: 'Ja, alles löschen',
    erased: (ratings, markings) =>
      `${ratings} ${ratings === 1 ? 'Bewertung' : 'Bewertungen'} und ${markings} ${markings === 1 ? 'Markierung' : 'Markierungen'} gelöscht.`,
    signInForData: 'Melde dich an, um deine Daten zu sehen und zu verwalten.',
    newVersion: 'Eine neue Version ist bereit: Sie startet, wenn du die App das nächste Mal öffnest.',
    language: 'English',
    notificationsHeading: 'Benachrichtigungen',
    notifyMe: 'Benachrichtigen',
    notifyIntro: 'Eine Benachrichtigung an den Tagen, an denen deine Favoriten auf dem Speiseplan stehen.',
    soldOutToo: 'Auch wenn ein Favorit von heute ausverkauft ist',
    sendTest: 'Testbenachrichtigung senden',
    testSent: (delivered, total) => `An ${delivered} von ${total} ${total === 1 ? 'Gerät' : 'Geräten'} gesendet.`,
    notificationsBlocked:
      'Benachrichtigungen sind für diese Seite blockiert: Erlaube sie in den Einstellungen des Browsers.',
    notificationsFailed: (message) => `Benachrichtigungen konnten nicht eingerichtet werden: ${message}`,
  },
};
