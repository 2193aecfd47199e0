import {
  defaultRankingSettings,
  emptyHistogram,
  rankingScore,
  rankingSettingsProblem,
  rankItems,
  type RankingSettings,
} from '@canteen-meals/domain';
import { describe, expect, it } from 'vitest';

// Hand computations, with c_k = n_k + 1 (the default prior), N = Σ c_k, score = mean − 1.65 √(variance / (N + 1)).
describe('rankingScore', () => {
  it('scores an item nobody rated at the bound of the prior alone: mean 3, variance 2, N = 5', () => {
    expect(rankingScore(emptyHistogram)).toBeCloseTo(3 - 1.65 * Math.sqrt(2 / 6), 12);
    expect(rankingScore(emptyHistogram)).toBeCloseTo(2.0473720558, 9);
  });

  it('scores one 5-star vote: counts 1,1,1,1,2, mean 10/3, variance 20/9, N = 6', () => {
    expect(rankingScore([0, 0, 0, 0, 1])).toBeCloseTo(10 / 3 - 1.65 * Math.sqrt(20 / 9 / 7), 12);
    expect(rankingScore([0, 0, 0, 0, 1])).toBeCloseTo(2.4036636531, 9);
  });

  it('scores fifty votes averaging 4.6 (20 fours, 30 fives): mean 49/11, variance 74/121, N = 55', () => {
    const fifty = [0, 0, 0, 20, 30] as const;
    expect(rankingScore(fifty)).toBeCloseTo(49 / 11 - 1.65 * Math.sqrt(74 / 121 / 56), 12);
    // The complaint of the issue: one 5-star vote must not beat fifty votes averaging 4.6.
    expect(rankingScore(fifty)).toBeGreaterThan(rankingScore([0, 0, 0, 0, 1]) + 1.5);
  });

  it('is the posterior mean with z = 0, and takes the prior it is given', () => {
    expect(rankingScore([0, 0, 0, 0, 1], { prior: [1, 1, 1, 1, 1], z: 0 })).toBeCloseTo(10 / 3, 12);
    // Two pseudo-votes per star: without ratings mean 3, variance 2, N = 10; the prior weighs more, the bound is
    // higher.
    const twos: RankingSettings = { prior: [2, 2, 2, 2, 2], z: 1.65 };
    expect(rankingScore(emptyHistogram, twos)).toBeCloseTo(3 - 1.65 * Math.sqrt(2 / 11), 12);
    // One 5 beside them: counts 2,2,2,2,3, mean 35/11, variance 260/121, N = 11.
    expect(rankingScore([0, 0, 0, 0, 1], twos)).toBeCloseTo(35 / 11 - 1.65 * Math.sqrt(260 / 121 / 12), 12);
  });

  it('answers 1 for a bound below 1 (a large z), never less', () => {
    expect(rankingScore([3, 0, 0, 0, 0], { prior: [1, 1, 1, 1, 1], z: 10 })).toBe(1);
  });

  it('keeps its digits with millions of votes: the variance is computed centred', () => {
    const allFives = rankingScore([0, 0, 0, 0, 10_000_000]);
    expect(allFives).toBeLessThan(5);
    expect(allFives).toBeGreaterThan(4.999);
    expect(rankingScore([0, 0, 0, 0, 10_000_001])).toBeGreaterThan(allFives);
  });
});

