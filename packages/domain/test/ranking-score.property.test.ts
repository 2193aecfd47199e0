import {
  defaultRankingSettings,
  emptyHistogram,
  rankingScore,
  rankingSettingsProblem,
  rankItems,
  type RatingHistogram,
  type RankingSettings,
} from '@canteen-meals/domain';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

/** Counts from none to a million per star; fast-check tries small ones (and the edges) most. */
const histogram = fc.tuple(
  fc.nat(1_000_000),
  fc.nat(1_000_000),
  fc.nat(1_000_000),
  fc.nat(1_000_000),
  fc.nat(1_000_000),
);

/** The settings the documentation promises monotonicity for: priors 0.25 to 4 per star, z up to 2.58 (99 %). */
const documentedPrior = () => fc.double({ min: 0.25, max: 4, noNaN: true });
const documentedSettings: fc.Arbitrary<RankingSettings> = fc.record({
  prior: fc.tuple(documentedPrior(), documentedPrior(), documentedPrior(), documentedPrior(), documentedPrior()),
  z: fc.double({ min: 0, max: 2.58, noNaN: true }),
});

/** The defaults, and any settings of the documented range. */
const settings = fc.oneof(fc.constant(defaultRankingSettings), documentedSettings);

/** Any settings rankingSettingsProblem accepts, far beyond the documented range. */
const anyPrior = () => fc.double({ min: 1e-6, max: 1e6, noNaN: true, noDefaultInfinity: true });
const anyValidSettings: fc.Arbitrary<RankingSettings> = fc.record({
  prior: fc.tuple(anyPrior(), anyPrior(), anyPrior(), anyPrior(), anyPrior()),
  z: fc.double({ min: 0, max: 100, noNaN: true, noDefaultInfinity: true }),
});

const withOneMoreFive = (counts: RatingHistogram): RatingHistogram => [
  counts[0],
  counts[1],
  counts[2],
  counts[3],
  counts[4] + 1,
];
const averageOf = (counts: readonly number[]) =>
  counts.reduce((sum, count, index) => sum + count * (index + 1), 0) / counts.reduce((sum, count) => sum + count, 0);

/** The formula as Evan Miller writes it, with the second moment: the oracle of the centred computation. */
function naiveScore(counts: RatingHistogram, { prior, z }: RankingSettings): number {
  const c = counts.map((count, index) => count + prior[index]!);
  const total = c.reduce((sum, count) => sum + count, 0);
  const mean = c.reduce((sum, count, index) => sum + (index + 1) * count, 0) / total;
  const second = c.reduce((sum, count, index) => sum + (index + 1) ** 2 * count, 0) / total;
  return Math.max(1, mean - z * Math.sqrt(Math.max(0, second - mean * mean) / (total + 1)));
}

