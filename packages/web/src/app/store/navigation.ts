// The app's URLs: every view and day has one (a link to share, the back button works), and moving between them is a
// history entry, not a page load. `?lang=` stays as it was asked for.
import { askedDay, canteenId, view, views, type View } from './state.js';
import { isDay } from '../model/days.js';
import { keep } from './storage.js';

export interface Place {
  readonly view?: View;
  readonly canteen?: string;
  readonly date?: string | null;
}

/** The URL of a place: the current one with the given parts changed (`date: null`: today). */
export function hrefFor(place: Place): string {
  const url = new URL(location.href);
  url.hash = '';
  const set = (name: string, value: string | null | undefined) => {
    if (value === undefined) return;
    if (value === null) url.searchParams.delete(name);
    else url.searchParams.set(name, value);
  };
  set('view', place.view === undefined ? undefined : place.view === 'menu' ? null : place.view);
  set('canteen', place.canteen);
  set('date', place.date);
  return `${url.pathname}${url.search}`;
}

/** Reads the place from the URL into the state (a start, the back button). */
export function applyLocation(): void {
  const asked = new URL(location.href).searchParams;
  const askedView = asked.get('view');
  view.value = views.includes(askedView as View) ? (askedView as View) : 'menu';
  const canteen = asked.get('canteen');
  if (canteen !== null) canteenId.value = canteen;
  askedDay.value = isDay(asked.get('date')) ? asked.get('date') : null;
}

/** Goes to a place; `toView`: another view, whose content takes the focus (else it stays on the control tapped). */
export function navigate(href: string, toView = false): void {
  history.pushState(null, '', href);
  applyLocation();
  if (canteenId.value !== null) keep('canteen', canteenId.value);
  if (toView) document.getElementById('main')?.focus();
}

/** A click on an in-app link: a history entry instead of a page load (a modified click opens a tab as usual). */
export function onLinkClick(event: MouseEvent): void {
  if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey)
    return;
  const link = event.currentTarget as HTMLAnchorElement;
  event.preventDefault();
  navigate(link.getAttribute('href') ?? '/', link.dataset.view !== undefined);
}

export function listenToHistory(): void {
  addEventListener('popstate', applyLocation);
}
