// The person's label filter: what to leave out (allergens, additives, ingredients) and which diets only. Signed out it
// is kept in the browser; signed in it is the server's preferences; at sign-in the two are merged, nothing lost.
import type { Label } from '@canteen-meals/client';

export interface Filters {
  readonly without: readonly string[];
  readonly only: readonly string[];
}

export const noFilters: Filters = { without: [], only: [] };

const sorted = (codes: Iterable<string>) => [...new Set(codes)].sort();

/** Both filters in one: every code of either (union), sorted. */
export function mergeFilters(a: Filters, b: Filters): Filters {
  return { without: sorted([...a.without, ...b.without]), only: sorted([...a.only, ...b.only]) };
}

export const sameFilters = (a: Filters, b: Filters) =>
  sorted(a.without).join(',') === sorted(b.without).join(',') && sorted(a.only).join(',') === sorted(b.only).join(',');

export const filterCount = (filters: Filters) => filters.without.length + filters.only.length;

/** The filter with one code switched on or off. */
export function toggled(filters: Filters, part: keyof Filters, code: string, on: boolean): Filters {
  const codes = new Set(filters[part]);
  if (on) codes.add(code);
  else codes.delete(code);
  return { ...filters, [part]: sorted(codes) };
}

/** A filter read back from storage: anything not a list of codes is dropped (an old or damaged entry). */
export function filtersFrom(value: unknown): Filters {
  const codes = (list: unknown) =>
    Array.isArray(list)
      ? sorted(list.filter((code): code is string => typeof code === 'string' && /^[a-z]+(_[a-z]+)*$/.test(code)))
      : [];
  if (typeof value !== 'object' || value === null) return noFilters;
  const { without, only } = value as { without?: unknown; only?: unknown };
  return { without: codes(without), only: codes(only) };
}

export interface LabelGroup {
  readonly label: Label;
  readonly children: readonly Label[];
}

/**
 * The labels of the panel: "Leave out" holds allergens, additives and ingredients, "Only" the diets; each with its
 * sub-kinds under it (wheat under gluten), in the vocabulary's order. Menu labels (placeholders) are no filter.
 */
export function filterGroups(labels: readonly Label[]): {
  readonly leaveOut: readonly LabelGroup[];
  readonly only: readonly LabelGroup[];
} {
  const groups = (kinds: readonly Label['kind'][]) => {
    const chosen = labels.filter((label) => kinds.includes(label.kind));
    const codes = new Set(chosen.map((label) => label.code));
    return chosen
      .filter((label) => label.parent === null || !codes.has(label.parent))
      .map((label) => ({ label, children: chosen.filter((child) => child.parent === label.code) }));
  };
  return { leaveOut: groups(['allergen', 'additive', 'ingredient']), only: groups(['diet']) };
}
