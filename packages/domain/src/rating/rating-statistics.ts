import type { RatingHistogram } from './rating-histogram.js';
import type { RatingValue } from './rating.js';

export interface RatingStatistics {
  readonly count: number;
  /** Arithmetic mean, unrounded; null without ratings. */
  readonly average: number | null;
  /** For an even count, the mean of the two middle values; null without ratings. */
  readonly median: number | null;
}

/** O(1) in the number of ratings: everything follows from the five counts. */
export function ratingStatistics(histogram: RatingHistogram): RatingStatistics {
  const count = histogram.reduce((total, n) => total + n, 0);
  if (count === 0) return { count, average: null, median: null };

  const sum = histogram.reduce((total, n, index) => total + n * (index + 1), 0);
  const lowerMiddle = valueAtRank(histogram, Math.floor((count - 1) / 2));
  const upperMiddle = valueAtRank(histogram, Math.floor(count / 2));
  return { count, average: sum / count, median: (lowerMiddle + upperMiddle) / 2 };
}

/** The value at a zero-based position of the ratings sorted ascending. */
function valueAtRank(histogram: RatingHistogram, rank: number): RatingValue {
  let seen = 0;
  for (let index = 0; index < histogram.length; index++) {
    seen += histogram[index] ?? 0;
    if (rank < seen) return (index + 1) as RatingValue;
  }
  throw new RangeError(`rank ${rank} is outside a histogram of ${seen} ratings`);
}
