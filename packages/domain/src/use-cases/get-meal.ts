import type { MealId } from '../meal/meal.js';
import { mealOverviewOf, type MealOverview } from '../reading/meal-overview.js';
import type { MealQueries } from '../reading/meal-queries.js';
import type { Clock } from '../shared/clock.js';
import { DomainError } from '../shared/domain-error.js';
import type { UserId } from '../shared/user-id.js';

/** One meal with its statistics, whether it can be rated now, and the reader's own marking and rating. */
export class GetMeal {
  constructor(private readonly deps: { readonly queries: MealQueries; readonly clock: Clock }) {}

  async execute({ userId, mealId }: { readonly userId: UserId; readonly mealId: MealId }): Promise<MealOverview> {
    const [view] = await this.deps.queries.viewsByIds(userId, [mealId]);
    if (view === undefined) throw new DomainError('meal_not_found');
    return mealOverviewOf(view, this.deps.clock.now());
  }
}
