import type { DishId } from '../dish/dish.js';
import type { DishQueries, DishView } from '../dish/dish-queries.js';
import { dishReadingOf, type DishReading } from '../reading/meal-reading.js';
import type { Clock } from '../shared/clock.js';
import { accept, refuse, type Result } from '../shared/refusal.js';
import type { UserId } from '../shared/user-id.js';

export const getDishRefusals = ['dish_not_found'] as const;

/** A dish with its statistics over every serving, its names, and, for a known reader, that reader's own figures. */
export interface DishDetails extends Omit<DishView, 'dish'> {
  readonly dish: DishReading;
}

export class GetDish {
  constructor(private readonly deps: { readonly dishQueries: DishQueries; readonly clock: Clock }) {}

  async execute({
    dishId,
    reader,
  }: {
    readonly dishId: DishId;
    readonly reader: UserId | null;
  }): Promise<Result<DishDetails, 'dish_not_found'>> {
    const view = await this.deps.dishQueries.dish(dishId, reader, this.deps.clock.now());
    if (view === undefined) return refuse('dish_not_found');
    return accept({ ...view, dish: dishReadingOf(view.dish) });
  }
}
