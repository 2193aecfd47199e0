import type { MealId } from '../meal/meal.js';
import type { RatingRepository } from '../rating/rating-repository.js';
import { ratingRefusals, type RatingRefusal } from '../rating/rating-rules.js';
import { ratingStatistics, type RatingStatistics } from '../rating/rating-statistics.js';
import { decideRatingChange } from '../rating/rating-transition.js';
import type { RatingValue } from '../rating/rating.js';
import type { Clock } from '../shared/clock.js';
import { nobodyListens, type AnnounceMenuChange } from '../reading/menu-change.js';
import { mapResult, type Result } from '../shared/refusal.js';
import type { UserId } from '../shared/user-id.js';

export interface RateMealCommand {
  readonly userId: UserId;
  readonly mealId: MealId;
  /** null deletes the user's rating. */
  readonly rating: RatingValue | null;
}

export interface RateMealResult extends RatingStatistics {
  readonly personal: RatingValue | null;
}

/** Every refusal RateMeal can answer. */
export const rateMealRefusals = ratingRefusals;

/** Sets, replaces or deletes one user's rating while the meal's rating period is open. */
export class RateMeal {
  constructor(
    private readonly deps: {
      readonly ratings: RatingRepository;
      readonly clock: Clock;
      readonly announce?: AnnounceMenuChange;
    },
  ) {}

  async execute({ userId, mealId, rating }: RateMealCommand): Promise<Result<RateMealResult, RatingRefusal>> {
    const now = this.deps.clock.now();
    const decision = await this.deps.ratings.change(userId, mealId, (snapshot) =>
      decideRatingChange(snapshot, rating, now),
    );
    if (decision.ok && decision.value.previous !== decision.value.next) {
      const { mealId, histogram, dish } = decision.value;
      (this.deps.announce ?? nobodyListens)({ kind: 'rating', mealId, histogram, dish });
    }
    return mapResult(decision, (change) => ({ ...ratingStatistics(change.histogram), personal: change.next }));
  }
}
