import type { CanteenId } from '../canteen/canteen.js';
import { isCanteenId } from '../canteen/canteen.js';
import type { CanteenRepository } from '../canteen/canteen-repository.js';
import type { DishId, DishSummary } from '../dish/dish.js';
import type { DishQueries } from '../dish/dish-queries.js';
import type { LabelFilter } from '../label/label-filter.js';
import { dishReadingOf, type DishReading } from '../reading/meal-reading.js';
import type { Clock } from '../shared/clock.js';
import { accept, refuse, type Result } from '../shared/refusal.js';

export const searchDishesRefusals = ['canteen_not_found'] as const;

export const maxDishSearchLength = 100;

export interface DishSearchResult {
  readonly dishes: readonly DishReading[];
  /** The id to ask for the next page after; null on the last page. */
  readonly next: DishId | null;
}

/** The dishes of a canteen whose names hold a text, case- and accent-insensitive, by dish id, a page at a time. */
export class SearchDishes {
  constructor(
    private readonly deps: {
      readonly dishQueries: DishQueries;
      readonly canteens: CanteenRepository;
      readonly clock: Clock;
    },
  ) {}

  async execute({
    canteenId,
    text,
    after,
    limit,
    filter,
  }: {
    /** null: every canteen's dishes. */
    readonly canteenId: CanteenId | null;
    /** Empty: every dish (of the canteen), by id. */
    readonly text: string;
    readonly after: DishId | null;
    readonly limit: number;
    /** Only dishes with a serving (not withdrawn) that passes it; absent: every dish. */
    readonly filter?: LabelFilter;
  }): Promise<Result<DishSearchResult, 'canteen_not_found'>> {
    if (!Number.isInteger(limit) || limit < 1 || limit > 100)
      throw new RangeError(`a page holds 1 to 100 dishes, not ${limit}`);
    if (canteenId !== null && (!isCanteenId(canteenId) || (await this.deps.canteens.find(canteenId)) === undefined)) {
      return refuse('canteen_not_found');
    }
    const found = await this.deps.dishQueries.search(
      canteenId,
      text,
      { after, limit: limit + 1 },
      this.deps.clock.now(),
      filter,
    );
    const page: DishSummary[] = found.slice(0, limit);
    return accept({ dishes: page.map(dishReadingOf), next: found.length > limit ? page.at(-1)!.id : null });
  }
}
