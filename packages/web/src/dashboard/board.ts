// A canteen's day: its meals with their ratings and what is left of them, and the ranking, live from the SSE stream.
// Three ways to show it (mode): the dashboard (choose canteen and day), the kitchen's (a button per meal that says
// what is left, with an undo) and the wall's (a screen across a room: no controls, everything fits, pages turn).
import type { Canteen, MealsClient, RankingsResult } from '@canteen-meals/client';
import { messageOf } from '../shared/api.js';
import { isDay, todayIn } from '../shared/dates.js';
import { element } from '../shared/dom.js';
import type { Language } from '../shared/language.js';
import { boardLayout, type BoardMode } from './board-layout.js';
import { fitNames } from './fit-names.js';
import { isAvailability, nextAvailability, UndoWindow, type Change } from './availability.js';
import { numberFormats, type MealFigures } from './figures.js';
import { applyAvailability, applyFigures, mealCard, type CardView, type MenuMeal } from './meal-card.js';
import { pagesOf, Pager } from './paging.js';
import { rankingText } from './ranking-text.js';
import type { Scheduler } from './scheduler.js';
import { texts } from './texts.js';

export type { BoardMode } from './board-layout.js';

export interface BoardOptions {
  readonly mode: BoardMode;
  readonly language: Language;
  readonly client: MealsClient;
  readonly scheduler: Scheduler;
  readonly canteens: readonly Canteen[];
  /** What the URL asked for; the wall keeps to today unless a day is asked. */
  readonly canteen: Canteen;
  readonly day: string | null;
  readonly signOut?: () => void;
}

/** The ranking is read again at most this often: a busy lunch sends many events. */
const rankingEveryMs = 1000;
/** A stream the browser gave up on (the server answered an error while restarting) is opened again after this. */
const reopenAfterMs = 5000;
/** The wall checks this often whether the canteen's day turned (a screen runs for days). */
const dayCheckEveryMs = 60_000;
/** The wall's ranking: the top of it fits beside 30 meals. */
const wallRankingSize = 10;

type StatusKind = 'loading' | 'live' | 'warning' | 'error';

