import { decideRatingChange, ratingPeriodMs, type Meal, type RatingValue, type UserId } from '@canteen-meals/domain';
import type { RatingRepository } from '@canteen-meals/domain/ports';

/** Sets (or with null deletes) a rating through the real decision, at an instant inside the meal's rating period. */
export async function rateInPeriod(
  ratings: RatingRepository,
  userId: UserId,
  meal: Meal,
  rating: RatingValue | null,
): Promise<void> {
  const inPeriod = new Date(meal.servedAt.getTime() + ratingPeriodMs / 2);
  const decision = await ratings.change(userId, meal.id, (snapshot) => decideRatingChange(snapshot, rating, inPeriod));
  if (!decision.ok) throw new Error(`rating meal ${meal.id} was refused: ${decision.refusal.code}`);
}
