import {
  bothFilters,
  isNoLabelFilter,
  labelFilterKey,
  labelFilterOf,
  noLabelFilter,
  passesLabelFilter,
  type LabelFilter,
} from '../label/label-filter.js';
import type { LabelCode } from '../label/label.js';
import { placeholderLabel } from '../label/placeholder.js';
import { accept, type Result } from '../shared/refusal.js';

/** Which meals of a menu a read shows: those its label filter passes, placeholders only when asked for. */
export interface MenuSelection {
  readonly filter: LabelFilter;
  readonly placeholders: boolean;
}

/** Every meal but the placeholders: what a menu read shows when it asks for no selection. */
export const defaultMenuSelection: MenuSelection = Object.freeze({ filter: noLabelFilter, placeholders: false });

/** What a read asks for, as its query says it: label codes left out and required, and whether placeholders show. */
export interface MenuSelectionRequest {
  readonly without?: readonly string[] | undefined;
  readonly only?: readonly string[] | undefined;
  readonly placeholders?: boolean | undefined;
}

const noCodes: readonly string[] = Object.freeze([]);
// The common read asks for nothing: the shared default, accepted once (its key is worked out once by the kept answers).
const defaultAccepted = accept(defaultMenuSelection);

/** The selection a read asks for; refused when a label code is not in the vocabulary. */
export function menuSelectionOf(request: MenuSelectionRequest): Result<MenuSelection, 'unknown_label'> {
  const { without, only, placeholders = false } = request;
  if (without === undefined && only === undefined && !placeholders) return defaultAccepted;
  const filter = labelFilterOf(without ?? noCodes, only ?? noCodes);
  if (!filter.ok) return filter;
  return accept({ filter: filter.value, placeholders });
}

/** Whether the selection shows a meal: never a placeholder unless asked for, and only what the filter passes. */
export function selects(selection: MenuSelection, meal: { readonly labels: readonly LabelCode[] }): boolean {
  if (!selection.placeholders && meal.labels.includes(placeholderLabel)) return false;
  return passesLabelFilter(meal.labels, selection.filter);
}

/** The selection with a person's label preferences added: a meal must pass both. */
export function withPreferences(selection: MenuSelection, preferences: LabelFilter): MenuSelection {
  // Without preferences the selection stays itself: the common personalized read allocates nothing here.
  if (isNoLabelFilter(preferences)) return selection;
  return { ...selection, filter: bothFilters(selection.filter, preferences) };
}

/**
 * What a read of meals named by id shows: every one asked for, placeholders too, whatever the reader's preferences;
 * the read's own label filter still applies.
 */
export function byIdSelection(asked: MenuSelection): MenuSelection {
  return { ...asked, placeholders: true };
}

/** Equal selections, equal keys: part of the key of a kept menu answer (a URL's filter is a cache key). */
export function menuSelectionKey(selection: MenuSelection): string {
  return `${labelFilterKey(selection.filter)}|${selection.placeholders ? 'p' : ''}`;
}
