import { element } from '../shared/dom.js';
import { nextAvailability, type Availability } from './availability.js';
import { barShares, figuresText, type MealFigures, type NumberFormats } from './figures.js';
import type { DashboardTexts } from './texts.js';

/** A meal of the menu as the page reads it (`availability` from the kitchen's side of the API). */
export interface MenuMeal extends MealFigures {
  readonly name: string;
  readonly category?: string | null;
  readonly labels?: readonly string[];
  readonly availability?: Availability;
}

/** A card's elements, so that an event updates them in place. */
export interface CardView {
  readonly mealId: number;
  readonly name: string;
  readonly card: HTMLLIElement;
  readonly average: HTMLElement;
  readonly detail: HTMLParagraphElement;
  readonly bars: Map<1 | 2 | 3 | 4 | 5, { row: HTMLLIElement; bar: HTMLSpanElement; value: HTMLSpanElement }>;
  /** The kitchen's button, or the badge that shows the status to everyone else. */
  readonly availability: HTMLElement;
  status: Availability;
}

export interface CardOptions {
  readonly t: DashboardTexts;
  readonly format: NumberFormats;
  /**
   * The wall's and the kitchen's compact card: no chart (the average and the count, read across a room or beside the
   * button).
   */
  readonly compact: boolean;
  /** The kitchen's mode: the status is a button that moves it on. */
  readonly onTap?: (view: CardView) => void;
}

export function mealCard(meal: MenuMeal, options: CardOptions): CardView {
  const { t, format } = options;
  const card = element('li', 'meal');
  card.dataset.mealId = String(meal.meal_id);
  card.append(element('h3', 'meal-name', meal.name));
  if (meal.category && !options.compact) card.append(element('p', 'meal-category', meal.category));
  const figures = element('div', 'figures');
  // A span, not a paragraph: its spoken name ("average 4.3 of 5") needs a role that may carry one.
  const average = element('span', 'average');
  average.setAttribute('role', 'img');
  const detail = element('p', 'count');
  figures.append(average, detail);
  const bars: CardView['bars'] = new Map();
  const availability =
    options.onTap === undefined ? element('p', 'availability') : element('button', 'availability availability-button');
  card.append(figures);
  if (!options.compact) {
    const chart = element('ul', 'distribution');
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
    card.append(chart);
  }
  card.append(availability);
  const view: CardView = {
    mealId: meal.meal_id,
    name: meal.name,
    card,
    average,
    detail,
    bars,
    availability,
    status: 'available',
  };
  if (availability instanceof HTMLButtonElement) {
    availability.type = 'button';
    const onTap = options.onTap!;
    availability.addEventListener('click', () => onTap(view));
  }
  applyFigures(view, meal, t, format);
  applyAvailability(view, meal.availability ?? 'available', t);
  return view;
}

export function applyFigures(view: CardView, figures: MealFigures, t: DashboardTexts, format: NumberFormats) {
  const text = figuresText(figures, t, format);
  view.average.textContent = text.average;
  view.average.setAttribute('aria-label', figures.rating_count === 0 ? t.noAverage : t.averageOf(text.average));
  view.detail.textContent = text.detail;
  const shares = barShares(figures.rating_distribution);
  for (const [stars, { row, bar, value }] of view.bars) {
    const count = figures.rating_distribution[String(stars) as keyof MealFigures['rating_distribution']];
    // The CSSOM, not a style attribute: the CSP allows no inline styles.
    bar.style.setProperty('--share', String(shares[stars]));
    value.textContent = format.whole(count);
    row.setAttribute('aria-label', t.stars(stars, count));
  }
}

/** Shows what is left: the badge's (or button's) word and colour, and a sold-out meal struck through. */
export function applyAvailability(view: CardView, status: Availability, t: DashboardTexts) {
  view.status = status;
  view.card.dataset.availability = status;
  view.availability.dataset.status = status;
  view.availability.textContent = t.availability[status];
  if (view.availability instanceof HTMLButtonElement) {
    view.availability.setAttribute(
      'aria-label',
      t.nextTap(view.name, t.availability[status], t.availability[nextAvailability(status)]),
    );
  }
}
