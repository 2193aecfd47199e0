import type { DishId } from '../dish/dish.js';
import type { DishQueries } from '../dish/dish-queries.js';
import { readMealPage, type MealPage } from '../reading/meal-page.js';
import type { PageRequest } from '../reading/personal-meal.js';
import type { Clock } from '../shared/clock.js';
import type { UserId } from '../shared/user-id.js';

export const listDishServingsRefusals = ['dish_not_found'] as const;

/** A dish's servings that are not withdrawn, most recently served first, a page at a time. */
export class ListDishServings {
  constructor(private readonly deps: { readonly dishQueries: DishQueries; readonly clock: Clock }) {}

  async execute({
    dishId,
    reader,
    ...page
  }: PageRequest & { readonly dishId: DishId; readonly reader: UserId | null }): Promise<MealPage> {
    const now = this.deps.clock.now();
    return readMealPage((request) => this.deps.dishQueries.servings(dishId, reader, request, now), page, now);
  }
}
