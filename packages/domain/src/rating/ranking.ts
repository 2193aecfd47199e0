import type { RatingHistogram } from './rating-histogram.js';
import { ratingStatistics, type RatingStatistics } from './rating-statistics.js';
import { defaultRankingSettings, rankingScore, type RankingSettings } from './ranking-score.js';

/** What a ranking orders by: the score of the ratings, or how many markings (favourites) an item holds. */
export const rankingOrders = ['rating', 'marks'] as const;
export type RankingOrder = (typeof rankingOrders)[number];

/** An item to rank, in the order it is given in (a menu's order, dishes by id): the order that breaks every tie. */
export interface RankingCandidate<T> {
  readonly item: T;
  readonly histogram: RatingHistogram;
  /** How many markings it holds; only the order by marks reads it (absent: 0). */
  readonly marks?: number | undefined;
}

/** One item of a ranking. */
export interface Ranked<T> {
  /** 1 for the first item, then 2, 3…: every item has a rank of its own, ties are broken as documented. */
  readonly rank: number;
  readonly item: T;
  /** rankingScore of its histogram: a lower bound of its expected rating (the prior's bound without ratings). */
  readonly score: number;
  readonly statistics: RatingStatistics;
  readonly marks: number;
}

/**
 * Pure: ranks the candidates. By rating, the rated items come first by score, highest first (ties: more ratings
 * first, then the given order), and the items nobody rated come last in the given order, whatever their score: a
 * meal nobody rated is not "average", it is unknown. By marks, the items come by number of markings, most first (ties:
 * the given order). O(n log n); each score is O(1).
 */
export function rankItems<T>(
  candidates: readonly RankingCandidate<T>[],
  by: RankingOrder = 'rating',
  settings: RankingSettings = defaultRankingSettings,
): Ranked<T>[] {
  const entries = candidates.map((candidate, index) => ({
    index,
    item: candidate.item,
    score: rankingScore(candidate.histogram, settings),
    statistics: ratingStatistics(candidate.histogram),
    marks: candidate.marks ?? 0,
  }));
  entries.sort(by === 'marks' ? byMarks : byRating);
  return entries.map(({ index: _index, ...entry }, position) => ({ rank: position + 1, ...entry }));
}

interface Entry {
  readonly index: number;
  readonly score: number;
  readonly statistics: RatingStatistics;
  readonly marks: number;
}

function byRating(a: Entry, b: Entry): number {
  const aRated = a.statistics.count > 0;
  const bRated = b.statistics.count > 0;
  if (aRated !== bRated) return aRated ? -1 : 1;
  if (!aRated) return a.index - b.index;
  return b.score - a.score || b.statistics.count - a.statistics.count || a.index - b.index;
}

function byMarks(a: Entry, b: Entry): number {
  return b.marks - a.marks || a.index - b.index;
}
