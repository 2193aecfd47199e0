// What a signed-in person does: rate, mark, hide a dish, set the filter. A tap shows at once; the server's answer
// then says how it stands. A tap that gets no answer (offline) waits in the browser, shown as waiting, and is sent
// when the browser is back online; one the server refuses is undone with its reason. Nothing is lost silently.
import { MealsApiError, type MealsClient } from '@canteen-meals/client';
import { messageOf } from '../../shared/api.js';
import { filterCount, mergeFilters, sameFilters, type Filters } from '../model/filters.js';
import type { MenuMeal } from '../model/menu-day.js';
import { enqueue, type PendingAction } from '../model/pending.js';
import { isNetworkFailure, personalClient } from './clients.js';
import { keep } from './storage.js';
import {
  filters,
  hiddenDishes,
  liveFigures,
  notice,
  pending,
  personal,
  session,
  t,
  type LiveFigures,
  type Personal,
} from './state.js';

function api(): MealsClient | null {
  const signedIn = session.value;
  return signedIn === null ? null : personalClient(() => signedIn.getToken());
}

function setPersonal(mealId: number, change: Partial<Personal>) {
  const next = new Map(personal.value);
  next.set(mealId, { marked: false, rating: null, ...personal.value.get(mealId), ...change });
  personal.value = next;
}

export function setFigures(mealId: number, change: LiveFigures) {
  const next = new Map(liveFigures.value);
  next.set(mealId, { ...next.get(mealId), ...change });
  liveFigures.value = next;
}

function setPending(queue: readonly PendingAction[]) {
  pending.value = queue;
  keep('pending', queue);
}

/** Sends one action; the answer updates the meal. Throws what the call threw. */
async function send(client: MealsClient, action: PendingAction): Promise<void> {
  if (action.kind === 'rate') {
    const answer = await client.rateMeal({ meal_id: action.meal_id, rating: action.rating });
    setPersonal(action.meal_id, { rating: answer.rating_personal });
    setFigures(action.meal_id, {
      rating_count: answer.rating_count,
      rating_average: answer.rating_average,
      rating_median: answer.rating_median,
    });
  } else {
    const answer = await client.markMeal({ meal_id: action.meal_id, marked: action.marked });
    setPersonal(action.meal_id, { marked: answer.marked });
  }
}

/** Each meal's calls one after the other: a second tap waits for the first's answer, so the last tap is what stays. */
const queues = new Map<number, Promise<void>>();

async function act(meal: Pick<MenuMeal, 'meal_id' | 'name'>, action: PendingAction): Promise<void> {
  const client = api();
  if (client === null) return;
  const before = personal.value.get(meal.meal_id);
  setPersonal(meal.meal_id, action.kind === 'rate' ? { rating: action.rating } : { marked: action.marked });
  const previous = queues.get(meal.meal_id) ?? Promise.resolve();
  const call = previous.then(async () => {
    try {
      await send(client, action);
    } catch (error) {
      if (isNetworkFailure(error)) {
        setPending(enqueue(pending.value, action));
        return;
      }
      setPersonal(meal.meal_id, before ?? { marked: false, rating: null });
      notice.value = { kind: 'error', text: t.value.notSaved(meal.name, messageOf(error)) };
    }
  });
  queues.set(meal.meal_id, call);
  await call;
}

export const rate = (meal: Pick<MenuMeal, 'meal_id' | 'name'>, rating: number | null) =>
  act(meal, { kind: 'rate', meal_id: meal.meal_id, rating });
export const mark = (meal: Pick<MenuMeal, 'meal_id' | 'name'>, marked: boolean) =>
  act(meal, { kind: 'mark', meal_id: meal.meal_id, marked });

/** Whether a tap on this meal waits to be sent. */
export const isWaiting = (mealId: number) => pending.value.some((action) => action.meal_id === mealId);

let flushing = false;
/**
 * Sends what waits, in order; stops at the first that gets no answer (still offline). Refusals are said and dropped.
 */
export async function sendPending(): Promise<void> {
  const client = api();
  if (client === null || flushing) return;
  flushing = true;
  try {
    while (pending.value.length > 0) {
      const action = pending.value[0]!;
      try {
        await send(client, action);
      } catch (error) {
        if (isNetworkFailure(error)) return;
        notice.value = { kind: 'error', text: t.value.saveFailed(messageOf(error)) };
      }
      setPending(pending.value.filter((entry) => entry !== action));
    }
  } finally {
    flushing = false;
  }
}

/** The dishes the person hides, from the server. */
export async function loadHiddenDishes(): Promise<void> {
  const client = api();
  if (client === null) {
    hiddenDishes.value = new Set();
    return;
  }
  try {
    hiddenDishes.value = new Set((await client.listAversions()).aversions.map((aversion) => aversion.dish_id));
  } catch {
    // Offline: nothing hidden until the server can say.
  }
}

/** Hides a dish (an aversion), with an undo in the notice; `hidden: false` brings it back. */
export async function hideDish(
  dish: { readonly dish_id: number; readonly name: string },
  hidden = true,
): Promise<void> {
  const client = api();
  if (client === null) return;
  try {
    const answer = hidden ? await client.avoidDish(dish.dish_id) : await client.stopAvoidingDish(dish.dish_id);
    const next = new Set(hiddenDishes.value);
    if (answer.avoided) next.add(dish.dish_id);
    else next.delete(dish.dish_id);
    hiddenDishes.value = next;
    notice.value = hidden
      ? { kind: 'info', text: t.value.dishHidden(dish.name), undo: () => void hideDish(dish, false) }
      : null;
  } catch (error) {
    notice.value = { kind: 'error', text: t.value.saveFailed(messageOf(error)) };
  }
}

let savingFilters = Promise.resolve();
/** The filter changed: kept in the browser, and the person's preferences on the server when signed in. */
export function setFilters(next: Filters): void {
  filters.value = next;
  keep('filters', next);
  const client = api();
  if (client === null) return;
  savingFilters = savingFilters.then(async () => {
    try {
      await client.savePreferences({ without: [...next.without], only: [...next.only] });
    } catch (error) {
      notice.value = { kind: 'error', text: t.value.saveFailed(messageOf(error)) };
    }
  });
}

/**
 * At sign-in: the browser's filter and the server's preferences merged (every code of either), saved where either
 * lacks something. Nothing chosen signed out is lost, nor anything saved from another device.
 */
export async function mergeFiltersAtSignIn(): Promise<void> {
  const client = api();
  if (client === null) return;
  try {
    const server = await client.getPreferences();
    const merged = mergeFilters(filters.value, server);
    if (!sameFilters(merged, server))
      await client.savePreferences({ without: [...merged.without], only: [...merged.only] });
    if (!sameFilters(merged, filters.value) || filterCount(merged) !== filterCount(filters.value)) {
      filters.value = merged;
      keep('filters', merged);
    }
  } catch (error) {
    if (!(error instanceof MealsApiError && error.source === 'network')) {
      notice.value = { kind: 'error', text: t.value.saveFailed(messageOf(error)) };
    }
  }
}
