import type { MealOverview } from '@canteen-meals/domain';
import type { MealData } from '@canteen-meals/http-contract';

/** A meal as the read endpoints answer it: domain names become wire names here and nowhere else. */
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
