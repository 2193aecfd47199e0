import { describe, expect, it } from 'vitest';
import {
  byIdSelection,
  defaultMenuSelection,
  menuSelectionKey,
  menuSelectionOf,
  noAversions,
  personalViewOf,
  selects,
  showingOf,
  withPreferences,
  type LabelCode,
  type MenuSelection,
  type PersonPreferences,
} from '../src/index.js';

const meal = (...labels: LabelCode[]) => ({ labels });
const serving = (dishId: number, ...labels: LabelCode[]) => ({ meal: { labels }, dish: { id: dishId } });
const selectionOf = (request: Parameters<typeof menuSelectionOf>[0]): MenuSelection => {
  const selection = menuSelectionOf(request);
  if (!selection.ok) throw new Error(selection.refusal.message);
  return selection.value;
};
const preferences = (without: LabelCode[], avoided: number[] = []): PersonPreferences => ({
  filter: { without, only: [] },
  aversions: avoided.map((dishId) => ({ dishId, since: new Date('2026-03-01T00:00:00Z') })),
});

describe('MenuSelection', () => {
  it('is the shared default when a read asks for nothing: every meal but the placeholders', () => {
    const selection = selectionOf({});
    expect(selection).toBe(defaultMenuSelection);
    expect(selectionOf({ placeholders: false })).toBe(defaultMenuSelection);
    expect(selects(selection, meal('vegan'))).toBe(true);
    expect(selects(selection, meal())).toBe(true);
    expect(selects(selection, meal('placeholder'))).toBe(false);
  });

  it('shows placeholders only when asked for, and still filters them', () => {
    const selection = selectionOf({ placeholders: true });
    expect(selects(selection, meal('placeholder'))).toBe(true);
    expect(selects(selectionOf({ placeholders: true, only: ['vegan'] }), meal('placeholder'))).toBe(false);
  });

  it('leaves out a meal carrying any code of without (or a sub-kind of one), and keeps only those carrying all of only', () => {
    const withoutGluten = selectionOf({ without: ['gluten'] });
    expect(selects(withoutGluten, meal('wheat'))).toBe(false);
    expect(selects(withoutGluten, meal('milk'))).toBe(true);
    const onlyVeganWithNuts = selectionOf({ only: ['vegan', 'nuts'] });
    expect(selects(onlyVeganWithNuts, meal('vegan', 'almonds'))).toBe(true);
    expect(selects(onlyVeganWithNuts, meal('vegan'))).toBe(false);
  });

  it('refuses an unknown label code, naming it', () => {
    const refused = menuSelectionOf({ without: ['gluten', 'bogus'] });
    expect(refused.ok).toBe(false);
    if (refused.ok) return;
    expect(refused.refusal.code).toBe('unknown_label');
    expect(refused.refusal.message).toContain('"bogus"');
  });

  it('keys equal selections alike whatever the order or repeats of their codes; placeholders make another key', () => {
    const key = menuSelectionKey(selectionOf({ without: ['pork', 'fish', 'pork'], only: ['vegan'] }));
    expect(menuSelectionKey(selectionOf({ only: ['vegan'], without: ['fish', 'pork'] }))).toBe(key);
    expect(menuSelectionKey(selectionOf({ without: ['fish', 'pork'], only: ['vegan'], placeholders: true }))).not.toBe(
      key,
    );
    expect(menuSelectionKey(defaultMenuSelection)).not.toBe(menuSelectionKey(selectionOf({ placeholders: true })));
  });

  it("adds a person's label preferences: a meal must pass both; none leaves the selection as it is", () => {
    const asked = selectionOf({ without: ['fish'] });
    const both = withPreferences(asked, { without: ['pork'], only: [] });
    expect(selects(both, meal('fish'))).toBe(false);
    expect(selects(both, meal('pork'))).toBe(false);
    expect(selects(both, meal('milk'))).toBe(true);
    expect(withPreferences(asked, { without: [], only: [] })).toBe(asked);
  });

  it("reads by id show placeholders, but the read's own filter still applies", () => {
    const byIds = byIdSelection(selectionOf({ without: ['fish'] }));
    expect(selects(byIds, meal('placeholder'))).toBe(true);
    expect(selects(byIds, meal('fish'))).toBe(false);
  });
});

describe('personalViewOf', () => {
  it("applies the reader's label preferences unless all, and marks the dishes they avoid", () => {
    const person = preferences(['pork'], [7]);
    const view = personalViewOf(defaultMenuSelection, { all: false, hideAvoided: false }, person);
    expect(showingOf(view, serving(1, 'pork'))).toBe('hidden');
    expect(showingOf(view, serving(7, 'milk'))).toBe('avoided');
    expect(showingOf(view, serving(2, 'milk'))).toBe('shown');
    expect(showingOf(view, serving(3, 'placeholder'))).toBe('hidden');

    const all = personalViewOf(defaultMenuSelection, { all: true, hideAvoided: false }, person);
    expect(showingOf(all, serving(1, 'pork'))).toBe('shown');
    expect(showingOf(all, serving(7, 'pork'))).toBe('avoided');
  });

  it('leaves out the servings of avoided dishes with hideAvoided, all or not', () => {
    const person = preferences([], [7]);
    for (const all of [false, true]) {
      const view = personalViewOf(defaultMenuSelection, { all, hideAvoided: true }, person);
      expect(showingOf(view, serving(7))).toBe('hidden');
      expect(showingOf(view, serving(8))).toBe('shown');
    }
  });

  it("keeps the read's own selection for a person without preferences, and avoids nothing", () => {
    const asked = selectionOf({ only: ['vegan'] });
    const view = personalViewOf(asked, { all: false, hideAvoided: false }, preferences([]));
    expect(view.selection).toBe(asked);
    expect(view.aversions).toBe(noAversions);
  });
});
