import type { RatingValue } from './rating.js';

/** How many ratings of each value 1..5 a meal holds; index 0 counts the 1s. */
export type RatingHistogram = readonly [number, number, number, number, number];

export const emptyHistogram: RatingHistogram = [0, 0, 0, 0, 0];

/** The histogram after one user's rating goes from `previous` to `next` (null: no rating). */
export function applyRatingChange(
  histogram: RatingHistogram,
  previous: RatingValue | null,
  next: RatingValue | null,
): RatingHistogram {
  const counts = histogram.map(
    (count, index) => count - (previous === index + 1 ? 1 : 0) + (next === index + 1 ? 1 : 0),
  ) as unknown as RatingHistogram;
  if (counts.some((count) => count < 0)) {
    throw new RangeError(`histogram would go negative removing a ${previous}: ${histogram.join(',')}`);
  }
  return counts;
}

export function histogramOf(ratings: Iterable<RatingValue>): RatingHistogram {
  const counts = [0, 0, 0, 0, 0];
  for (const rating of ratings) counts[rating - 1]! += 1;
  return counts as unknown as RatingHistogram;
}
