import type { LocalDate } from '../menu/local-time.js';
import { byIdSelection, type MenuSelection } from '../menu/menu-selection.js';
import { personalViewOf, showingOf, type PersonalReadOptions } from '../menu/personal-view.js';
import type { MealId } from '../meal/meal.js';
import type { PersonPreferences } from '../preference/preference-repository.js';
import type { MenuPosition } from '../reading/meal-queries.js';
import type { MealReading } from '../reading/meal-reading.js';
import { accept, type Result } from '../shared/refusal.js';
import type { UserId } from '../shared/user-id.js';
import type { GetMealsQuery, GetMealsRefusal, GetMealsResult } from './get-meals.js';

/** A meal of a personalized read, and whether its dish is one the reader avoids. */
export interface PersonalizedMeal {
  readonly reading: MealReading;
  readonly avoided: boolean;
}

export interface PersonalizedMeals {
  /** The meals the reader's view shows, in the order GetMeals answers them. */
  readonly meals: readonly PersonalizedMeal[];
  readonly unknownIds: readonly MealId[];
  readonly next: MenuPosition | null;
}

interface PersonalizedRead extends PersonalReadOptions {
  readonly userId: UserId;
  /** The read's own selection, before the reader's preferences. */
  readonly selection: MenuSelection;
}

export type GetPersonalizedMealsQuery =
  /** Meals named by id: every one, placeholders too, whatever the reader's preferences (the read's filter applies). */
  | (PersonalizedRead & { readonly mealIds: readonly MealId[] })
  /** A page of every canteen's day, cut before the view applies: a page may hold fewer meals than a full one. */
  | (PersonalizedRead & { readonly servedOn: LocalDate; readonly after: MenuPosition | null });

/**
 * Meals read by id or of every canteen's day, as the reader sees them: the read's selection, with their label
 * preferences unless `all` (never for meals named by id), and the servings of the dishes they avoid marked, or left
 * out with `hideAvoided`.
 */
export class GetPersonalizedMeals {
  constructor(
    private readonly deps: {
      readonly getMeals: { execute(query: GetMealsQuery): Promise<Result<GetMealsResult, GetMealsRefusal>> };
      readonly getPreferences: { execute(query: { readonly userId: UserId }): Promise<PersonPreferences> };
    },
  ) {}

  async execute(query: GetPersonalizedMealsQuery): Promise<Result<PersonalizedMeals, GetMealsRefusal>> {
    const { userId } = query;
    const preferences = await this.deps.getPreferences.execute({ userId });
    const byIds = 'mealIds' in query;
    const view = byIds
      ? personalViewOf(byIdSelection(query.selection), { all: true, hideAvoided: query.hideAvoided }, preferences)
      : personalViewOf(query.selection, query, preferences);
    const result = await this.deps.getMeals.execute(
      byIds ? { userId, mealIds: query.mealIds } : { userId, servedOn: query.servedOn, after: query.after },
    );
    if (!result.ok) return result;
    const meals: PersonalizedMeal[] = [];
    for (const reading of result.value.meals) {
      const showing = showingOf(view, reading);
      if (showing !== 'hidden') meals.push({ reading, avoided: showing === 'avoided' });
    }
    return accept({ meals, unknownIds: result.value.unknownIds, next: result.value.next });
  }
}
