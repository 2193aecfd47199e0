// The kitchen dashboard: a canteen's day, its meals' ratings and ranking, live from the SSE stream. It reads only the
// public API of its own origin (the CSP allows nothing else). Every text comes from texts.ts in the page's language.
import './dashboard.css';
import type { Canteen, RankingsResult } from '@canteen-meals/client';
import { messageOf, pageClient } from '../shared/api.js';
import { todayIn, isDay } from '../shared/dates.js';
import { element, required } from '../shared/dom.js';
import { pageLanguage } from '../shared/language.js';
import { barShares, figuresText, numberFormats, type MealFigures } from './figures.js';
import { texts } from './texts.js';

const rankingEveryMs = 1000;
const language = pageLanguage();
const t = texts[language];
const format = numberFormats(language);
const client = pageClient();

interface MenuMeal extends MealFigures {
  readonly name: string;
  readonly category?: string | null;
}
interface CardView {
  readonly card: HTMLLIElement;
  readonly average: HTMLParagraphElement;
  readonly detail: HTMLParagraphElement;
  readonly bars: Map<1 | 2 | 3 | 4 | 5, { row: HTMLLIElement; bar: HTMLSpanElement; value: HTMLSpanElement }>;
}
type StatusKind = 'loading' | 'live' | 'warning' | 'error';

/** The page's layout, built from the texts (the HTML the server sends holds only the mount point). */
function layout() {
  const app = required('app', HTMLElement);
  const header = element('header');
  const canteenSelect = element('select');
  canteenSelect.id = 'canteen';
  canteenSelect.name = 'canteen';
  const dateInput = element('input');
  dateInput.id = 'date';
  dateInput.name = 'date';
  dateInput.type = 'date';
  dateInput.required = true;
  const canteenLabel = element('label', '', `${t.canteen} `);
  canteenLabel.htmlFor = 'canteen';
  canteenLabel.append(canteenSelect);
  const dateLabel = element('label', '', `${t.day} `);
  dateLabel.htmlFor = 'date';
  dateLabel.append(dateInput);
  const statusLine = element('p', '', t.loading);
  statusLine.id = 'status';
  statusLine.setAttribute('role', 'status');
  statusLine.setAttribute('aria-live', 'polite');
  statusLine.dataset.kind = 'loading';
  header.append(element('h1', '', t.heading), canteenLabel, dateLabel, statusLine);

  const main = element('main');
  const mealsSection = section('meals-heading', t.meals);
  const emptyNote = element('p', '', t.noMeals);
  emptyNote.id = 'no-meals';
  emptyNote.hidden = true;
  const mealList = element('ul');
  mealList.id = 'meals';
  mealsSection.append(emptyNote, mealList);
  const rankingSection = section('ranking-heading', t.ranking);
  const rankingList = element('ol');
  rankingList.id = 'ranking';
  rankingSection.append(rankingList);
  main.append(mealsSection, rankingSection);
  app.replaceChildren(header, main);
  return { canteenSelect, dateInput, statusLine, mealList, rankingList, emptyNote };
}

function section(headingId: string, heading: string) {
  const node = element('section');
  node.setAttribute('aria-labelledby', headingId);
  const title = element('h2', '', heading);
  title.id = headingId;
  node.append(title);
  return node;
}

const view = layout();
let canteens: readonly Canteen[] = [];
let stream: EventSource | null = null;
/** The meals shown, by id: their elements, so that an event updates them in place. */
let cards = new Map<number, CardView>();
/** Bumped on each new selection: answers of an earlier one are dropped. */
let generation = 0;
let rankingTimer: ReturnType<typeof setTimeout> | null = null;
let rankingDue = false;

function showStatus(text: string, kind: StatusKind) {
  view.statusLine.textContent = text;
  view.statusLine.dataset.kind = kind;
}

function mealCard(meal: MenuMeal): CardView {
  const card = element('li', 'meal');
  card.dataset.mealId = String(meal.meal_id);
  card.append(element('h3', 'meal-name', meal.name));
  if (meal.category) card.append(element('p', 'meal-category', meal.category));
  const figures = element('div', 'figures');
  const average = element('p', 'average');
  const detail = element('p', 'count');
  figures.append(average, detail);
  const chart = element('ul', 'distribution');
  const bars: CardView['bars'] = new Map();
  for (const stars of [5, 4, 3, 2, 1] as const) {
    const row = element('li', 'bar-row');
    const track = element('span', 'bar-track');
    const bar = element('span', 'bar');
    track.append(bar);
    const value = element('span', 'bar-value');
    row.append(element('span', 'bar-label', `${stars} ★`), track, value);
    chart.append(row);
    bars.set(stars, { row, bar, value });
  }
  card.append(figures, chart);
  const cardView = { card, average, detail, bars };
  applyFigures(cardView, meal);
  return cardView;
}

function applyFigures(cardView: CardView, figures: MealFigures) {
  const text = figuresText(figures, t, format);
  cardView.average.textContent = text.average;
  cardView.average.setAttribute('aria-label', figures.rating_count === 0 ? t.noAverage : t.averageOf(text.average));
  cardView.detail.textContent = text.detail;
  const shares = barShares(figures.rating_distribution);
  for (const [stars, { row, bar, value }] of cardView.bars) {
    const count = figures.rating_distribution[String(stars) as keyof MealFigures['rating_distribution']];
    // The CSSOM, not a style attribute: the CSP allows no inline styles.
    bar.style.setProperty('--share', String(shares[stars]));
    value.textContent = format.whole(count);
    row.setAttribute('aria-label', t.stars(stars, count));
  }
}

