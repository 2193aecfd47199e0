import type { MealQueries } from '../reading/meal-queries.js';
import { readMealPage, type MealPage } from '../reading/meal-page.js';
import type { PageRequest } from '../reading/personal-meal.js';
import type { Clock } from '../shared/clock.js';
import type { UserId } from '../shared/user-id.js';

export interface ListUserMealsQuery extends PageRequest {
  readonly userId: UserId;
}

/** The user's favourites, most recently served first, one page at a time. */
export class ListMarkedMeals {
  constructor(private readonly deps: { readonly queries: MealQueries; readonly clock: Clock }) {}

  async execute({ userId, ...page }: ListUserMealsQuery): Promise<MealPage> {
    const now = this.deps.clock.now();
    return readMealPage((request) => this.deps.queries.markedMeals(userId, request, now), page, now);
  }
}