describe('rankingScore properties', () => {
  it('one more 5-star vote never lowers a score', () => {
    fc.assert(
      fc.property(histogram, settings, (counts, chosen) => {
        expect(rankingScore(withOneMoreFive(counts), chosen)).toBeGreaterThanOrEqual(rankingScore(counts, chosen));
      }),
      { numRuns: 2000 },
    );
  });

  it("more votes at the same average (the histogram times k > 1) raise a score, for averages from the prior's up", () => {
    fc.assert(
      fc.property(histogram, settings, fc.integer({ min: 2, max: 1000 }), (counts, chosen, k) => {
        const priorMean = averageOf(chosen.prior);
        fc.pre(counts.some((count) => count > 0) && averageOf(counts) >= priorMean);
        // With z = 0 at exactly the prior's mean nothing moves: the score is the mean, and the mean stays.
        fc.pre(chosen.z > 0 || averageOf(counts) > priorMean + 1e-9);
        const before = rankingScore(counts, chosen);
        const after = rankingScore(counts.map((count) => count * k) as unknown as RatingHistogram, chosen);
        // A bound answered as 1 (below the lowest star) may stay 1; any other rises.
        if (before > 1) expect(after).toBeGreaterThan(before);
        else expect(after).toBeGreaterThanOrEqual(before);
      }),
      { numRuns: 2000 },
    );
  });

  it('lies within 1 to 5, for any settings that rankingSettingsProblem accepts', () => {
    fc.assert(
      fc.property(histogram, anyValidSettings, (counts, chosen) => {
        expect(rankingSettingsProblem(chosen)).toBeNull();
        const score = rankingScore(counts, chosen);
        expect(score).toBeGreaterThanOrEqual(1);
        expect(score).toBeLessThanOrEqual(5);
      }),
      { numRuns: 2000 },
    );
  });

  it("scores an item nobody rated exactly at the prior's own bound", () => {
    fc.assert(
      fc.property(settings, (chosen) => {
        const { prior, z } = chosen;
        const total = prior.reduce((sum, count) => sum + count, 0);
        const mean = prior.reduce((sum, count, index) => sum + (index + 1) * count, 0) / total;
        const variance = prior.reduce((sum, count, index) => sum + (index + 1 - mean) ** 2 * count, 0) / total;
        expect(rankingScore(emptyHistogram, chosen)).toBe(Math.max(1, mean - z * Math.sqrt(variance / (total + 1))));
      }),
    );
  });

  it('agrees with the formula written with the second moment', () => {
    fc.assert(
      fc.property(
        fc.tuple(fc.nat(1000), fc.nat(1000), fc.nat(1000), fc.nat(1000), fc.nat(1000)),
        settings,
        (counts, chosen) => {
          expect(rankingScore(counts, chosen)).toBeCloseTo(naiveScore(counts, chosen), 9);
        },
      ),
    );
  });
});

describe('rankItems properties', () => {
  const candidates = fc.array(
    fc.record({
      histogram: fc.oneof(
        fc.constant(emptyHistogram),
        fc.tuple(fc.nat(50), fc.nat(50), fc.nat(50), fc.nat(50), fc.nat(50)),
      ),
      marks: fc.nat(5),
    }),
    { maxLength: 40 },
  );

  it('ranks every item once, 1 to n; rated items by score, then more ratings, then given order; unrated last in order', () => {
    fc.assert(
      fc.property(candidates, settings, (given, chosen) => {
        const ranked = rankItems(
          given.map((candidate, index) => ({ ...candidate, item: index })),
          'rating',
          chosen,
        );
        expect(ranked.map((entry) => entry.rank)).toEqual(given.map((_, index) => index + 1));
        expect(ranked.map((entry) => entry.item).sort((a, b) => a - b)).toEqual(given.map((_, index) => index));
        const rated = ranked.filter((entry) => entry.statistics.count > 0);
        const unrated = ranked.filter((entry) => entry.statistics.count === 0);
        expect(ranked).toEqual([...rated, ...unrated]);
        expect(unrated.map((entry) => entry.item)).toEqual(
          [...unrated.map((entry) => entry.item)].sort((a, b) => a - b),
        );
        for (const [higher, lower] of rated.slice(1).map((entry, index) => [rated[index]!, entry] as const)) {
          const order =
            Math.sign(higher.score - lower.score) || Math.sign(higher.statistics.count - lower.statistics.count);
          expect(order > 0 || (order === 0 && higher.item < lower.item)).toBe(true);
        }
        for (const entry of ranked) expect(entry.score).toBe(rankingScore(given[entry.item]!.histogram, chosen));
      }),
    );
  });

  it('by marks, ranks most marked first, ties in the given order', () => {
    fc.assert(
      fc.property(candidates, (given) => {
        const ranked = rankItems(
          given.map((candidate, index) => ({ ...candidate, item: index })),
          'marks',
        );
        const expected = given
          .map((candidate, index) => ({ index, marks: candidate.marks }))
          .sort((a, b) => b.marks - a.marks || a.index - b.index)
          .map((entry) => entry.index);
        expect(ranked.map((entry) => entry.item)).toEqual(expected);
        expect(ranked.map((entry) => entry.marks)).toEqual(expected.map((index) => given[index]!.marks));
      }),
    );
  });
});