function renderMenu(meals: readonly MenuMeal[]) {
  cards = new Map();
  const items = meals.map((meal) => {
    const cardView = mealCard(meal);
    cards.set(meal.meal_id, cardView);
    return cardView.card;
  });
  view.mealList.replaceChildren(...items);
  view.emptyNote.hidden = meals.length > 0;
}

function renderRanking(items: RankingsResult['items']) {
  view.rankingList.replaceChildren(
    ...items.map((item) => {
      const row = element('li', 'ranked');
      row.dataset.mealId = String('meal_id' in item ? item.meal_id : item.dish_id);
      row.append(element('span', 'rank', String(item.rank)), element('span', 'ranked-name', item.name));
      const figures =
        item.rating_count === 0 || item.rating_average === null
          ? t.unrated
          : `${format.oneDecimal(item.rating_average)} (${item.rating_count})`;
      row.append(element('span', 'ranked-figures', figures));
      return row;
    }),
  );
}

const selection = () => ({ canteen: view.canteenSelect.value, date: view.dateInput.value });

async function loadRanking(asOf: number) {
  try {
    const data = await client.getRankings(selection());
    if (asOf === generation) renderRanking(data.items);
  } catch (error) {
    if (asOf === generation) showStatus(t.rankingUnavailable(messageOf(error)), 'error');
  }
}

/** The ranking follows the figures, at most once a second: a busy lunch sends many events. */
function rankingLater() {
  if (rankingTimer !== null) {
    rankingDue = true;
    return;
  }
  const asOf = generation;
  void loadRanking(asOf);
  rankingTimer = setTimeout(() => {
    rankingTimer = null;
    if (rankingDue && asOf === generation) {
      rankingDue = false;
      rankingLater();
    }
  }, rankingEveryMs);
}

async function loadMenu(asOf: number) {
  const data = await client.getMeals(selection());
  if (asOf === generation) renderMenu(data.meals as readonly MenuMeal[]);
}

/** The live stream: EventSource reconnects by itself (with Last-Event-ID) after a network or server restart. */
function follow(asOf: number) {
  const { canteen, date } = selection();
  stream = new EventSource(`/api/v1/live?canteen=${encodeURIComponent(canteen)}&date=${encodeURIComponent(date)}`);
  const current = stream;
  current.addEventListener('open', () => showStatus(t.live, 'live'));
  current.addEventListener('error', () => {
    if (stream !== current || asOf !== generation) return;
    showStatus(current.readyState === EventSource.CLOSED ? t.notLive : t.reconnecting, 'warning');
  });
  current.addEventListener('snapshot', (event) => {
    const { meals } = JSON.parse((event as MessageEvent<string>).data) as { meals: MealFigures[] };
    const same = meals.length === cards.size && meals.every((figures) => cards.has(figures.meal_id));
    // Another set of meals: the menu changed, and names come with the menu.
    if (!same) {
      loadMenu(asOf).catch((error: unknown) => showStatus(t.menuUnavailable(messageOf(error)), 'error'));
    } else {
      for (const figures of meals) applyFigures(cards.get(figures.meal_id)!, figures);
    }
    rankingLater();
  });
  current.addEventListener('stats', (event) => {
    const figures = JSON.parse((event as MessageEvent<string>).data) as MealFigures;
    const cardView = cards.get(figures.meal_id);
    if (cardView !== undefined) applyFigures(cardView, figures);
    rankingLater();
  });
}

async function show() {
  generation += 1;
  const asOf = generation;
  stream?.close();
  stream = null;
  const url = new URL(location.href);
  url.searchParams.set('canteen', view.canteenSelect.value);
  url.searchParams.set('date', view.dateInput.value);
  history.replaceState(null, '', url);
  const canteen = canteens.find((each) => each.canteen_id === view.canteenSelect.value);
  document.title = `${canteen ? `${canteen.name} · ` : ''}${view.dateInput.value} · ${t.title}`;
  showStatus(t.loading, 'loading');
  try {
    await loadMenu(asOf);
  } catch (error) {
    if (asOf === generation) showStatus(t.menuUnavailable(messageOf(error)), 'error');
    return;
  }
  if (asOf !== generation) return;
  follow(asOf);
}

async function start() {
  const asked = new URL(location.href).searchParams;
  try {
    canteens = (await client.listCanteens()).canteens;
  } catch (error) {
    showStatus(t.canteensUnavailable(messageOf(error)), 'error');
    return;
  }
  view.canteenSelect.replaceChildren(
    ...canteens.map((canteen) => {
      const option = element('option', '', canteen.name);
      option.value = canteen.canteen_id;
      return option;
    }),
  );
  const wanted = canteens.find((canteen) => canteen.canteen_id === asked.get('canteen')) ?? canteens[0];
  if (wanted === undefined) {
    showStatus(t.noCanteen, 'warning');
    return;
  }
  view.canteenSelect.value = wanted.canteen_id;
  const day = asked.get('date');
  view.dateInput.value = isDay(day) ? day : todayIn(wanted.timezone);
  view.canteenSelect.addEventListener('change', () => void show());
  view.dateInput.addEventListener('change', () => {
    if (view.dateInput.value !== '') void show();
  });
  await show();
}

void start();
