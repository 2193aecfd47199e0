import { element } from '../shared/dom.js';
import type { DashboardTexts } from './texts.js';

export type BoardMode = 'board' | 'kitchen' | 'wall';

export interface LayoutOptions {
  readonly mode: BoardMode;
  readonly t: DashboardTexts;
  readonly canteenName: string;
  readonly signOut?: () => void;
}

/**
 * The board's elements, built from the texts (the HTML the server sends holds only the mount point). The ranking comes
 * first in the page: a phone shows it first, a wide screen sets it right of the meals (dashboard.css). The wall has
 * nothing to choose: the canteen is in its heading, the day beside it; the kitchen adds the undo bar.
 */
export function boardLayout(root: HTMLElement, options: LayoutOptions) {
  const { mode, t } = options;
  const wall = mode === 'wall';
  const header = element('header');
  const canteenSelect = element('select');
  canteenSelect.id = 'canteen';
  canteenSelect.name = 'canteen';
  const dateInput = element('input');
  dateInput.id = 'date';
  dateInput.name = 'date';
  dateInput.type = 'date';
  dateInput.required = true;
  const statusLine = element('p', '', t.loading);
  statusLine.id = 'status';
  statusLine.setAttribute('role', 'status');
  statusLine.setAttribute('aria-live', 'polite');
  statusLine.dataset.kind = 'loading';
  const heading = element(
    'h1',
    '',
    mode === 'kitchen' ? t.kitchenHeading : wall ? `${t.wallHeading} ${options.canteenName}` : t.heading,
  );
  let wallDay: HTMLParagraphElement | null = null;
  if (wall) {
    // Nothing to choose on the wall: the canteen is in the heading, the day beside it.
    wallDay = element('p', 'wall-day');
    wallDay.id = 'wall-day';
    header.append(heading, wallDay, statusLine);
  } else {
    const canteenLabel = element('label', '', `${t.canteen} `);
    canteenLabel.htmlFor = 'canteen';
    canteenLabel.append(canteenSelect);
    const dateLabel = element('label', '', `${t.day} `);
    dateLabel.htmlFor = 'date';
    dateLabel.append(dateInput);
    header.append(heading, canteenLabel, dateLabel, statusLine);
    if (options.signOut !== undefined) {
      const signOut = element('button', 'sign-out', t.signOut);
      signOut.type = 'button';
      signOut.addEventListener('click', options.signOut);
      header.append(signOut);
    }
  }
  const main = element('main');
  const rankingSection = section('ranking-heading', t.ranking);
  const explained = element('p', 'ranking-explained', t.rankingExplained);
  const rankingList = element('ol');
  rankingList.id = 'ranking';
  rankingSection.append(explained, rankingList);
  const mealsSection = section('meals-heading', t.meals);
  mealsSection.classList.add('meals-section');
  const emptyNote = element('p', '', t.noMeals);
  emptyNote.id = 'no-meals';
  emptyNote.hidden = true;
  const mealList = element('ul');
  mealList.id = 'meals';
  const pageLine = element('p', 'page-of');
  pageLine.id = 'page-of';
  pageLine.hidden = true;
  mealsSection.append(emptyNote, mealList, pageLine);
  main.append(rankingSection, mealsSection);
  const undoBar = element('div', 'undo-bar');
  undoBar.id = 'undo-bar';
  undoBar.hidden = true;
  const undoText = element('p', 'undo-text');
  undoText.setAttribute('role', 'status');
  const undoButton = element('button', 'undo-button', t.undo);
  undoButton.type = 'button';
  undoBar.append(undoText, undoButton);
  root.replaceChildren(header, main, ...(mode === 'kitchen' ? [undoBar] : []));
  return {
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
  };
}

function section(headingId: string, heading: string) {
  const node = element('section');
  node.setAttribute('aria-labelledby', headingId);
  const title = element('h2', '', heading);
  title.id = headingId;
  node.append(title);
  return node;
}
