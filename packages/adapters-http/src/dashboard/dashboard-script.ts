/**
 * The dashboard's one script: a plain ES module, no framework, no build step. Kept as text in a TypeScript module so
 * that `tsc -b` carries it into dist/ and every packed copy of this package serves it, with no copy step.
 *
 * It reads only the public API of its own origin (the CSP allows nothing else): the canteens, a day's menu, its
 * ranking, and the live statistics stream. Names are set with textContent, never as markup.
 * (Written without template literals: the text sits in one.)
 */
export const dashboardScript = String.raw`// Kitchen dashboard: a canteen's day, its meals' ratings and ranking, live from the SSE stream.
const api = '/api/v1';
const rankingEveryMs = 1000;

const canteenSelect = document.getElementById('canteen');
const dateInput = document.getElementById('date');
const statusLine = document.getElementById('status');
const mealList = document.getElementById('meals');
const rankingList = document.getElementById('ranking');
const emptyNote = document.getElementById('no-meals');

const oneDecimal = new Intl.NumberFormat(undefined, { minimumFractionDigits: 1, maximumFractionDigits: 1 });
const wholeNumber = new Intl.NumberFormat();

let canteens = [];
let stream = null;
/** The meals shown, by id: their elements, so that an event updates them in place. */
let cards = new Map();
/** Bumped on each new selection: answers of an earlier one are dropped. */
let generation = 0;
let rankingTimer = null;
let rankingDue = false;

function element(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

function showStatus(text, kind) {
  statusLine.textContent = text;
  statusLine.dataset.kind = kind;
}

/** Each read revalidates (a 304 when unchanged): the menu and ranking may be kept for seconds, and events are newer. */
async function getData(path) {
  const response = await fetch(api + path, { cache: 'no-cache', headers: { accept: 'application/json' } });
  const body = await response.json().catch(() => null);
  if (!response.ok || body === null || body.status !== 'success') {
    const message = body && body.error && body.error.message ? body.error.message : 'HTTP ' + response.status;
    throw new Error(message);
  }
  return body.data;
}

/** Today on the canteen's clocks (its day is what the menus mean by a date); the browser's own day otherwise. */
function todayIn(timeZone) {
  const parts = (zone) => new Intl.DateTimeFormat('en-CA', { timeZone: zone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(new Date());
  try {
    return parts(timeZone);
  } catch {
    return parts(undefined);
  }
}

function figuresText(count, average, median) {
  if (count === 0 || average === null) return { average: '–', detail: 'no ratings yet' };
  const ratings = count === 1 ? '1 rating' : wholeNumber.format(count) + ' ratings';
  return { average: oneDecimal.format(average), detail: ratings + ' · median ' + oneDecimal.format(median) };
}

function mealCard(meal) {
  const card = element('li', 'meal');
  card.dataset.mealId = String(meal.meal_id);
  const heading = element('h3', 'meal-name', meal.name);
  card.append(heading);
  if (meal.category) card.append(element('p', 'meal-category', meal.category));
  const figures = element('div', 'figures');
  const average = element('p', 'average');
  const detail = element('p', 'count');
  figures.append(average, detail);
  const chart = element('ul', 'distribution');
  const bars = [];
  for (let stars = 5; stars >= 1; stars -= 1) {
    const row = element('li', 'bar-row');
    const label = element('span', 'bar-label', stars + ' ★');
    const track = element('span', 'bar-track');
    const bar = element('span', 'bar');
    track.append(bar);
    const value = element('span', 'bar-value');
    row.append(label, track, value);
    chart.append(row);
    bars[stars] = { row, bar, value };
  }
  card.append(figures, chart);
  const view = { card, average, detail, bars };
  applyFigures(view, meal);
  return view;
}

function applyFigures(view, figures) {
  const text = figuresText(figures.rating_count, figures.rating_average, figures.rating_median);
  view.average.textContent = text.average;
  view.average.setAttribute('aria-label', figures.rating_count === 0 ? 'no average' : 'average ' + text.average + ' of 5');
  view.detail.textContent = text.detail;
  const distribution = figures.rating_distribution;
  const most = Math.max(1, ...[1, 2, 3, 4, 5].map((stars) => distribution[String(stars)]));
  for (let stars = 1; stars <= 5; stars += 1) {
    const count = distribution[String(stars)];
    const { row, bar, value } = view.bars[stars];
    // The CSSOM, not a style attribute: the CSP allows no inline styles.
    bar.style.setProperty('--share', String(count / most));
    value.textContent = wholeNumber.format(count);
    row.setAttribute('aria-label', stars + (stars === 1 ? ' star: ' : ' stars: ') + count);
  }
}

function renderMenu(meals) {
  cards = new Map();
  const items = meals.map((meal) => {
    const view = mealCard(meal);
    cards.set(meal.meal_id, view);
    return view.card;
  });
  mealList.replaceChildren(...items);
  emptyNote.hidden = meals.length > 0;
}

function renderRanking(items) {
  rankingList.replaceChildren(
    ...items.map((item) => {
      const row = element('li', 'ranked');
      row.dataset.mealId = String(item.meal_id);
      row.append(element('span', 'rank', String(item.rank)), element('span', 'ranked-name', item.name));
      const text = figuresText(item.rating_count, item.rating_average, null);
      const figures = item.rating_count === 0 ? 'unrated' : text.average + ' (' + item.rating_count + ')';
      row.append(element('span', 'ranked-figures', figures));
      return row;
    }),
  );
}

function query() {
  return '?canteen=' + encodeURIComponent(canteenSelect.value) + '&date=' + encodeURIComponent(dateInput.value);
}

async function loadRanking(asOf) {
  try {
    const data = await getData('/rankings' + query());
    if (asOf === generation) renderRanking(data.items);
  } catch (error) {
    if (asOf === generation) showStatus('Ranking unavailable: ' + error.message, 'error');
  }
}

/** The ranking follows the figures, at most once a second: a busy lunch sends many events. */
function rankingLater() {
  if (rankingTimer !== null) {
    rankingDue = true;
    return;
  }
  const asOf = generation;
  loadRanking(asOf);
  rankingTimer = setTimeout(() => {
    rankingTimer = null;
    if (rankingDue && asOf === generation) {
      rankingDue = false;
      rankingLater();
    }
  }, rankingEveryMs);
}

async function loadMenu(asOf) {
  const data = await getData('/meals' + query());
  if (asOf === generation) renderMenu(data.meals);
}

function follow(asOf) {
  stream = new EventSource(api + '/live' + query());
  stream.addEventListener('open', () => showStatus('Live', 'live'));
  stream.addEventListener('error', () => {
    if (stream === null || asOf !== generation) return;
    showStatus(stream.readyState === EventSource.CLOSED ? 'Not live: reload the page' : 'Reconnecting…', 'warning');
  });
  stream.addEventListener('snapshot', (event) => {
    const { meals } = JSON.parse(event.data);
    const same = meals.length === cards.size && meals.every((figures) => cards.has(figures.meal_id));
    // Another set of meals: the menu changed, and names come with the menu.
    if (!same) {
      loadMenu(asOf).catch((error) => showStatus('Menu unavailable: ' + error.message, 'error'));
    } else {
      for (const figures of meals) applyFigures(cards.get(figures.meal_id), figures);
    }
    rankingLater();
  });
  stream.addEventListener('stats', (event) => {
    const figures = JSON.parse(event.data);
    const view = cards.get(figures.meal_id);
    if (view !== undefined) applyFigures(view, figures);
    rankingLater();
  });
}

async function show() {
  generation += 1;
  const asOf = generation;
  if (stream !== null) stream.close();
  stream = null;
  const url = new URL(location.href);
  url.search = query();
  history.replaceState(null, '', url);
  const canteen = canteens.find((each) => each.canteen_id === canteenSelect.value);
  document.title = (canteen ? canteen.name + ' · ' : '') + dateInput.value + ' · Kitchen dashboard';
  showStatus('Loading…', 'loading');
  try {
    await loadMenu(asOf);
  } catch (error) {
    if (asOf === generation) showStatus('Menu unavailable: ' + error.message, 'error');
    return;
  }
  if (asOf !== generation) return;
  follow(asOf);
}

async function start() {
  const asked = new URL(location.href).searchParams;
  try {
    canteens = (await getData('/canteens')).canteens;
  } catch (error) {
    showStatus('Canteens unavailable: ' + error.message, 'error');
    return;
  }
  canteenSelect.replaceChildren(...canteens.map((canteen) => {
    const option = element('option', '', canteen.name);
    option.value = canteen.canteen_id;
    return option;
  }));
  const wanted = canteens.find((canteen) => canteen.canteen_id === asked.get('canteen')) ?? canteens[0];
  if (wanted === undefined) {
    showStatus('No canteen yet', 'warning');
    return;
  }
  canteenSelect.value = wanted.canteen_id;
  const day = asked.get('date');
  dateInput.value = day !== null && /^\d{4}-\d{2}-\d{2}$/.test(day) ? day : todayIn(wanted.timezone);
  canteenSelect.addEventListener('change', show);
  dateInput.addEventListener('change', () => {
    if (dateInput.value !== '') show();
  });
  await show();
}

start();
`;
