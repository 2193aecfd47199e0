import { describe, expect, it } from 'vitest';
import {
  filterCount,
  filterGroups,
  filtersFrom,
  mergeFilters,
  noFilters,
  sameFilters,
  toggled,
  type Filters,
} from '../src/app/model/filters.js';
import {
  colourant,
  gluten,
  milk,
  placeholder,
  pork,
  rye,
  someLabels,
  vegan,
  vegetarian,
  wheat,
} from './app-fixtures.js';

describe('mergeFilters', () => {
  it('holds every code of either, each once, sorted', () => {
    const browser: Filters = { without: ['pork', 'gluten'], only: ['vegan'] };
    const server: Filters = { without: ['milk', 'gluten'], only: [] };
    expect(mergeFilters(browser, server)).toEqual({ without: ['gluten', 'milk', 'pork'], only: ['vegan'] });
    expect(mergeFilters(server, browser)).toEqual(mergeFilters(browser, server));
  });

  it('changes nothing merged with no filter', () => {
    expect(mergeFilters(noFilters, noFilters)).toEqual(noFilters);
    expect(mergeFilters({ without: ['pork'], only: [] }, noFilters)).toEqual({ without: ['pork'], only: [] });
  });
});

describe('sameFilters', () => {
  it('compares the codes, not their order', () => {
    expect(
      sameFilters({ without: ['pork', 'gluten'], only: ['vegan'] }, { without: ['gluten', 'pork'], only: ['vegan'] }),
    ).toBe(true);
    expect(sameFilters(noFilters, { without: [], only: [] })).toBe(true);
  });

  it('tells a code more or less, and which part it is in', () => {
    expect(sameFilters({ without: ['pork'], only: [] }, { without: ['pork', 'beef'], only: [] })).toBe(false);
    expect(sameFilters({ without: ['vegan'], only: [] }, { without: [], only: ['vegan'] })).toBe(false);
    expect(sameFilters(noFilters, { without: [], only: ['vegan'] })).toBe(false);
  });
});

describe('toggled', () => {
  const filters: Filters = { without: ['pork'], only: ['vegetarian'] };

  it('switches one code on or off in one part, sorted, leaving the other part', () => {
    expect(toggled(filters, 'without', 'gluten', true)).toEqual({ without: ['gluten', 'pork'], only: ['vegetarian'] });
    expect(toggled(filters, 'without', 'pork', false)).toEqual({ without: [], only: ['vegetarian'] });
    expect(toggled(filters, 'only', 'vegan', true)).toEqual({ without: ['pork'], only: ['vegan', 'vegetarian'] });
  });

  it('is the same filter when the code already is as asked, and leaves the one given unchanged', () => {
    expect(toggled(filters, 'without', 'pork', true)).toEqual(filters);
    expect(toggled(filters, 'only', 'vegan', false)).toEqual(filters);
    expect(filters).toEqual({ without: ['pork'], only: ['vegetarian'] });
  });

  it('is counted by filterCount', () => {
    expect(filterCount(noFilters)).toBe(0);
    expect(filterCount(toggled(filters, 'without', 'gluten', true))).toBe(3);
  });
});

describe('filtersFrom', () => {
  it('reads back a kept filter, sorted and each code once', () => {
    expect(filtersFrom({ without: ['pork', 'gluten', 'pork'], only: ['vegan'] })).toEqual({
      without: ['gluten', 'pork'],
      only: ['vegan'],
    });
    expect(filtersFrom({ without: ['flavour_enhancer'], only: [] })).toEqual({
      without: ['flavour_enhancer'],
      only: [],
    });
  });

  it('drops what is not a list of codes', () => {
    for (const value of [null, undefined, 'pork', 42, true, []]) expect(filtersFrom(value)).toEqual(noFilters);
    expect(filtersFrom({})).toEqual(noFilters);
    expect(filtersFrom({ without: 'pork', only: { vegan: true } })).toEqual(noFilters);
    expect(
      filtersFrom({
        without: ['pork', 7, null, 'Pork', 'pork nuts', '', '_pork', 'pork_', 'a-b', ['gluten']],
        only: ['vegan', {}],
      }),
    ).toEqual({
      without: ['pork'],
      only: ['vegan'],
    });
  });

  it('takes a part that is missing as empty', () => {
    expect(filtersFrom({ without: ['pork'] })).toEqual({ without: ['pork'], only: [] });
    expect(filtersFrom({ only: ['vegan'] })).toEqual({ without: [], only: ['vegan'] });
  });
});

describe('filterGroups', () => {
  it("'Leave out': allergens, additives and ingredients, each sub-kind under its parent, in the vocabulary's order", () => {
    const { leaveOut } = filterGroups(someLabels);
    expect(leaveOut.map((group) => group.label.code)).toEqual(['gluten', 'milk', 'colourant', 'pork']);
    expect(leaveOut[0]).toEqual({ label: gluten, children: [wheat, rye] });
    expect(leaveOut[1]).toEqual({ label: milk, children: [] });
    expect(leaveOut[2]).toEqual({ label: colourant, children: [] });
    expect(leaveOut[3]).toEqual({ label: pork, children: [] });
  });

  it("'Only': the diets, vegan under vegetarian", () => {
    expect(filterGroups(someLabels).only).toEqual([{ label: vegetarian, children: [vegan] }]);
  });

  it('offers no menu label (a placeholder is no filter)', () => {
    const { leaveOut, only } = filterGroups(someLabels);
    const codes = [...leaveOut, ...only]
      .flatMap((group) => [group.label, ...group.children])
      .map((label) => label.code);
    expect(codes).not.toContain(placeholder.code);
    expect(codes.sort()).toEqual(
      someLabels
        .filter((label) => label.kind !== 'menu')
        .map((label) => label.code)
        .sort(),
    );
  });

  it('shows a sub-kind at the top when its parent is not in the list', () => {
    expect(filterGroups([wheat, milk, vegan]).leaveOut).toEqual([
      { label: wheat, children: [] },
      { label: milk, children: [] },
    ]);
    expect(filterGroups([wheat, milk, vegan]).only).toEqual([{ label: vegan, children: [] }]);
  });

  it('is empty without labels', () => {
    expect(filterGroups([])).toEqual({ leaveOut: [], only: [] });
  });
});
