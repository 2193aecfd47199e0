// The day's live stream (`GET /live`) while the page is visible: ratings and availability as they change, without a
// reload. Closed when the page is hidden, opened again on return; after a drop, opened again with a growing delay.
import type { LiveSnapshotMeal } from '@canteen-meals/client';
import { backoffMs } from '../model/pending.js';
import { publicApi } from './menu.js';
import { setFigures } from './personal.js';
import { liveConnected, liveFigures, week, type LiveFigures } from './state.js';

const figuresOf = (meal: LiveSnapshotMeal): LiveFigures => ({
  rating_count: meal.rating_count,
  rating_average: meal.rating_average,
  rating_median: meal.rating_median,
  availability: meal.availability,
  availability_changed_at: meal.availability_changed_at,
});

const isHidden = () => document.visibilityState === 'hidden';

/** Follows a canteen's day until the returned function is called; `schedule` is setTimeout (a test's own clock). */
export function followDay(
  canteen: string,
  date: string,
  schedule: (run: () => void, ms: number) => unknown = setTimeout,
): () => void {
  let stopped = false;
  let attempt = 0;
  let lastEventId: string | undefined;
  let abort: AbortController | null = null;
  let retry: unknown = null;

  async function connect() {
    if (stopped || isHidden()) return;
    abort = new AbortController();
    try {
      const events = publicApi.liveStatistics({
        canteen,
        date,
        signal: abort.signal,
        ...(lastEventId === undefined ? {} : { lastEventId }),
      });
      for await (const event of events) {
        attempt = 0;
        liveConnected.value = true;
        lastEventId = event.id;
        if (event.type === 'snapshot') {
          // The snapshot that opens a stream mostly repeats what the menu shows: only what differs is kept, and only a
          // change is drawn (every meal card reads these figures).
          const shown = new Map((week.value?.all ?? week.value?.shown ?? []).map((meal) => [meal.meal_id, meal]));
          const figures = new Map<number, LiveFigures>();
          for (const meal of event.meals) {
            const live = figuresOf(meal);
            const menu = shown.get(meal.meal_id);
            const same =
              menu !== undefined &&
              (Object.keys(live) as (keyof LiveFigures)[]).every((key) => menu[key] === live[key]);
            if (!same) figures.set(meal.meal_id, live);
          }
          if (JSON.stringify([...figures]) !== JSON.stringify([...liveFigures.value])) liveFigures.value = figures;
        } else if (event.type === 'stats') {
          const { meal } = event;
          setFigures(meal.meal_id, {
            rating_count: meal.rating_count,
            rating_average: meal.rating_average,
            rating_median: meal.rating_median,
          });
        } else {
          setFigures(event.meal.meal_id, {
            availability: event.meal.availability,
            availability_changed_at: event.meal.availability_changed_at,
          });
        }
      }
    } catch {
      // Refused, dropped or aborted: below.
    }
    liveConnected.value = false;
    if (stopped || isHidden()) return;
    const delay = backoffMs(attempt);
    attempt += 1;
    retry = schedule(() => {
      retry = null;
      void connect();
    }, delay);
  }

  function onVisibility() {
    if (isHidden()) {
      abort?.abort();
    } else if (abort === null || abort.signal.aborted) {
      if (retry === null) void connect();
    }
  }
  document.addEventListener('visibilitychange', onVisibility);
  void connect();
  return () => {
    stopped = true;
    document.removeEventListener('visibilitychange', onVisibility);
    abort?.abort();
    liveConnected.value = false;
  };
}
