// The students' app at `/`: a canteen's menu of the day on a phone, filtered, rated and marked in one tap, offline
// from the service worker's copy, in German and English. Components (ui/) draw the state (store/state.ts); loaders
// and actions (store/) fill it from the public API and the person's own calls. Nothing inline: the pages' strict CSP.
import './app.css';
import { computed, effect, signal } from '@preact/signals';
import { options, render } from 'preact';
import { resumeSession } from './store/account.js';
import { listenToHistory } from './store/navigation.js';
import { followDay } from './store/live.js';
import { daysRead, loadCanteens, loadLabels, loadPersonal, loadTopPlaces, loadWeek } from './store/menu.js';
import { loadHiddenDishes, mergeFiltersAtSignIn, sendPending } from './store/personal.js';
import {
  canteen,
  day,
  filters,
  language,
  newVersionReady,
  now,
  online,
  session,
  t,
  today,
  view,
} from './store/state.js';
import { keep } from './store/storage.js';
import { App } from './ui/App.js';

const root = document.getElementById('app');
if (root === null) throw new Error('the page has no #app');

// The language chosen (a kept page may be in another): the document says it, for screen readers and the title.
effect(() => {
  document.documentElement.lang = language.value;
  document.title = t.value.title;
});

// Each batch of changes redrawn in a task of its own, not inside the answer's task that caused it: no long task when
// a menu of many meals arrives (Lighthouse's blocking time).
options.debounceRendering = (redraw) => setTimeout(redraw, 0);
render(<App />, root);
listenToHistory();

void loadCanteens();
void loadLabels();

/** The chosen canteen by its id: a fresh list of canteens with the same one chosen changes nothing. */
const chosenId = computed(() => canteen.value?.canteen_id ?? null);

// The menu of the strip's days, the day's ranking, the person's own part: again whenever one of them changes.
effect(() => {
  if (chosenId.value === null) return;
  const chosen = canteen.peek()!;
  keep('canteen', chosen.canteen_id);
  const days = daysRead(today.value, day.value);
  void loadWeek(chosen, days, filters.value);
  void loadTopPlaces(chosen, day.value);
  void loadPersonal(chosen, days);
});

/** After the page has loaded: the stream never ends, and nothing of the first view waits for it. */
const loaded = signal(document.readyState === 'complete');
addEventListener('load', () => setTimeout(() => (loaded.value = true), 0), { once: true });

// The day live while the menu is shown and the browser is online (the stream itself closes while the page is hidden).
effect(() => {
  if (!loaded.value) return;
  const id = chosenId.value;
  if (id === null || view.value !== 'menu' || !online.value) return;
  return followDay(id, day.value);
});

void resumeSession().then(() => {
  if (session.value === null) return;
  void mergeFiltersAtSignIn();
  void loadHiddenDishes();
  void sendPending();
});

addEventListener('online', () => {
  online.value = true;
  void sendPending();
});
addEventListener('offline', () => {
  online.value = false;
});
// Past midnight, "today" moves on.
setInterval(() => (now.value = new Date()), 60_000);

// The service worker: the app and the last menus offline. Registered once the page has loaded: its install fetches
// every file of the app again, which must not compete with the first view. A new version installs in the background
// and waits for the next start (never in the middle of use); the app says it is ready.
function registerServiceWorker() {
  navigator.serviceWorker
    .register('/sw.js', { scope: '/' })
    .then((registration) => {
      const waiting = () => {
        if (registration.waiting !== null && navigator.serviceWorker.controller !== null) newVersionReady.value = true;
      };
      waiting();
      registration.addEventListener('updatefound', () =>
        registration.installing?.addEventListener('statechange', waiting),
      );
    })
    .catch(() => {
      // No worker (a private window, a browser without): the app works online.
    });
}
if ('serviceWorker' in navigator) {
  if (document.readyState === 'complete') registerServiceWorker();
  else addEventListener('load', registerServiceWorker, { once: true });
}
