export const ratingValues = [1, 2, 3, 4, 5] as const;

export type RatingValue = (typeof ratingValues)[number];

export function isRatingValue(value: unknown): value is RatingValue {
  return Number.isInteger(value) && (value as number) >= 1 && (value as number) <= 5;
}
