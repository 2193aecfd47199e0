import { nobodyListens, type AnnounceMenuChange } from '../reading/menu-change.js';
import type { CanteenId } from '../canteen/canteen.js';
import { isCanteenId } from '../canteen/canteen.js';
import type { CanteenRepository } from '../canteen/canteen-repository.js';
import {
  decideDishMerge,
  dishMergeRefusals,
  type DishId,
  type DishMerge,
  type DishMergeRefusal,
  type DishSummary,
} from '../dish/dish.js';
import type { DishQueries, DishView } from '../dish/dish-queries.js';
import type { DishRepository } from '../dish/dish-repository.js';
import type { LabelFilter } from '../label/label-filter.js';
import { readMealPage, type MealPage } from '../reading/meal-page.js';
import { dishReadingOf, type DishReading } from '../reading/meal-reading.js';
import type { PageRequest } from '../reading/personal-meal.js';
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

export const mergeDishesRefusals = dishMergeRefusals;

/** Renames: moves every serving and name of the `from` dishes into `target`; answers the merged dish. */
export class MergeDishes {
  constructor(
    private readonly deps: {
      readonly dishes: DishRepository;
      readonly dishQueries: DishQueries;
      readonly clock: Clock;
      readonly announce?: AnnounceMenuChange;
    },
  ) {}

  async execute({
    target,
    from,
  }: {
    readonly target: DishId;
    readonly from: readonly DishId[];
  }): Promise<Result<{ readonly merge: DishMerge; readonly dish: DishDetails }, DishMergeRefusal>> {
    const merged = await this.deps.dishes.merge(target, from, (snapshot) =>
      decideDishMerge({ target, from }, snapshot),
    );
    if (!merged.ok) return merged;
    (this.deps.announce ?? nobodyListens)({ kind: 'menus' });
    const view = await this.deps.dishQueries.dish(target, null, this.deps.clock.now());
    if (view === undefined) throw new Error(`dish ${target} vanished right after a merge into it`);
    return accept({ merge: merged.value, dish: { ...view, dish: dishReadingOf(view.dish) } });
  }
}
