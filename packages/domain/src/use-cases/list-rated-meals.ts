import type { MealQueries } from '../reading/meal-queries.js';
import { readMealPage, type MealPage } from '../reading/meal-page.js';
import type { Clock } from '../shared/clock.js';
import type { ListUserMealsQuery } from './list-marked-meals.js';

/** The meals the user has rated, each with that rating, most recently served first, one page at a time. */
export class ListRatedMeals {
  constructor(private readonly deps: { readonly queries: MealQueries; readonly clock: Clock }) {}

  async execute({ userId, ...page }: ListUserMealsQuery): Promise<MealPage> {
    const now = this.deps.clock.now();
    return readMealPage((request) => this.deps.queries.ratedMeals(userId, request, now), page, now);
  }
}
