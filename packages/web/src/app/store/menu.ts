// Loading what the menu view shows: the canteens, the labels, the strip's days of the chosen canteen (with the
// filter, and without it to count what it hides), the day's ranking and the person's own part. Each read is painted
// first from the worker's copy (no network: a repeat visit shows the last menu at once), then from the network.
import type { Canteen, MealsResult } from '@canteen-meals/client';
import { messageOf } from '../../shared/api.js';
import { stripDays } from '../model/days.js';
import { filterCount, type Filters } from '../model/filters.js';
import { topThree, type MenuMeal } from '../model/menu-day.js';
import { keptClient, personalClient, publicClient } from './clients.js';
import {
  canteens,
  canteensProblem,
  keptAt,
  labels,
  menuProblem,
  personal,
  session,
  topPlaces,
  week,
  type Personal,
} from './state.js';

export const publicApi = publicClient((at) => {
  keptAt.value = at;
});
const keptApi = keptClient();

/** A read from the kept copy, then from the network; `show` gets each answer (the network's last). */
async function keptThenFresh<T>(read: (api: typeof publicApi) => Promise<T>, show: (answer: T) => void): Promise<void> {
  let answered = false;
  let keptJson: string | undefined;
  const fresh = read(publicApi).then((answer) => {
    answered = true;
    // The same as the kept copy (the usual repeat visit): nothing to draw again.
    if (keptJson !== undefined && JSON.stringify(answer) === keptJson) return;
    show(answer);
  });
  // Its failure is this function's, once the copy is read: not an unhandled rejection meanwhile.
  fresh.catch(() => {});
  try {
    const kept = await read(keptApi);
    // The network may have answered while the copy was read: its answer wins.
    if (!answered) {
      keptJson = JSON.stringify(kept);
      show(kept);
    }
  } catch {
    // Nothing kept: the network's answer is the first.
  }
  await fresh;
}

export async function loadCanteens(): Promise<void> {
  try {
    await keptThenFresh(
      (api) => api.listCanteens(),
      ({ canteens: list }) => {
        canteens.value = list;
        canteensProblem.value = null;
      },
    );
  } catch (error) {
    if (canteens.value === null) canteensProblem.value = messageOf(error);
  }
}

export async function loadLabels(): Promise<void> {
  await keptThenFresh(
    (api) => api.listLabels(),
    ({ labels: list }) => {
      labels.value = list;
    },
  ).catch(() => {
    // Without the vocabulary the meals show no label names and the filter panel is empty; the menu still works.
  });
}

/** The days a menu read covers: the strip's, or the one day asked for when it lies outside the strip. */
export function daysRead(today: string, day: string): { readonly from: string; readonly to: string } {
  const strip = stripDays(today);
  return strip.includes(day) ? { from: strip[0]!, to: strip[strip.length - 1]! } : { from: day, to: day };
}

let weekKey = '';
export async function loadWeek(canteen: Canteen, days: { from: string; to: string }, filter: Filters): Promise<void> {
  const key = [canteen.canteen_id, days.from, days.to, filter.without.join(','), filter.only.join(',')].join('|');
  weekKey = key;
  const query = { canteen: canteen.canteen_id, ...days };
  const filtered = filterCount(filter) > 0;
  const read = async (api: typeof publicApi) => {
    const [shown, all] = await Promise.all([
      api.getMeals({ ...query, without: filter.without, only: filter.only }),
      filtered ? api.getMeals(query) : Promise.resolve(null),
    ]);
    return { shown, all };
  };
  const meals = (answer: MealsResult) => answer.meals as readonly MenuMeal[];
  try {
    await keptThenFresh(read, ({ shown, all }) => {
      if (weekKey !== key) return;
      week.value = {
        key,
        shown: meals(shown),
        all: all === null ? null : meals(all),
        closedDays: shown.closed_days ?? [],
      };
      menuProblem.value = null;
    });
  } catch (error) {
    if (weekKey === key && week.value?.key !== key) menuProblem.value = messageOf(error);
  }
}

let rankingKey = '';
export async function loadTopPlaces(canteen: Canteen, day: string): Promise<void> {
  const key = `${canteen.canteen_id}|${day}`;
  rankingKey = key;
  await keptThenFresh(
    (api) => api.getRankings({ canteen: canteen.canteen_id, date: day }),
    (ranking) => {
      if (rankingKey !== key || ranking.scope !== 'meals') return;
      const places = topThree(ranking.items);
      // Unchanged places draw nothing again (every meal card reads them).
      if (JSON.stringify([...places]) !== JSON.stringify([...topPlaces.value])) topPlaces.value = places;
    },
  ).catch(() => {
    // No ranking (offline, nothing kept): no meal is marked as the day's best.
  });
}

let personalKey = '';
/** The person's marked and rated meals of those days, from the server (a reload shows them as the server has them). */
export async function loadPersonal(canteen: Canteen, days: { from: string; to: string }): Promise<void> {
  const signedIn = session.value;
  const key = `${canteen.canteen_id}|${days.from}|${days.to}|${signedIn?.user ?? ''}`;
  personalKey = key;
  if (signedIn === null) {
    if (personal.value.size > 0) personal.value = new Map();
    return;
  }
  try {
    const states = await personalClient(() => signedIn.getToken()).getPersonalStates({
      canteen: canteen.canteen_id,
      ...days,
      all: true,
    });
    if (personalKey !== key) return;
    personal.value = new Map(
      states.meals.map((state): [number, Personal] => [
        state.meal_id,
        { marked: state.marked, rating: state.rating_personal },
      ]),
    );
  } catch {
    // Offline: the controls show nothing chosen until the server can say.
  }
}
