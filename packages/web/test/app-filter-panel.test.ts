// @vitest-environment happy-dom
// The filter panel of the students' app: "Leave out" and "Only", a checkbox per label, writing the filters signal.
import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/preact';
import { h } from 'preact';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { filters, filtersOpen, labels, language, session } from '../src/app/store/state.js';
import { noFilters } from '../src/app/model/filters.js';
import { FilterPanel, FiltersButton } from '../src/app/ui/FilterPanel.js';
import { someLabels } from './app-fixtures.js';

const group = (name: string) => screen.getByRole('group', { name });
const checkbox = (name: string, where: HTMLElement = document.body) =>
  within(where).getByRole('checkbox', { name }) as HTMLInputElement;
const boxes = (where: HTMLElement) => within(where).getAllByRole('checkbox') as HTMLInputElement[];
const names = (where: HTMLElement) => boxes(where).map((box) => box.labels?.[0]?.textContent);

beforeEach(() => {
  localStorage.clear();
  language.value = 'en';
  labels.value = someLabels;
  session.value = null;
  filters.value = noFilters;
  filtersOpen.value = true;
});
afterEach(cleanup);

describe('FilterPanel', () => {
  it('has two groups, "Leave out" and "Only", of checkboxes named by the labels, sub-kinds after their parent', () => {
    render(h(FilterPanel, {}));
    expect(screen.getAllByRole('group')).toHaveLength(2);
    expect(names(group('Leave out'))).toEqual([
      'Cereals containing gluten',
      'Wheat',
      'Rye',
      'Milk (including lactose)',
      'with colourant',
      'Pork',
    ]);
    expect(names(group('Only'))).toEqual(['vegetarian', 'vegan']);
    expect(screen.queryByRole('checkbox', { name: 'no meal (placeholder)' })).toBeNull();
    expect(screen.getAllByRole('checkbox').every((box) => !(box as HTMLInputElement).checked)).toBe(true);
  });

  it('nests the sub-kinds in a list under their parent', () => {
    render(h(FilterPanel, {}));
    const glutenItem = checkbox('Cereals containing gluten').closest('li')!;
    expect(names(glutenItem)).toEqual(['Cereals containing gluten', 'Wheat', 'Rye']);
    const vegetarianItem = checkbox('vegetarian').closest('li')!;
    expect(within(vegetarianItem).getByRole('checkbox', { name: 'vegan' })).toBeTruthy();
  });

  it('checking a label leaves it out (without=), or keeps only it (only=); unchecking takes it back', async () => {
    render(h(FilterPanel, {}));
    await act(() => {
      fireEvent.click(checkbox('Pork', group('Leave out')));
    });
    expect(filters.value).toEqual({ without: ['pork'], only: [] });
    await act(() => {
      fireEvent.click(checkbox('Wheat', group('Leave out')));
    });
    expect(filters.value).toEqual({ without: ['pork', 'wheat'], only: [] });
    await act(() => {
      fireEvent.click(checkbox('vegan', group('Only')));
    });
    expect(filters.value).toEqual({ without: ['pork', 'wheat'], only: ['vegan'] });
    expect(checkbox('Pork').checked).toBe(true);
    expect(checkbox('vegan').checked).toBe(true);
    await act(() => {
      fireEvent.click(checkbox('Pork', group('Leave out')));
    });
    expect(filters.value).toEqual({ without: ['wheat'], only: ['vegan'] });
    expect(checkbox('Pork').checked).toBe(false);
  });

  it('keeps the filter in the browser while signed out', async () => {
    render(h(FilterPanel, {}));
    await act(() => {
      fireEvent.click(checkbox('Milk (including lactose)'));
    });
    expect(JSON.parse(localStorage.getItem('canteen-meals.app.filters') ?? 'null')).toEqual({
      without: ['milk'],
      only: [],
    });
  });

  it('shows the filter set, and clears it all', async () => {
    filters.value = { without: ['gluten'], only: ['vegetarian'] };
    render(h('div', null, h(FiltersButton, {}), h(FilterPanel, {})));
    expect(checkbox('Cereals containing gluten').checked).toBe(true);
    expect(checkbox('vegetarian').checked).toBe(true);
    expect(checkbox('Wheat').checked).toBe(false);
    expect(screen.getByRole('button', { name: 'Filters (2)' })).toBeTruthy();
    await act(() => {
      fireEvent.click(screen.getByRole('button', { name: 'Clear all' }));
    });
    expect(filters.value).toEqual(noFilters);
    expect(screen.getAllByRole('checkbox').every((box) => !(box as HTMLInputElement).checked)).toBe(true);
    expect((screen.getByRole('button', { name: 'Clear all' }) as HTMLButtonElement).disabled).toBe(true);
    expect(screen.getByRole('button', { name: 'Filters' })).toBeTruthy();
  });

  it('"Done" closes the panel', async () => {
    render(h(FilterPanel, {}));
    await act(() => {
      fireEvent.click(screen.getByRole('button', { name: 'Done' }));
    });
    expect(filtersOpen.value).toBe(false);
  });

  it('speaks German: "Ohne" and "Nur", the labels by their German names', () => {
    language.value = 'de';
    render(h(FilterPanel, {}));
    expect(names(group('Ohne'))).toEqual([
      'Glutenhaltiges Getreide',
      'Weizen',
      'Roggen',
      'Milch (einschließlich Laktose)',
      'mit Farbstoff',
      'Schwein',
    ]);
    expect(names(group('Nur'))).toEqual(['vegetarisch', 'vegan']);
  });
});
