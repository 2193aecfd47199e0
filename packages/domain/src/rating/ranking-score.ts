import type { RatingHistogram } from './rating-histogram.js';

/**
 * How a ranking weighs few votes against many. The score of an item is a lower bound of its expected rating under a
 * Dirichlet posterior over the five stars (Evan Miller, "Ranking items with star ratings"): every item starts with
 * `prior` pseudo-votes, so that one 5-star vote does not make a perfect meal, and the bound lies `z` standard
 * deviations below the posterior mean, so that an item needs votes to climb.
 */
export interface RankingSettings {
  /**
   * Pseudo-votes for 1 to 5 stars (index 0 for the 1s) that every item holds besides its ratings; each positive. The
   * default, one of each, says "unknown, somewhere around 3" and weighs as much as five ratings.
   */
  readonly prior: readonly [number, number, number, number, number];
  /**
   * How many standard deviations of the posterior the score lies below its mean; 0 ranks by the posterior mean alone.
   * 1.65 makes the score a one-sided 95 % bound: the expected rating lies above it with that confidence.
   */
  readonly z: number;
}

/** One pseudo-vote per star and a 95 % one-sided bound: what the server uses unless told otherwise. */
export const defaultRankingSettings: RankingSettings = { prior: [1, 1, 1, 1, 1], z: 1.65 };

/**
 * Why the settings cannot rank, for people; null when they can. Monotonicity (one more 5-star vote never lowers a
 * score) is tested for priors from 0.25 to 4 per star and z up to 2.58; far outside that (a huge prior on one star,
 * a large z) it can fail.
 */
export function rankingSettingsProblem(settings: RankingSettings): string | null {
  const { prior, z } = settings;
  if (!Array.isArray(prior) || prior.length !== 5) return 'the prior needs five pseudo-counts, one per star';
  if (prior.some((count) => typeof count !== 'number' || !Number.isFinite(count) || count <= 0)) {
    return 'every pseudo-count of the prior must be a finite number above 0';
  }
  if (typeof z !== 'number' || !Number.isFinite(z) || z < 0) return 'z must be a finite number of at least 0';
  return null;
}

/**
 * The ranking score of an item with these ratings: a lower bound of its expected rating, between 1 and 5. O(1): the
 * five counts are all it reads. With `c_k = n_k + prior_k` for the stars `s_k = k`, `N = Σ c_k`:
 *
 *   mean = Σ s_k c_k / N,  variance = Σ (s_k − mean)² c_k / N,  score = mean − z √(variance / (N + 1))
 *
 * (the variance equals `Σ s_k² c_k / N − mean²`; it is computed centred so that millions of votes lose no digits).
 * An item without ratings scores the prior's own bound (2.047 with the defaults). A bound below 1 (a large z, tiny
 * priors) says no more than "1 star" and is answered as 1. The settings are taken as valid (see
 * rankingSettingsProblem).
 */
export function rankingScore(histogram: RatingHistogram, settings: RankingSettings = defaultRankingSettings): number {
  const { prior, z } = settings;
  let total = 0;
  let weighted = 0;
  for (let index = 0; index < 5; index++) {
    const count = histogram[index]! + prior[index]!;
    total += count;
    weighted += (index + 1) * count;
  }
  const mean = weighted / total;
  let spread = 0;
  for (let index = 0; index < 5; index++) {
    const deviation = index + 1 - mean;
    spread += deviation * deviation * (histogram[index]! + prior[index]!);
  }
  const variance = spread / total;
  // The bound never exceeds the mean, itself at most 5.
  return Math.max(1, mean - z * Math.sqrt(variance / (total + 1)));
}
