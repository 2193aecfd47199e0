import type { NumberFormats } from './figures.js';
import type { DashboardTexts } from './texts.js';

/** A ranked item's figures as the rankings answer carries them. */
export interface RankedFigures {
  readonly score: number | null;
  readonly rating_count: number;
  readonly rating_average: number | null;
}

export interface RankingText {
  /** "4.4 (5 ratings)", or "unrated". */
  readonly figures: string;
  /** The lower bound on the 1..5 scale as a share of its bar (0 at 1 star, 1 at 5), null without ratings. */
  readonly sureShare: number | null;
  /** What the bar says, for screen readers: "at least 3.9 to be sure". */
  readonly sureLabel: string | null;
}

/**
 * Why "4.3 (8)" may rank above "4.4 (5)": the rank follows the score, a lower bound of the rating that grows with the
 * number of votes. The page shows the average with its count, and the lower bound as a bar, so both can be seen.
 */
export function rankingText(item: RankedFigures, t: DashboardTexts, format: NumberFormats): RankingText {
  if (item.rating_count === 0 || item.rating_average === null)
    return { figures: t.unrated, sureShare: null, sureLabel: null };
  const figures = `${format.oneDecimal(item.rating_average)} (${t.ratings(format.whole(item.rating_count), item.rating_count === 1)})`;
  if (item.score === null) return { figures, sureShare: null, sureLabel: null };
  const share = Math.min(1, Math.max(0, (item.score - 1) / 4));
  return { figures, sureShare: share, sureLabel: t.atLeast(format.oneDecimal(item.score)) };
}
