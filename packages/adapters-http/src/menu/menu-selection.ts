import {
  bothFilters,
  labelFilterKey,
  labelFilterOf,
  noLabelFilter,
  passesLabelFilter,
  placeholderLabel,
  type DetailedMeal,
  type LabelFilter,
} from '@canteen-meals/domain';
import { HttpError } from '../http-error.js';

/** Which meals of a menu a read answers: those its label filter passes, placeholders only when asked for. */
export interface MenuSelection {
  readonly filter: LabelFilter;
  readonly placeholders: boolean;
}

/** Every meal but the placeholders: what a JSON menu answers when its query names no filter. */
export const defaultSelection: MenuSelection = { filter: noLabelFilter, placeholders: false };

/** The query parameters every menu read takes (strings, as the schemas let them through). */
export interface SelectionQuery {
  readonly without?: string | undefined;
  readonly only?: string | undefined;
  readonly placeholders?: 'true' | 'false' | undefined;
}

const codesOf = (list: string | undefined) => (list === undefined ? [] : list.split(','));

/** The selection of a read's query; an unknown label code is a 400 naming it. */
export function selectionOf(query: SelectionQuery): MenuSelection {
  // The common read asks for no selection: the shared default, whose key is worked out once (menu-answers.ts).
  if (query.without === undefined && query.only === undefined && query.placeholders !== 'true') return defaultSelection;
  const filter = labelFilterOf(codesOf(query.without), codesOf(query.only));
  if (!filter.ok) throw new HttpError('invalid_request', filter.refusal.message);
  return { filter: filter.value, placeholders: query.placeholders === 'true' };
}

/** The selection with a person's preferences added (a meal must pass both). */
export function withPreferences(selection: MenuSelection, preferences: LabelFilter): MenuSelection {
  return { ...selection, filter: bothFilters(selection.filter, preferences) };
}

export function selects(selection: MenuSelection, meal: Pick<DetailedMeal, 'labels'>): boolean {
  if (!selection.placeholders && meal.labels.includes(placeholderLabel)) return false;
  return passesLabelFilter(meal.labels, selection.filter);
}

/** Equal selections, equal keys: part of the key of a kept public menu (the URL's filter is the cache key). */
export function selectionKey(selection: MenuSelection): string {
  return `${labelFilterKey(selection.filter)}|${selection.placeholders ? 'p' : ''}`;
}
