import type { CanteenId } from '../canteen/canteen.js';
import type { Ranked, RankingOrder } from '../rating/ranking.js';
import type { MenuDays } from '../use-cases/get-public-menu.js';
import { defaultMenuSelection, type MenuSelection } from './menu-selection.js';

/** What a ranking ranks: a canteen's meals of some days, or its dishes over all their servings. */
export const rankingScopes = ['meals', 'dishes'] as const;
export type RankingScope = (typeof rankingScopes)[number];

export const defaultRankingScope: RankingScope = 'meals';
export const defaultRankingOrder: RankingOrder = 'rating';

/** Which ranking a read asks for. */
export type RankingSelection =
  /**
   * The meals of the days that the menu selection shows (placeholders left out unless asked for), ranked among them.
   */
  | { readonly scope: 'meals'; readonly by: RankingOrder; readonly days: MenuDays; readonly meals: MenuSelection }
  /** Every dish of the canteen, each over all its servings. */
  | { readonly scope: 'dishes'; readonly by: RankingOrder; readonly canteenId: CanteenId };

/** A ranking read as asked, before its defaults. */
export type RankingRequest =
  | {
      readonly scope?: 'meals' | undefined;
      readonly by?: RankingOrder | undefined;
      readonly days: MenuDays;
      readonly meals?: MenuSelection | undefined;
    }
  | {
      readonly scope: 'dishes';
      readonly by?: RankingOrder | undefined;
      readonly canteenId: CanteenId;
      /** Whether the read named any day: a ranking of dishes covers every serving, so it takes none. */
      readonly namesDays: boolean;
    };

/** Why a ranking read is not one: a ranking of dishes ranks every serving, and takes no days. */
export type RankingSelectionProblem = 'dishes_take_no_days';

/** The ranking a read asks for, with its defaults: its meals, by rating. */
export function rankingSelectionOf(
  request: RankingRequest,
):
  | { readonly ok: true; readonly value: RankingSelection }
  | { readonly ok: false; readonly problem: RankingSelectionProblem } {
  const by = request.by ?? defaultRankingOrder;
  if (request.scope === 'dishes') {
    if (request.namesDays) return { ok: false, problem: 'dishes_take_no_days' };
    return { ok: true, value: { scope: 'dishes', by, canteenId: request.canteenId } };
  }
  return { ok: true, value: { scope: 'meals', by, days: request.days, meals: request.meals ?? defaultMenuSelection } };
}

/**
 * The score a ranking shows of an item: none for an item nobody rated. Its score is the prior's bound, which an app
 * would show as if it were a rating (the "2.5 stars for an unrated meal" that the rankings are there to avoid).
 */
export function shownScoreOf(entry: Ranked<unknown>): number | null {
  return entry.statistics.count === 0 ? null : entry.score;
}
