import type {
  Availability,
  DishReading,
  MealReading,
  RatingHistogram,
  UpcomingFavourites,
} from '@canteen-meals/domain';
import type { DishSummaryData, MealData, PublicMealData, UpcomingData } from '@canteen-meals/http-contract';

// A meal's figures as the read answers carry them (the menu, a meal, the live events): wire names stay at this edge.

/** A meal as the read endpoints answer it: the public figures, then the reader's own marking and rating. */
export function mealDataOf(details: MealReading): MealData {
  return { ...publicMealDataOf(details), marked: details.marked, rating_personal: details.personalRating };
}

/** GET /me/upcoming: each coming serving as a menu item with its canteen's day, and whether the answer was cut. */
export function upcomingDataOf(upcoming: UpcomingFavourites): UpcomingData {
  return {
    servings: upcoming.servings.map(({ date, reading }) => ({ ...mealDataOf(reading), date })),
    truncated: upcoming.truncated,
  };
}

/** A meal as the public menu answers it: the same as `mealDataOf` without the reader's own fields. */
export function publicMealDataOf(details: MealReading): PublicMealData {
  const { meal, statistics, distribution } = details;
  return {
    meal_id: meal.id,
    name: meal.name,
    category: meal.category,
    notes: [...meal.notes],
    labels: [...meal.labels],
    prices: { ...meal.prices },
    served_at: meal.servedAt.toISOString(),
    rateable: meal.rateable,
    canteen_id: meal.canteenId,
    rating_open: details.ratingOpen,
    rating_count: statistics.count,
    rating_average: statistics.average,
    rating_median: statistics.median,
    rating_distribution: distributionDataOf(distribution),
    dish_id: details.dish.id,
    dish: dishSummaryDataOf(details.dish),
    ...availabilityFieldsOf(details.availability),
  };
}

/** A serving's availability as every meal answer, the kitchen's PUT and the live event carry it. */
export function availabilityFieldsOf(availability: Availability) {
  return { availability: availability.status, availability_changed_at: availability.changedAt?.toISOString() ?? null };
}

/** A dish's figures, as every meal answer and the dish routes carry them. */
export function dishSummaryDataOf(dish: DishReading): DishSummaryData {
  return {
    dish_id: dish.id,
    name: dish.name,
    rating_count: dish.statistics.count,
    rating_average: dish.statistics.average,
    rating_median: dish.statistics.median,
    times_served: dish.timesServed,
    last_served_at: dish.lastServedAt?.toISOString() ?? null,
    next_served_at: dish.nextServedAt?.toISOString() ?? null,
  };
}

export function distributionDataOf(histogram: RatingHistogram) {
  return { '1': histogram[0], '2': histogram[1], '3': histogram[2], '4': histogram[3], '5': histogram[4] };
}
