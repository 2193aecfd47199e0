// The app's state, as signals: a component reads what it shows and redraws when that changes. The loaders and
// actions (menu.ts, personal.ts, live.ts, account.ts) write it; components only call actions.
import type { Canteen, Label, LiveMealStats } from '@canteen-meals/client';
import { computed, signal } from '@preact/signals';
import { isLanguage, type Language } from '../../shared/language.js';
import type { Session } from '../../shared/sign-in-settings.js';
import { isDay, todayIn } from '../model/days.js';
import { filtersFrom, noFilters, type Filters } from '../model/filters.js';
import type { MenuMeal } from '../model/menu-day.js';
import { queueFrom, type PendingAction } from '../model/pending.js';
import { isPriceGroup, type PriceGroup } from '../model/prices.js';
import { texts } from '../texts.js';
import { readKept } from './storage.js';

export const views = ['menu', 'favourites', 'data'] as const;
export type View = (typeof views)[number];

const asked = new URL(location.href).searchParams;

/** `?lang=` (the page kept offline may be in another language), else the server's choice on <html lang>. */
export const language = signal<Language>(
  isLanguage(asked.get('lang'))
    ? (asked.get('lang') as Language)
    : isLanguage(document.documentElement.lang)
      ? (document.documentElement.lang as Language)
      : 'en',
);
export const t = computed(() => texts[language.value]);

export const view = signal<View>(views.includes(asked.get('view') as View) ? (asked.get('view') as View) : 'menu');

export const canteens = signal<readonly Canteen[] | null>(null);
export const canteensProblem = signal<string | null>(null);
export const labels = signal<readonly Label[]>([]);

/** The canteen and day shown: the link's, else the last canteen chosen (else the first), and today on its clocks. */
export const canteenId = signal<string | null>(
  asked.get('canteen') ?? (readKept('canteen') as string | undefined) ?? null,
);
export const askedDay = signal<string | null>(isDay(asked.get('date')) ? asked.get('date') : null);
export const canteen = computed(() => {
  const list = canteens.value;
  if (list === null) return null;
  return list.find((entry) => entry.canteen_id === canteenId.value) ?? list[0] ?? null;
});
/** Today on the canteen's clocks; refreshed by the clock tick (a page left open past midnight). */
export const now = signal(new Date());
export const today = computed(() => todayIn(canteen.value?.timezone, now.value));
export const day = computed(() => askedDay.value ?? today.value);

export const priceGroup = signal<PriceGroup>(
  isPriceGroup(readKept('price-group')) ? (readKept('price-group') as PriceGroup) : 'student',
);
export const filters = signal<Filters>(filtersFrom(readKept('filters') ?? noFilters));
export const filtersOpen = signal(false);
export const showHidden = signal(false);

export const session = signal<Session | null>(null);
/** Whether this server offers signing in at a provider (else a pasted token). */
export const providerSignIn = signal(false);

export interface Week {
  /** canteen, days and filter this is for: a late answer for another is dropped. */
  readonly key: string;
  /** The meals of the strip's days that pass the filter, in menu order. */
  readonly shown: readonly MenuMeal[];
  /** Every meal of those days (the same read without the filter); null when no filter is set. */
  readonly all: readonly MenuMeal[] | null;
  readonly closedDays: readonly string[];
}
export const week = signal<Week | null>(null);
export const menuProblem = signal<string | null>(null);
/** When the menu shown was fetched, when it came from the kept copy (offline); null: fresh from the network. */
export const keptAt = signal<Date | null>(null);
export const online = signal(typeof navigator === 'undefined' ? true : navigator.onLine);

/** The day's ranking: place 1 to 3 by meal id. */
export const topPlaces = signal<ReadonlyMap<number, number>>(new Map());

/** The person's own part of the menu (from the server): marked and rated meals of the strip's days. */
export interface Personal {
  readonly marked: boolean;
  readonly rating: number | null;
}
export const personal = signal<ReadonlyMap<number, Personal>>(new Map());
/** Figures newer than the menu read: the live stream's, and the answers to the person's own ratings. */
export type LiveFigures = Partial<Pick<LiveMealStats, 'rating_count' | 'rating_average' | 'rating_median'>> &
  Partial<Pick<MenuMeal, 'availability' | 'availability_changed_at'>>;
export const liveFigures = signal<ReadonlyMap<number, LiveFigures>>(new Map());
export const liveConnected = signal(false);

export const pending = signal<readonly PendingAction[]>(queueFrom(readKept('pending')));
/** Dishes the person hides (aversions), by dish id; empty signed out. */
export const hiddenDishes = signal<ReadonlySet<number>>(new Set());

/** One message at a time, for a few seconds or until the next, with an undo where there is one. */
export interface Notice {
  readonly text: string;
  readonly undo?: () => void;
  readonly kind: 'info' | 'error';
}
export const notice = signal<Notice | null>(null);
export const newVersionReady = signal(false);
