import { histogramOf, ratingStatistics, type RatingValue } from '@canteen-meals/domain';
import { describe, expect, it } from 'vitest';

const statisticsOf = (...ratings: RatingValue[]) => ratingStatistics(histogramOf(ratings));

describe('ratingStatistics', () => {
  it('has no average and no median without ratings', () => {
    expect(statisticsOf()).toEqual({ count: 0, average: null, median: null });
  });

  it('takes a single rating as its own average and median', () => {
    expect(statisticsOf(4)).toEqual({ count: 1, average: 4, median: 4 });
  });

  it('counts every rating and averages them unrounded', () => {
    expect(statisticsOf(1, 2, 2)).toEqual({ count: 3, average: 5 / 3, median: 2 });
    expect(statisticsOf(5, 5, 4, 1, 1, 1, 3)).toEqual({ count: 7, average: 20 / 7, median: 3 });
  });

  it('takes the middle value of an odd count, whatever order the ratings came in', () => {
    expect(statisticsOf(5, 1, 4, 1, 2)).toMatchObject({ median: 2 });
    expect(statisticsOf(5, 5, 1)).toMatchObject({ median: 5 });
  });

  it('takes the mean of the two middle values of an even count', () => {
    expect(statisticsOf(1, 2)).toEqual({ count: 2, average: 1.5, median: 1.5 });
    expect(statisticsOf(1, 1, 5, 5)).toEqual({ count: 4, average: 3, median: 3 });
    expect(statisticsOf(2, 3, 3, 4, 5, 5)).toMatchObject({ median: 3.5 });
    expect(statisticsOf(1, 1, 1, 4)).toMatchObject({ median: 1 });
    // The two middle values sit in different, non-adjacent buckets.
    expect(statisticsOf(1, 1, 5, 5, 1, 5)).toMatchObject({ median: 3 });
  });

  it('reads the statistics from the five counts alone, however many ratings there are', () => {
    expect(ratingStatistics([1_000_000, 0, 0, 0, 1_000_001])).toEqual({
      count: 2_000_001,
      average: (1_000_000 + 5 * 1_000_001) / 2_000_001,
      median: 5,
    });
  });
});
