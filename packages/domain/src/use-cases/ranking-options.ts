import type { RankingOrder } from '../rating/ranking.js';
import type { RankingSettings } from '../rating/ranking-score.js';
import type { DetailedMeal } from '../meal/meal.js';

/** How to rank: by rating (the default) or by marks, with the prior and confidence of the score. */
export interface RankingOptions {
  readonly by?: RankingOrder | undefined;
  readonly settings?: RankingSettings | undefined;
  /** Which meals take part (a read's label filter); absent: every meal of the days. Ranks count only those. */
  readonly keep?: ((meal: DetailedMeal) => boolean) | undefined;
}
