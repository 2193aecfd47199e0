import {
  withMealDetails,
  emptyHistogram,
  type DetailedMeal,
  type DishId,
  type DishSummary,
  type Meal,
  type MealId,
  type MealQueries,
  type PersonalMeal,
  type PageRequest,
  type ServingWindow,
  type UserId,
} from '@canteen-meals/domain';
import { InMemoryDatabase } from './in-memory-database.js';

export class InMemoryMealQueries implements MealQueries {
  constructor(private readonly db: InMemoryDatabase = new InMemoryDatabase()) {}

  async viewsByIds(userId: UserId, ids: readonly MealId[], asOf: Date): Promise<PersonalMeal[]> {
    return [...new Set(ids)].flatMap((id) => {
      const meal = this.served(id);
      return meal === undefined ? [] : [viewOf(this.db, userId, meal, asOf)];
    });
  }

  async viewsServedIn(userId: UserId, windows: readonly ServingWindow[], asOf: Date): Promise<PersonalMeal[]> {
    return [...this.db.meals.values()]
      .filter((meal) => !this.db.withdrawn.has(meal.id))
      .filter((meal) => windows.some((w) => meal.canteenId === w.canteenId && meal.servedAt >= w.from && meal.servedAt < w.until))
      .sort(menuOrder)
      .map((meal) => viewOf(this.db, userId, meal, asOf));
  }

  async markedMeals(userId: UserId, page: PageRequest, asOf: Date): Promise<PersonalMeal[]> {
    const marked = [...(this.db.markings.get(userId) ?? [])];
    return pageOf(this.db, userId, marked, page, asOf);
  }

  async ratedMeals(userId: UserId, page: PageRequest, asOf: Date): Promise<PersonalMeal[]> {
    const rated = [...this.db.ratings].filter(([, byUser]) => byUser.has(userId)).map(([mealId]) => mealId);
    return pageOf(this.db, userId, rated, page, asOf);
  }

  private served(id: MealId): DetailedMeal | undefined {
    return this.db.withdrawn.has(id) ? undefined : this.db.meals.get(id);
  }
}

/** One page, most recently served first, of those of `ids` that are served (not withdrawn). */
export function pageOf(
  db: InMemoryDatabase,
  userId: UserId | null,
  ids: readonly MealId[],
  { after, limit }: PageRequest,
  asOf: Date,
): PersonalMeal[] {
  return ids
    .filter((id) => !db.withdrawn.has(id))
    .map((id) => db.meals.get(id))
    .filter((meal): meal is DetailedMeal => meal !== undefined)
    .filter((meal) => after === null || mostRecentFirst(meal, { id: after.mealId, servedAt: after.servedAt }) > 0)
    .sort(mostRecentFirst)
    .slice(0, limit)
    .map((meal) => viewOf(db, userId, meal, asOf));
}

export function viewOf(db: InMemoryDatabase, userId: UserId | null, meal: DetailedMeal, asOf: Date): PersonalMeal {
  return {
    meal: withMealDetails(meal),
    histogram: db.histograms.get(meal.id) ?? emptyHistogram,
    marked: userId !== null && (db.markings.get(userId)?.has(meal.id) ?? false),
    personalRating: userId === null ? null : (db.ratings.get(meal.id)?.get(userId) ?? null),
    dish: dishSummaryOf(db, db.mealDishes.get(meal.id)!, asOf),
  };
}

/** The dish with the figures of its servings that are not withdrawn, as of `asOf`. */
export function dishSummaryOf(db: InMemoryDatabase, dishId: DishId, asOf: Date): DishSummary {
  const dish = db.dishes.get(dishId)!;
  let timesServed = 0;
  let last: Date | null = null;
  let next: Date | null = null;
  for (const [mealId, servingOf] of db.mealDishes) {
    if (servingOf !== dishId || db.withdrawn.has(mealId)) continue;
    const { servedAt } = db.meals.get(mealId)!;
    if (servedAt <= asOf) {
      timesServed += 1;
      if (last === null || servedAt > last) last = servedAt;
    } else if (next === null || servedAt < next) {
      next = servedAt;
    }
  }
  return {
    id: dish.id,
    canteenId: dish.canteenId,
    name: dish.name,
    histogram: dish.histogram,
    timesServed,
    lastServedAt: last === null ? null : new Date(last.getTime()),
    nextServedAt: next === null ? null : new Date(next.getTime()),
  };
}

/** By serving time, then position in the day's menu, then id. */
function menuOrder(a: DetailedMeal, b: DetailedMeal): number {
  return a.servedAt.getTime() - b.servedAt.getTime() || a.position - b.position || a.id - b.id;
}

/** Negative when `a` comes first in "most recently served first" order: served later, or same instant and higher id. */
function mostRecentFirst(a: Pick<Meal, 'id' | 'servedAt'>, b: Pick<Meal, 'id' | 'servedAt'>): number {
  return b.servedAt.getTime() - a.servedAt.getTime() || b.id - a.id;
}
