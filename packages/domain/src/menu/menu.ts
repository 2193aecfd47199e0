import type { MealPrices } from '../meal/meal-prices.js';
import type { LocalDate, LocalTime } from './local-time.js';

/** One meal as a published menu lists it: it has no id yet. */
export interface MenuItem {
  readonly category: string;
  readonly name: string;
  readonly notes: readonly string[];
  readonly prices: MealPrices;
}

/** One day of a published menu: its meals, or closed. */
export type MenuDay =
  | { readonly date: LocalDate; readonly closed: false; readonly items: readonly MenuItem[] }
  | { readonly date: LocalDate; readonly closed: true };

/** When the canteen serves, to turn a menu's day into the instant `served_at`. */
export interface ServiceTime {
  /** Wall-clock time of the start of service, "HH:MM". */
  readonly start: LocalTime;
  /** IANA time zone of the canteen, e.g. "Europe/Berlin". */
  readonly timeZone: string;
}
