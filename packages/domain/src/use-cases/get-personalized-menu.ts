import type { MenuSelection } from '../menu/menu-selection.js';
import { menuSelectionKey } from '../menu/menu-selection.js';
import { personalViewOf, type Aversions, type PersonalReadOptions } from '../menu/personal-view.js';
import type { SelectedMenu, SelectedMenus } from '../menu/selected-menus.js';
import { inOrderOfMeals, type PersonalPart, type PersonalState } from '../reading/meal-queries.js';
import type { MealId } from '../meal/meal.js';
import { accept, type Result } from '../shared/refusal.js';
import type { UserId } from '../shared/user-id.js';
import type { GetMealsRefusal } from './get-meals.js';
import type { MenuDays } from './get-public-menu.js';

/** A canteen's menu as one reader sees it: the public menu of their view, their own states of its meals, aversions. */
export interface PersonalizedMenu<A extends SelectedMenu> {
  /** The public menu of the reader's selection (the read's own, with their preferences unless `all`). */
  readonly answer: A;
  /** The reader's marking and rating of those of its meals they marked or rated, in menu order. */
  readonly states: readonly PersonalState[];
  readonly aversions: Aversions;
}

export interface GetPersonalizedMenuQuery extends PersonalReadOptions {
  readonly userId: UserId;
  readonly days: MenuDays;
  /** The read's own selection, before the reader's preferences. */
  readonly selection: MenuSelection;
}

/**
 * The reader's personalized menu of a canteen's days: the public menu of the read's own selection, then the reader's
 * part of it (their states of its meals, a superset of those their preferences keep, and their preferences, in one
 * statement); when their preferences narrow the selection, the public menu of the narrower one, kept like any other.
 */
export class GetPersonalizedMenu<A extends SelectedMenu> {
  constructor(
    private readonly deps: {
      readonly menus: SelectedMenus<A>;
      readonly getPersonalPart: {
        execute(query: { readonly userId: UserId; readonly mealIds: readonly MealId[] }): Promise<PersonalPart>;
      };
    },
  ) {}

  async execute(query: GetPersonalizedMenuQuery): Promise<Result<PersonalizedMenu<A>, GetMealsRefusal>> {
    const { userId, days, selection: asked } = query;
    const broad = await this.deps.menus.answer(days, asked);
    if (!broad.ok) return broad;
    const { states, preferences } = await this.deps.getPersonalPart.execute({ userId, mealIds: broad.value.mealIds });
    const { selection, aversions } = personalViewOf(asked, query, preferences);
    if (selection === asked || menuSelectionKey(selection) === menuSelectionKey(asked)) {
      return accept({ answer: broad.value, states, aversions });
    }
    const narrow = await this.deps.menus.answer(days, selection);
    if (!narrow.ok) return narrow;
    const mealIds = narrow.value.mealIds;
    // A menu change between the two answers may bring in a meal the first did not have: its states are read again.
    const known = new Set(broad.value.mealIds);
    const own = mealIds.every((mealId) => known.has(mealId))
      ? states
      : (await this.deps.getPersonalPart.execute({ userId, mealIds })).states;
    return accept({
      answer: narrow.value,
      states: inOrderOfMeals(mealIds, new Map(own.map((state) => [state.mealId, state]))),
      aversions,
    });
  }
}
