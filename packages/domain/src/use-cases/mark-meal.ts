import type { MarkingRepository } from '../marking/marking-repository.js';
import type { MealId } from '../meal/meal.js';
import { accept, refuse, type Result } from '../shared/refusal.js';
import type { UserId } from '../shared/user-id.js';

export interface MarkMealCommand {
  readonly userId: UserId;
  readonly mealId: MealId;
  readonly marked: boolean;
}

export interface MarkMealResult {
  readonly marked: boolean;
}

/** Every refusal MarkMeal can answer. */
export const markMealRefusals = ['meal_not_found'] as const;

/** Any existing meal can be marked or unmarked at any time; repeating a request changes nothing. */
export class MarkMeal {
  constructor(private readonly deps: { readonly markings: MarkingRepository }) {}

  async execute({
    userId,
    mealId,
    marked,
  }: MarkMealCommand): Promise<Result<MarkMealResult, (typeof markMealRefusals)[number]>> {
    const mealExists = await this.deps.markings.setMarked(userId, mealId, marked);
    return mealExists ? accept({ marked }) : refuse('meal_not_found');
  }
}
