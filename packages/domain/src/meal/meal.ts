/** A positive integer that identifies a meal across imports. */
export type MealId = number;

export interface Meal {
  readonly id: MealId;
  readonly name: string;
  readonly servedAt: Date;
  readonly rateable: boolean;
}

export function isMealId(value: unknown): value is MealId {
  return Number.isSafeInteger(value) && (value as number) > 0;
}
