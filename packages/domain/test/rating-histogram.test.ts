import { applyRatingChange, emptyHistogram, histogramOf } from '@canteen-meals/domain';
import { describe, expect, it } from 'vitest';

describe('rating histogram', () => {
  it('counts each value in its own bucket, the 1s first', () => {
    expect(histogramOf([])).toEqual(emptyHistogram);
    expect(histogramOf([1, 5, 5, 3, 1, 1])).toEqual([3, 0, 1, 0, 2]);
  });

  it('moves one count for a set, a replacement and a deletion, and none for no change', () => {
    expect(applyRatingChange([0, 0, 0, 0, 0], null, 4)).toEqual([0, 0, 0, 1, 0]);
    expect(applyRatingChange([0, 0, 0, 1, 0], 4, 2)).toEqual([0, 1, 0, 0, 0]);
    expect(applyRatingChange([0, 1, 0, 0, 0], 2, null)).toEqual([0, 0, 0, 0, 0]);
    expect(applyRatingChange([0, 1, 0, 0, 0], 2, 2)).toEqual([0, 1, 0, 0, 0]);
    expect(applyRatingChange([2, 0, 0, 0, 0], null, null)).toEqual([2, 0, 0, 0, 0]);
  });

  it('leaves its input alone', () => {
    const before = [1, 1, 1, 1, 1] as const;
    applyRatingChange(before, 3, 5);
    expect(before).toEqual([1, 1, 1, 1, 1]);
  });

  it('refuses to remove a rating the histogram does not count', () => {
    expect(() => applyRatingChange([1, 0, 0, 0, 0], 3, null)).toThrow(RangeError);
  });
});
