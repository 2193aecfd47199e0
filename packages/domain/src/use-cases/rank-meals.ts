import type { CanteenId } from '../canteen/canteen.js';
import type { LocalDate } from '../menu/local-time.js';
import { rankItems, type Ranked } from '../rating/ranking.js';
import { defaultRankingSettings } from '../rating/ranking-score.js';
import type { MealReading } from '../reading/meal-reading.js';
import { accept, type Result } from '../shared/refusal.js';
import { getMenuRefusals, GetPublicMenu } from './get-public-menu.js';
import type { GetMealsDeps, GetMealsRefusal, MenuSpan } from './get-meals.js';
import type { RankingOptions } from './ranking-options.js';

/** The longest range of days one ranking of meals covers: a month of menus. */
export const maxRankingDays = 31;

const rankingSpan: MenuSpan = { maxDays: maxRankingDays, readName: 'a ranking' };

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
