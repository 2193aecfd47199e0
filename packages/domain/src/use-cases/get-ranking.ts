import type { CanteenId } from '../canteen/canteen.js';
import type { DishSummary } from '../dish/dish.js';
import { selects } from '../menu/menu-selection.js';
import type { RankingSelection } from '../menu/ranking-selection.js';
import type { Ranked, RankingOrder } from '../rating/ranking.js';
import { defaultRankingSettings, rankingSettingsProblem, type RankingSettings } from '../rating/ranking-score.js';
import type { MealReading } from '../reading/meal-reading.js';
import { mapResult, type Result } from '../shared/refusal.js';
import type { GetMealsRefusal } from './get-meals.js';
import type { DishRanking } from './rank-dishes.js';
import type { MealRanking } from './rank-meals.js';
import type { RankingOptions } from './ranking-options.js';
import type { MenuDays } from './get-public-menu.js';

export type RankingAnswer =
  | { readonly scope: 'meals'; readonly by: RankingOrder; readonly items: readonly Ranked<MealReading>[] }
  | { readonly scope: 'dishes'; readonly by: RankingOrder; readonly items: readonly Ranked<DishSummary>[] };

/**
 * A ranking read: the meals of some days that the read's menu selection shows, ranked among themselves (ranks count
 * only those), or every dish of the canteen; by rating or by marks, with the service's prior and confidence.
 */
export class GetRanking {
  private readonly settings: RankingSettings;

  /** `settings`: the prior and confidence of the scores (default: one pseudo-vote per star, z = 1.65). */
  constructor(
    private readonly deps: {
      readonly rankMeals: {
        execute(query: MenuDays & RankingOptions): Promise<Result<MealRanking, GetMealsRefusal>>;
      };
      readonly rankDishes: {
        execute(
          query: { readonly canteenId: CanteenId } & RankingOptions,
        ): Promise<Result<DishRanking, 'canteen_not_found'>>;
      };
      readonly settings?: RankingSettings | undefined;
    },
  ) {
    this.settings = deps.settings ?? defaultRankingSettings;
    const problem = rankingSettingsProblem(this.settings);
    if (problem !== null) throw new RangeError(`rankingSettings: ${problem}`);
  }

  async execute(selection: RankingSelection): Promise<Result<RankingAnswer, GetMealsRefusal>> {
    const { by } = selection;
    const { settings } = this;
    if (selection.scope === 'dishes') {
      const ranking = await this.deps.rankDishes.execute({ canteenId: selection.canteenId, by, settings });
      return mapResult(ranking, ({ items }) => ({ scope: 'dishes' as const, by, items }));
    }
    const { meals } = selection;
    const ranking = await this.deps.rankMeals.execute({
      ...selection.days,
      by,
      settings,
      keep: (meal) => selects(meals, meal),
    });
    return mapResult(ranking, ({ items }) => ({ scope: 'meals' as const, by, items }));
  }
}
