import type { DishId } from '../dish/dish.js';
import type { DishQueries } from '../dish/dish-queries.js';
import type { PreferenceRepository } from '../preference/preference-repository.js';
import type { Clock } from '../shared/clock.js';
import { accept, refuse, type Result } from '../shared/refusal.js';
import type { UserId } from '../shared/user-id.js';

export const avoidDishRefusals = ['dish_not_found', 'too_many_aversions'] as const;

/**
 * How many dishes one person may avoid: far more than anyone avoids on purpose, and a bound on what every personalized
 * read of theirs has to apply and what their list answers.
 */
export const maxAversionsPerPerson = 500;

/** PUT and DELETE /me/aversions/{dish_id}: a dish the person never wants to see, or no longer. */
export class AvoidDish {
  constructor(
    private readonly deps: {
      readonly preferences: PreferenceRepository;
      readonly dishQueries: DishQueries;
      readonly clock: Clock;
    },
  ) {}

  async execute(command: {
    readonly userId: UserId;
    readonly dishId: DishId;
    readonly avoided: boolean;
  }): Promise<Result<boolean, (typeof avoidDishRefusals)[number]>> {
    const { userId, dishId } = command;
    if (!command.avoided) {
      // Forgetting an aversion needs no dish: one of a dish merged away can still be dropped.
      await this.deps.preferences.stopAvoiding(userId, dishId);
      return accept(false);
    }
    const now = this.deps.clock.now();
    if ((await this.deps.dishQueries.dish(dishId, null, now)) === undefined) return refuse('dish_not_found');
    const { aversions } = await this.deps.preferences.preferencesOf(userId);
    // Avoiding a dish again stays idempotent at the limit; a new one past it is refused.
    if (aversions.length >= maxAversionsPerPerson && !aversions.some((aversion) => aversion.dishId === dishId)) {
      return refuse(
        'too_many_aversions',
        `You avoid ${aversions.length} dishes, the most a person may (${maxAversionsPerPerson}): stop avoiding one first.`,
      );
    }
    await this.deps.preferences.avoid(userId, dishId, now);
    return accept(true);
  }
}
