import { defaultMenuSelection, menuSelectionOf, type MenuSelection } from '@canteen-meals/domain';
import { HttpError } from '../http-error.js';

export { selects, type MenuSelection } from '@canteen-meals/domain';

/** The query parameters every menu read takes (strings, as the schemas let them through). */
export interface SelectionQuery {
  readonly without?: string | undefined;
  readonly only?: string | undefined;
  readonly placeholders?: 'true' | 'false' | undefined;
}

/** The query parameters of a personalized read besides its selection. */
export interface PersonalQuery extends SelectionQuery {
  readonly all?: 'true' | 'false' | undefined;
  readonly hide?: 'avoided' | undefined;
}

const codesOf = (list: string | undefined) => (list === undefined ? undefined : list.split(','));

/** The domain's selection of a read's query; an unknown label code is a 400 naming it. */
export function selectionOf(query: SelectionQuery): MenuSelection {
  // The common read asks for no selection: the shared default, without a word split or a result.
  if (query.without === undefined && query.only === undefined && query.placeholders !== 'true') {
    return defaultMenuSelection;
  }
  const selection = menuSelectionOf({
    without: codesOf(query.without),
    only: codesOf(query.only),
    placeholders: query.placeholders === 'true',
  });
  if (!selection.ok) throw new HttpError('invalid_request', selection.refusal.message);
  return selection.value;
}