describe('rankingSettingsProblem', () => {
  it('accepts the defaults: one pseudo-vote per star and z = 1.65', () => {
    expect(defaultRankingSettings).toEqual({ prior: [1, 1, 1, 1, 1], z: 1.65 });
    expect(rankingSettingsProblem(defaultRankingSettings)).toBeNull();
    expect(rankingSettingsProblem({ prior: [0.5, 2, 3, 2, 0.5], z: 0 })).toBeNull();
  });

  it.each<[string, unknown]>([
    ['four pseudo-counts', { prior: [1, 1, 1, 1], z: 1 }],
    ['a pseudo-count of 0', { prior: [1, 0, 1, 1, 1], z: 1 }],
    ['a negative pseudo-count', { prior: [1, 1, -1, 1, 1], z: 1 }],
    ['a pseudo-count that is not a number', { prior: [1, 1, Number.NaN, 1, 1], z: 1 }],
    ['an infinite pseudo-count', { prior: [1, 1, 1, Number.POSITIVE_INFINITY, 1], z: 1 }],
    ['a negative z', { prior: [1, 1, 1, 1, 1], z: -0.1 }],
    ['a z that is not a number', { prior: [1, 1, 1, 1, 1], z: Number.NaN }],
  ])('refuses %s', (_case, settings) => {
    expect(rankingSettingsProblem(settings as RankingSettings)).toMatch(/prior|z must/);
  });
});

describe('rankItems', () => {
  const meal = (name: string, histogram: readonly [number, number, number, number, number], marks = 0) => ({
    item: name,
    histogram,
    marks,
  });

  it('ranks rated items by score, the unrated ones last in the given order, ranks 1..n', () => {
    const ranked = rankItems([
      meal('unrated first', [0, 0, 0, 0, 0]),
      meal('one five', [0, 0, 0, 0, 1]),
      meal('bad', [5, 0, 0, 0, 0]),
      meal('fifty at 4.6', [0, 0, 0, 20, 30]),
      meal('unrated last', [0, 0, 0, 0, 0]),
    ]);
    expect(ranked.map((entry) => [entry.rank, entry.item])).toEqual([
      [1, 'fifty at 4.6'],
      [2, 'one five'],
      [3, 'bad'],
      [4, 'unrated first'],
      [5, 'unrated last'],
    ]);
    // "bad" scores below what an unrated item scores, and still ranks above it: unrated is unknown, not average.
    expect(ranked[2]!.score).toBeLessThan(ranked[3]!.score);
    expect(ranked[0]).toMatchObject({
      statistics: { count: 50, average: 4.6 },
      score: rankingScore([0, 0, 0, 20, 30]),
    });
    expect(ranked[3]).toMatchObject({ statistics: { count: 0, average: null }, score: rankingScore(emptyHistogram) });
  });

  it('breaks a tie of scores by the number of ratings, then by the given order', () => {
    const ranked = rankItems(
      [meal('a', [0, 0, 0, 1, 0]), meal('b', [0, 0, 0, 1, 0]), meal('c', [0, 0, 0, 2, 0])],
      'rating',
      {
        prior: [1, 1, 1, 1, 1],
        z: 0,
      },
    );
    // With z = 0, c (two 4s) scores 3.286 and a, b (one 4) 3.167: the tie of a and b goes by their order.
    expect(ranked.map((entry) => entry.item)).toEqual(['c', 'a', 'b']);
    // An exact tie of scores with different counts: with z = 0, one 3 and two 3s both score the prior's mean, 3.
    const tied = rankItems([meal('one three', [0, 0, 1, 0, 0]), meal('two threes', [0, 0, 2, 0, 0])], 'rating', {
      prior: [1, 1, 1, 1, 1],
      z: 0,
    });
    expect(tied.map((entry) => entry.score)).toEqual([3, 3]);
    expect(tied.map((entry) => entry.item)).toEqual(['two threes', 'one three']);
  });

  it('ranks by marks, most first, ties in the given order, rated or not', () => {
    const ranked = rankItems(
      [
        meal('a', [0, 0, 0, 0, 9], 1),
        meal('b', [0, 0, 0, 0, 0], 3),
        meal('c', [1, 0, 0, 0, 0], 1),
        meal('d', [0, 0, 0, 0, 0]),
      ],
      'marks',
    );
    expect(ranked.map((entry) => [entry.rank, entry.item, entry.marks])).toEqual([
      [1, 'b', 3],
      [2, 'a', 1],
      [3, 'c', 1],
      [4, 'd', 0],
    ]);
  });

  it('ranks nothing as nothing', () => {
    expect(rankItems([])).toEqual([]);
  });
});
