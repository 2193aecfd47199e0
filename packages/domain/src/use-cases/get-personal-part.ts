import type { PersonalPart } from '../reading/meal-queries.js';
import type { MealId } from '../meal/meal.js';
import type { UserId } from '../shared/user-id.js';
import type { GetMealsDeps } from './get-meals.js';

/**
 * A user's own part of a menu: of the menu's meals (as GetPublicMenu answers them, in menu order), those the user has
 * marked or rated, with their marking and rating, in the same order; and the user's preferences, which say which of
 * the menu's meals they see. With the public menu it makes the personalized menu; taking the meals from it keeps the
 * two about the same meals, and reads nothing but the user's own rows, in one statement.
 */
export class GetPersonalPart {
  constructor(private readonly deps: Pick<GetMealsDeps, 'queries'>) {}

  async execute(query: { readonly userId: UserId; readonly mealIds: readonly MealId[] }): Promise<PersonalPart> {
    return this.deps.queries.personalPartOf(query.userId, query.mealIds);
  }
}
