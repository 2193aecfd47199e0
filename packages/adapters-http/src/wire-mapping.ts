import {
  canonicalPrice,
  type ErasedUserData,
  type Meal,
  type MealOverview,
  type MealPrices,
  type RateMealResult,
  type UserDataExport,
} from '@canteen-meals/domain';
import type {
  MealData,
  RateMealData,
  UpsertMealsBody,
  UserDataErasureData,
  UserDataExportData,
} from '@canteen-meals/http-contract';
import type { Static } from '@sinclair/typebox';

// Domain values become wire objects here and nowhere else, and wire bodies become domain values: names such as
// meal_id and rating_personal stay at this edge.

/** A meal as the read endpoints answer it. */
export function mealDataOf(details: MealOverview): MealData {
  const { meal, statistics, distribution } = details;
  return {
    meal_id: meal.id,
    name: meal.name,
    category: meal.category,
    notes: [...meal.notes],
    prices: { ...meal.prices },
    served_at: meal.servedAt.toISOString(),
    rateable: meal.rateable,
    rating_open: details.ratingOpen,
    rating_count: statistics.count,
    rating_average: statistics.average,
    rating_median: statistics.median,
    rating_distribution: {
      '1': distribution[0],
      '2': distribution[1],
      '3': distribution[2],
      '4': distribution[3],
      '5': distribution[4],
    },
    marked: details.marked,
    rating_personal: details.personalRating,
  };
}

/** The answer of rate-meal: the meal's statistics after the change, and the caller's own rating. */
export function rateMealDataOf(result: RateMealResult): RateMealData {
  return {
    rating_count: result.count,
    rating_average: result.average,
    rating_median: result.median,
    rating_personal: result.personal,
  };
}

const servedMealOf = ({ id, name, servedAt }: { id: number; name: string; servedAt: Date }) => ({
  meal_id: id,
  name,
  served_at: servedAt.toISOString(),
});

/** Everything the service holds for one user (GDPR art. 15). */
export function userDataExportDataOf(data: UserDataExport): Static<typeof UserDataExportData> {
  return {
    user_id: data.userId,
    exported_at: data.exportedAt.toISOString(),
    markings: data.markings.map(servedMealOf),
    ratings: data.ratings.map(({ meal, rating }) => ({ ...servedMealOf(meal), rating })),
  };
}

export function erasureDataOf(erased: ErasedUserData): Static<typeof UserDataErasureData> {
  return { markings_erased: erased.markings, ratings_erased: erased.ratings };
}

export function mealsFromUpsertBody(body: UpsertMealsBody): Meal[] {
  return body.meals.map((meal) => ({
    id: meal.meal_id,
    name: meal.name,
    servedAt: new Date(meal.served_at),
    rateable: meal.rateable,
    category: meal.category ?? null,
    notes: meal.notes ?? [],
    prices: canonicalPrices(meal.prices ?? {}),
  }));
}

/** The schema's pattern guarantees that every amount has a canonical form. */
function canonicalPrices(prices: Readonly<Record<string, string>>): MealPrices {
  return Object.fromEntries(Object.entries(prices).map(([role, amount]) => [role, canonicalPrice(amount) ?? amount]));
}
