import type { MealId } from '../meal/meal.js';
import { mealReadingOf, type MealReading } from '../reading/meal-reading.js';
import type { MealQueries } from '../reading/meal-queries.js';
import type { Clock } from '../shared/clock.js';
import { accept, refuse, type Result } from '../shared/refusal.js';
import type { UserId } from '../shared/user-id.js';

/** Every refusal GetMeal can answer. */
export const getMealRefusals = ['meal_not_found'] as const;

/**
 * One meal with its statistics, whether it can be rated now, and the reader's own marking and rating (an anonymous
 * reader, null, has neither).
 */
export class GetMeal {
  constructor(private readonly deps: { readonly queries: MealQueries; readonly clock: Clock }) {}

  async execute({
    userId,
    mealId,
  }: {
    readonly userId: UserId | null;
    readonly mealId: MealId;
  }): Promise<Result<MealReading, (typeof getMealRefusals)[number]>> {
    const now = this.deps.clock.now();
    const [view] = await this.deps.queries.viewsByIds(userId, [mealId], now);
    return view === undefined ? refuse('meal_not_found') : accept(mealReadingOf(view, now));
  }
}
