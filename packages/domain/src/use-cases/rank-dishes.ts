import { isCanteenId, type CanteenId } from '../canteen/canteen.js';
import type { CanteenRepository } from '../canteen/canteen-repository.js';
import type { DishSummary } from '../dish/dish.js';
import type { DishQueries } from '../dish/dish-queries.js';
import { rankItems, type Ranked } from '../rating/ranking.js';
import { defaultRankingSettings } from '../rating/ranking-score.js';
import type { Clock } from '../shared/clock.js';
import { accept, refuse, type Result } from '../shared/refusal.js';
import type { RankingOptions } from './ranking-options.js';

export const rankDishesRefusals = ['canteen_not_found'] as const;

export interface DishRanking {
  /** Every dish of the canteen that is still served (see DishQueries.ofCanteen), ranked over all its servings. */
  readonly items: readonly Ranked<DishSummary>[];
  readonly asOf: Date;
}

/** A canteen's dishes ranked over all their servings: each dish's histogram counts every serving's ratings. */
export class RankDishes {
  constructor(
    private readonly deps: {
      readonly dishQueries: DishQueries;
      readonly canteens: CanteenRepository;
      readonly clock: Clock;
    },
  ) {}

  async execute(
    query: { readonly canteenId: CanteenId } & RankingOptions,
  ): Promise<Result<DishRanking, 'canteen_not_found'>> {
    const { canteenId, by = 'rating', settings = defaultRankingSettings } = query;
    if (!isCanteenId(canteenId) || (await this.deps.canteens.find(canteenId)) === undefined)
      return refuse('canteen_not_found');
    const asOf = this.deps.clock.now();
    const dishes = await this.deps.dishQueries.ofCanteen(canteenId, asOf);
    const marks = by === 'marks' ? await this.deps.dishQueries.markingCounts(dishes.map((dish) => dish.id)) : undefined;
    const candidates = dishes.map((dish) => ({
      item: dish,
      histogram: dish.histogram,
      marks: marks?.get(dish.id) ?? 0,
    }));
    return accept({ items: rankItems(candidates, by, settings), asOf });
  }
}