export function mountBoard(root: HTMLElement, options: BoardOptions): void {
  const { mode, client, scheduler } = options;
  const t = texts[options.language];
  const format = numberFormats(options.language);
  const wall = mode === 'wall';

  const {
    canteenSelect,
    dateInput,
    statusLine,
    wallDay,
    rankingList,
    emptyNote,
    mealList,
    pageLine,
    undoBar,
    undoText,
    undoButton,
  } = boardLayout(root, {
    mode,
    t,
    canteenName: options.canteen.name,
    ...(options.signOut === undefined ? {} : { signOut: options.signOut }),
  });

  let stream: EventSource | null = null;
  let cards = new Map<number, CardView>();
  /** Bumped on each new selection: answers of an earlier one are dropped. */
  let generation = 0;
  let rankingWaiting = false;
  let rankingDue = false;
  let current = {
    canteen: options.canteen,
    date: isDay(options.day) ? options.day : todayIn(options.canteen.timezone),
  };

  const showStatus = (text: string, kind: StatusKind) => {
    statusLine.textContent = text;
    statusLine.dataset.kind = kind;
  };

  const pager = new Pager(scheduler, (index, count) => {
    const shown = new Set(pagesOf([...cards.keys()])[index]);
    for (const [mealId, view] of cards) view.card.hidden = !shown.has(mealId);
    pageLine.hidden = count < 2;
    pageLine.textContent = t.pageOf(index + 1, count);
  });

  const undo = new UndoWindow(scheduler, (offered) => {
    undoBar.hidden = offered === null;
    if (offered === null) return;
    const name = cards.get(offered.mealId)?.name ?? '';
    undoText.textContent = t.changed(name, t.availability[offered.to]);
    undoButton.setAttribute('aria-label', t.undoChange(name, t.availability[offered.from]));
  });

  async function setAvailability(change: Change, offerUndo: boolean) {
    const view = cards.get(change.mealId);
    try {
      const answer = await client.setMealAvailability(change.mealId, change.to);
      if (view !== undefined) applyAvailability(view, answer.availability, t);
      if (offerUndo) undo.offer(change);
    } catch (error) {
      showStatus(t.changeFailed(messageOf(error)), 'error');
    }
  }

  undoButton.addEventListener('click', () => {
    const change = undo.take();
    if (change !== null) void setAvailability({ mealId: change.mealId, from: change.to, to: change.from }, false);
  });

  const onTap =
    mode === 'kitchen'
      ? (view: CardView) =>
          void setAvailability({ mealId: view.mealId, from: view.status, to: nextAvailability(view.status) }, true)
      : undefined;

  function renderMenu(meals: readonly MenuMeal[]) {
    // Placeholders ("Kein Angebot") are no meal to show; the public menu leaves them out already.
    const shown = meals.filter((meal) => !(meal.labels ?? []).includes('placeholder'));
    cards = new Map();
    const items = shown.map((meal) => {
      const view = mealCard(meal, { t, format, compact: mode !== 'board', ...(onTap === undefined ? {} : { onTap }) });
      cards.set(meal.meal_id, view);
      return view.card;
    });
    mealList.replaceChildren(...items);
    emptyNote.hidden = shown.length > 0;
    if (wall) {
      pager.update(pagesOf(shown).length);
      fitNames(mealList);
    }
  }
  // A screen turned or resized: the cards' width changed.
  if (wall) addEventListener('resize', () => fitNames(mealList));

  function renderRanking(items: RankingsResult['items']) {
    const ranked = wall ? items.slice(0, wallRankingSize) : items;
    rankingList.replaceChildren(
      ...ranked.map((item) => {
        const row = element('li', 'ranked');
        row.dataset.mealId = String('meal_id' in item ? item.meal_id : item.dish_id);
        if ('availability' in item && isAvailability(item.availability)) row.dataset.availability = item.availability;
        const text = rankingText(item, t, format);
        row.append(element('span', 'rank', String(item.rank)), element('span', 'ranked-name', item.name));
        row.append(element('span', 'ranked-figures', text.figures));
        if (text.sureShare !== null) {
          const track = element('span', 'sure-track');
          track.setAttribute('role', 'img');
          track.setAttribute('aria-label', text.sureLabel ?? '');
          const bar = element('span', 'sure-bar');
          bar.style.setProperty('--share', String(text.sureShare));
          track.append(bar);
          row.append(track);
        }
        return row;
      }),
    );
  }

  async function loadRanking(asOf: number) {
    try {
      const data = await client.getRankings({ canteen: current.canteen.canteen_id, date: current.date });
      if (asOf === generation) renderRanking(data.items);
    } catch (error) {
      if (asOf === generation) showStatus(t.rankingUnavailable(messageOf(error)), 'error');
    }
  }

  /** The ranking follows the figures, at most once a second. */
  function rankingLater() {
    if (rankingWaiting) {
      rankingDue = true;
      return;
    }
    const asOf = generation;
    rankingWaiting = true;
    void loadRanking(asOf);
    scheduler.after(rankingEveryMs, () => {
      rankingWaiting = false;
      if (rankingDue && asOf === generation) {
        rankingDue = false;
        rankingLater();
      }
    });
  }

  async function loadMenu(asOf: number) {
    const data = await client.getMeals({ canteen: current.canteen.canteen_id, date: current.date });
    if (asOf === generation) renderMenu(data.meals as readonly MenuMeal[]);
  }

  /**
   * The live stream. EventSource reconnects by itself (with Last-Event-ID) after a network failure; when it gives up
   * (a restarting server answered an error), it is opened again here, so that a wall never needs a click.
   */
  function follow(asOf: number) {
    const url = `/api/v1/live?canteen=${encodeURIComponent(current.canteen.canteen_id)}&date=${encodeURIComponent(current.date)}`;
    const source = new EventSource(url);
    stream = source;
    source.addEventListener('open', () => showStatus(t.live, 'live'));
    source.addEventListener('error', () => {
      if (stream !== source || asOf !== generation) return;
      showStatus(t.reconnecting, 'warning');
      if (source.readyState === EventSource.CLOSED) {
        scheduler.after(reopenAfterMs, () => {
          if (stream === source && asOf === generation) follow(asOf);
        });
      }
    });
    source.addEventListener('snapshot', (event) => {
      const { meals } = JSON.parse((event as MessageEvent<string>).data) as {
        meals: (MealFigures & { availability?: unknown })[];
      };
      const same = meals.length === cards.size && meals.every((figures) => cards.has(figures.meal_id));
      // Another set of meals: the menu changed, and names come with the menu.
      if (!same) {
        loadMenu(asOf).catch((error: unknown) => showStatus(t.menuUnavailable(messageOf(error)), 'error'));
      } else {
        for (const figures of meals) {
          const view = cards.get(figures.meal_id)!;
          applyFigures(view, figures, t, format);
          if (isAvailability(figures.availability)) applyAvailability(view, figures.availability, t);
        }
      }
      rankingLater();
    });
    source.addEventListener('stats', (event) => {
      const figures = JSON.parse((event as MessageEvent<string>).data) as MealFigures;
      const view = cards.get(figures.meal_id);
      if (view !== undefined) applyFigures(view, figures, t, format);
      rankingLater();
    });
    source.addEventListener('availability', (event) => {
      const data = JSON.parse((event as MessageEvent<string>).data) as { meal_id: number; availability: unknown };
      const view = cards.get(data.meal_id);
      if (!isAvailability(data.availability)) return;
      if (view !== undefined) applyAvailability(view, data.availability, t);
      const ranked = rankingList.querySelector<HTMLElement>(`[data-meal-id="${data.meal_id}"]`);
      if (ranked !== null) ranked.dataset.availability = data.availability;
    });
  }

  async function show() {
    generation += 1;
    const asOf = generation;
    stream?.close();
    stream = null;
    const url = new URL(location.href);
    url.searchParams.set('canteen', current.canteen.canteen_id);
    if (!wall || isDay(options.day)) url.searchParams.set('date', current.date);
    history.replaceState(null, '', url);
    document.title = `${current.canteen.name} · ${current.date} · ${t.title}`;
    if (wallDay !== null) wallDay.textContent = current.date;
    showStatus(t.loading, 'loading');
    try {
      await loadMenu(asOf);
    } catch (error) {
      if (asOf === generation) showStatus(t.menuUnavailable(messageOf(error)), 'error');
      return;
    }
    if (asOf === generation) follow(asOf);
  }

  if (wall) {
    if (!isDay(options.day)) {
      const checkDay = () => {
        const today = todayIn(current.canteen.timezone);
        if (today !== current.date) {
          current = { ...current, date: today };
          void show();
        }
        scheduler.after(dayCheckEveryMs, checkDay);
      };
      scheduler.after(dayCheckEveryMs, checkDay);
    }
  } else {
    canteenSelect.replaceChildren(
      ...options.canteens.map((canteen) => {
        const option = element('option', '', canteen.name);
        option.value = canteen.canteen_id;
        return option;
      }),
    );
    canteenSelect.value = current.canteen.canteen_id;
    dateInput.value = current.date;
    canteenSelect.addEventListener('change', () => {
      const canteen = options.canteens.find((each) => each.canteen_id === canteenSelect.value);
      if (canteen === undefined) return;
      current = { ...current, canteen };
      void show();
    });
    dateInput.addEventListener('change', () => {
      if (dateInput.value === '') return;
      current = { ...current, date: dateInput.value };
      void show();
    });
  }
  void show();
}
