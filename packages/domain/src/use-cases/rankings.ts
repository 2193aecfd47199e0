import { isCanteenId, type CanteenId } from '../canteen/canteen.js';
import type { CanteenRepository } from '../canteen/canteen-repository.js';
import type { DishSummary } from '../dish/dish.js';
import type { DishQueries } from '../dish/dish-queries.js';
import type { LocalDate } from '../menu/local-time.js';
import { rankItems, type Ranked, type RankingOrder } from '../rating/ranking.js';
import { defaultRankingSettings, type RankingSettings } from '../rating/ranking-score.js';
import type { MealReading } from '../reading/meal-reading.js';
import type { DetailedMeal } from '../meal/meal.js';
import type { Clock } from '../shared/clock.js';
import { accept, refuse, type Result } from '../shared/refusal.js';
import { getMenuRefusals, GetPublicMenu } from './get-menu.js';
import type { GetMealsDeps, GetMealsRefusal, MenuSpan } from './get-meals.js';

/** The longest range of days one ranking of meals covers: a month of menus. */
export const maxRankingDays = 31;

const rankingSpan: MenuSpan = { maxDays: maxRankingDays, readName: 'a ranking' };

/** How to rank: by rating (the default) or by marks, with the prior and confidence of the score. */
export interface RankingOptions {
  readonly by?: RankingOrder | undefined;
  readonly settings?: RankingSettings | undefined;
  /** Which meals take part (a read's label filter); absent: every meal of the days. Ranks count only those. */
  readonly keep?: ((meal: DetailedMeal) => boolean) | undefined;
}

/** The same refusals as a public menu: an unknown canteen, `to` before `from` or more than `maxRankingDays` days. */
export const rankMealsRefusals = getMenuRefusals;

export interface MealRanking {
  /** Every meal of the days, ranked; each item a meal as the public menu reads it. */
  readonly items: readonly Ranked<MealReading>[];
  readonly asOf: Date;
}

/**
 * The meals one canteen serves on some days (up to `maxRankingDays`), ranked: the public menu of those days (so the
 * same meals, with the same histograms), ordered by rankItems. By marks it reads the markings' counts besides, in one
 * more statement.
 */
export class RankMeals {
  private readonly menu: GetPublicMenu;

  constructor(private readonly deps: GetMealsDeps) {
    this.menu = new GetPublicMenu(deps);
  }

  async execute(
    query: { readonly canteenId: CanteenId; readonly from: LocalDate; readonly to: LocalDate } & RankingOptions,
  ): Promise<Result<MealRanking, GetMealsRefusal>> {
    const { canteenId, from, to, by = 'rating', settings = defaultRankingSettings } = query;
    const menu = await this.menu.execute({ canteenId, from, to }, rankingSpan);
    if (!menu.ok) return menu;
    const { asOf } = menu.value;
    const meals =
      query.keep === undefined ? menu.value.meals : menu.value.meals.filter((reading) => query.keep!(reading.meal));
    const marks =
      by === 'marks' ? await this.deps.queries.markingCounts(meals.map((reading) => reading.meal.id)) : undefined;
    const candidates = meals.map((reading) => ({
      item: reading,
      histogram: reading.distribution,
      marks: marks?.get(reading.meal.id) ?? 0,
    }));
    return accept({ items: rankItems(candidates, by, settings), asOf });
  }
}

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
