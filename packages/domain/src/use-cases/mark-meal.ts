import type { MarkingRepository } from '../marking/marking-repository.js';
import type { MealId } from '../meal/meal.js';
import { DomainError } from '../shared/domain-error.js';
import type { UserId } from '../shared/user-id.js';

export interface MarkMealCommand {
  readonly userId: UserId;
  readonly mealId: MealId;
  readonly marked: boolean;
}

export interface MarkMealResult {
  readonly marked: boolean;
}

/** Any existing meal can be marked or unmarked at any time; repeating a request changes nothing. */
export class MarkMeal {
  constructor(private readonly deps: { readonly markings: MarkingRepository }) {}

  async execute({ userId, mealId, marked }: MarkMealCommand): Promise<MarkMealResult> {
    const mealExists = await this.deps.markings.setMarked(userId, mealId, marked);
    if (!mealExists) throw new DomainError('meal_not_found');
    return { marked };
  }
}
