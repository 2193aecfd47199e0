import {
  emptyHistogram,
  type DetailedMeal,
  type MealId,
  type RatingHistogram,
  type RatingValue,
  type UserId,
} from '@canteen-meals/domain';
import type { MealQueries } from '@canteen-meals/domain/ports';
import { readAt } from './sample-meals.js';

/**
 * How tests look at what a store holds without test-only methods on the ports: every answer comes from the read
 * side (`MealQueries.viewsByIds`), the same query production runs, so a probe sees exactly what users would.
 */
export interface RepositoryProbe {
  /** The meal with every detail, or undefined when there is none. */
  meal(mealId: MealId): Promise<DetailedMeal | undefined>;
  /** The user's rating of the meal; null when there is none (or no meal). */
  rating(userId: UserId, mealId: MealId): Promise<RatingValue | null>;
  /** The meal's histogram; all zeros when there is no meal. */
  histogram(mealId: MealId): Promise<RatingHistogram>;
  /** Whether the user has marked the meal. */
  marked(userId: UserId, mealId: MealId): Promise<boolean>;
}

/** Any user id reads the meal and its histogram; only the personal fields depend on it. */
const anyReader = 'repository-probe';

/** A probe over the queries that `queriesOf()` answers when called (a fixture's, which exists only during a test). */
export function probeThrough(queriesOf: () => MealQueries): RepositoryProbe {
  const view = async (userId: UserId, mealId: MealId) => (await queriesOf().viewsByIds(userId, [mealId], readAt))[0];
  return {
    meal: async (mealId) => (await view(anyReader, mealId))?.meal,
    rating: async (userId, mealId) => (await view(userId, mealId))?.personalRating ?? null,
    histogram: async (mealId) => (await view(anyReader, mealId))?.histogram ?? emptyHistogram,
    marked: async (userId, mealId) => (await view(userId, mealId))?.marked ?? false,
  };
}
