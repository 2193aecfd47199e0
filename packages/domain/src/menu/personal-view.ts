import type { DishId } from '../dish/dish.js';
import type { LabelCode } from '../label/label.js';
import type { PersonPreferences } from '../preference/preference-repository.js';
import { selects, withPreferences, type MenuSelection } from './menu-selection.js';

/** What a personalized read asks besides its selection. */
export interface PersonalReadOptions {
  /** Show every meal the read's own selection shows: the reader's label preferences are not applied. */
  readonly all: boolean;
  /** Leave out the servings of the dishes the reader avoids, instead of marking them. */
  readonly hideAvoided: boolean;
}

/** What a personalized answer does with the servings of dishes the reader avoids: marks them, or leaves them out. */
export interface Aversions {
  readonly dishIds: ReadonlySet<DishId>;
  readonly hide: boolean;
}

export const noAversions: Aversions = Object.freeze({ dishIds: new Set<DishId>(), hide: false });

/** How a personalized read shows a menu: the meals of `selection`, the servings of avoided dishes marked or hidden. */
export interface PersonalView {
  readonly selection: MenuSelection;
  readonly aversions: Aversions;
}

/**
 * The reader's view: the read's own selection (`asked`) with their label preferences unless `all`, and their aversions.
 */
export function personalViewOf(
  asked: MenuSelection,
  options: PersonalReadOptions,
  preferences: PersonPreferences,
): PersonalView {
  return {
    selection: options.all ? asked : withPreferences(asked, preferences.filter),
    aversions: aversionsOf(preferences, options.hideAvoided),
  };
}

/** The reader's aversions as a read applies them. */
export function aversionsOf(preferences: PersonPreferences, hide: boolean): Aversions {
  if (preferences.aversions.length === 0 && !hide) return noAversions;
  return { dishIds: new Set(preferences.aversions.map((aversion) => aversion.dishId)), hide };
}

/** How a personalized read shows one serving: not at all, marked as a dish the reader avoids, or as it is. */
export type Showing = 'hidden' | 'avoided' | 'shown';

export function showingOf(
  view: PersonalView,
  reading: { readonly meal: { readonly labels: readonly LabelCode[] }; readonly dish: { readonly id: DishId } },
): Showing {
  if (!selects(view.selection, reading.meal)) return 'hidden';
  if (!view.aversions.dishIds.has(reading.dish.id)) return 'shown';
  return view.aversions.hide ? 'hidden' : 'avoided';
}
