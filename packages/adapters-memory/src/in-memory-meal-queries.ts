import {
  withMealDetails,
  emptyHistogram,
  type DetailedMeal,
  type Meal,
  type MealId,
  type MealQueries,
  type MealView,
  type PageRequest,
  type UserId,
} from '@canteen-meals/domain';
import { InMemoryDatabase } from './in-memory-database.js';

export class InMemoryMealQueries implements MealQueries {
  constructor(private readonly db: InMemoryDatabase = new InMemoryDatabase()) {}

  async viewsByIds(userId: UserId, ids: readonly MealId[]): Promise<MealView[]> {
    return [...new Set(ids)].flatMap((id) => {
      const meal = this.db.meals.get(id);
      return meal === undefined ? [] : [this.viewOf(userId, meal)];
    });
  }

  async viewsServedBetween(userId: UserId, from: Date, until: Date): Promise<MealView[]> {
    return [...this.db.meals.values()]
      .filter((meal) => meal.servedAt >= from && meal.servedAt < until)
      .sort((a, b) => mostRecentFirst(b, a))
      .map((meal) => this.viewOf(userId, meal));
  }

  async markedMeals(userId: UserId, page: PageRequest): Promise<MealView[]> {
    const marked = [...(this.db.markings.get(userId) ?? [])];
    return this.pageOf(userId, marked, page);
  }

  async ratedMeals(userId: UserId, page: PageRequest): Promise<MealView[]> {
    const rated = [...this.db.ratings].filter(([, byUser]) => byUser.has(userId)).map(([mealId]) => mealId);
    return this.pageOf(userId, rated, page);
  }

  private pageOf(userId: UserId, ids: readonly MealId[], { after, limit }: PageRequest): MealView[] {
    return ids
      .map((id) => this.db.meals.get(id))
      .filter((meal): meal is DetailedMeal => meal !== undefined)
      .filter((meal) => after === null || mostRecentFirst(meal, { id: after.mealId, servedAt: after.servedAt }) > 0)
      .sort(mostRecentFirst)
      .slice(0, limit)
      .map((meal) => this.viewOf(userId, meal));
  }

  private viewOf(userId: UserId, meal: DetailedMeal): MealView {
    return {
      meal: withMealDetails(meal),
      histogram: this.db.histograms.get(meal.id) ?? emptyHistogram,
      marked: this.db.markings.get(userId)?.has(meal.id) ?? false,
      personalRating: this.db.ratings.get(meal.id)?.get(userId) ?? null,
    };
  }
}

/** Negative when `a` comes first in "most recently served first" order: served later, or same instant and higher id. */
function mostRecentFirst(a: Pick<Meal, 'id' | 'servedAt'>, b: Pick<Meal, 'id' | 'servedAt'>): number {
  return b.servedAt.getTime() - a.servedAt.getTime() || b.id - a.id;
}
