import {
  initialAvailability,
  inServingOrder,
  withMealDetails,
  emptyHistogram,
  type DetailedMeal,
  type DishId,
  type DishSummary,
  type Meal,
  type MealId,
  type MenuPosition,
  type PersonalMeal,
  type PersonalPart,
  type PersonalState,
  type PageRequest,
  type UserId,
} from '@canteen-meals/domain';
import type { MealQueries, MenuPageRequest, ServingWindow } from '@canteen-meals/domain/ports';
import { InMemoryDatabase } from './in-memory-database.js';
import { InMemoryPreferenceRepository } from './in-memory-preference-repository.js';

export class InMemoryMealQueries implements MealQueries {
  constructor(private readonly db: InMemoryDatabase = new InMemoryDatabase()) {}

  async viewsByIds(userId: UserId | null, ids: readonly MealId[], asOf: Date): Promise<PersonalMeal[]> {
    return [...new Set(ids)].flatMap((id) => {
      const meal = this.served(id);
      return meal === undefined ? [] : [viewOf(this.db, userId, meal, asOf)];
    });
  }

  async viewsServedIn(
    reader: UserId | null,
    windows: readonly ServingWindow[],
    asOf: Date,
    page?: MenuPageRequest,
  ): Promise<PersonalMeal[]> {
    const menu = this.servedIn(windows);
    return (page === undefined ? menu : menuPageOf(menu, page)).map((meal) => viewOf(this.db, reader, meal, asOf));
  }

  async personalPartOf(userId: UserId, mealIds: readonly MealId[]): Promise<PersonalPart> {
    const states = [...new Set(mealIds)]
      .map((mealId) => ownStateOf(this.db, userId, mealId))
      .filter((state) => state.marked || state.personalRating !== null);
    return { states, preferences: await new InMemoryPreferenceRepository(this.db).preferencesOf(userId) };
  }

  async markingCounts(mealIds: readonly MealId[]): Promise<ReadonlyMap<MealId, number>> {
    const wanted = new Set(mealIds);
    const counts = new Map<MealId, number>();
    for (const marked of this.db.markings.values()) {
      for (const mealId of marked) if (wanted.has(mealId)) counts.set(mealId, (counts.get(mealId) ?? 0) + 1);
    }
    return counts;
  }

  async favouriteServingsIn(
    userId: UserId,
    windows: readonly ServingWindow[],
    asOf: Date,
    limit: number,
  ): Promise<PersonalMeal[]> {
    // A marking of any serving counts, a withdrawn one's too: the dish stays a favourite.
    const favourites = new Set(
      [...(this.db.markings.get(userId) ?? [])].map((mealId) => this.db.mealDishes.get(mealId)),
    );
    return this.servedIn(windows)
      .filter((meal) => favourites.has(this.db.mealDishes.get(meal.id)))
      .sort(inServingOrder)
      .slice(0, limit)
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

  /** The meals of the windows that are not withdrawn, each once, in menu order. */
  private servedIn(windows: readonly ServingWindow[]): DetailedMeal[] {
    return [...this.db.meals.values()]
      .filter((meal) => !this.db.withdrawn.has(meal.id))
      .filter((meal) =>
        windows.some((w) => meal.canteenId === w.canteenId && meal.servedAt >= w.from && meal.servedAt < w.until),
      )
      .sort((a, b) => menuOrder(menuPositionOf(a), menuPositionOf(b)));
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
  const { marked, personalRating } = ownStateOf(db, userId, meal.id);
  return {
    meal: withMealDetails(meal),
    histogram: db.histograms.get(meal.id) ?? emptyHistogram,
    marked,
    personalRating,
    dish: dishSummaryOf(db, db.mealDishes.get(meal.id)!, asOf),
    availability: db.availability.get(meal.id) ?? initialAvailability,
  };
}

/** The reader's own marking and rating of the meal; a null reader (anonymous) has neither. */
function ownStateOf(db: InMemoryDatabase, userId: UserId | null, mealId: MealId): PersonalState {
  return {
    mealId,
    marked: userId !== null && (db.markings.get(userId)?.has(mealId) ?? false),
    personalRating: userId === null ? null : (db.ratings.get(mealId)?.get(userId) ?? null),
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

/** The part of `menu` (in menu order) that `page` asks for: at most `limit` meals strictly after `after`. */
function menuPageOf(menu: readonly DetailedMeal[], { after, limit }: MenuPageRequest): DetailedMeal[] {
  return menu.filter((meal) => after === null || menuOrder(menuPositionOf(meal), after) > 0).slice(0, limit);
}

function menuPositionOf(meal: DetailedMeal): MenuPosition {
  return { servedAt: meal.servedAt, position: meal.position, mealId: meal.id };
}

/** Negative when `a` comes first in menu order: by serving time, then position in the day's menu, then id. */
function menuOrder(a: MenuPosition, b: MenuPosition): number {
  return a.servedAt.getTime() - b.servedAt.getTime() || a.position - b.position || a.mealId - b.mealId;
}

/** Negative when `a` comes first in "most recently served first" order: served later, or same instant and higher id. */
function mostRecentFirst(a: Pick<Meal, 'id' | 'servedAt'>, b: Pick<Meal, 'id' | 'servedAt'>): number {
  return b.servedAt.getTime() - a.servedAt.getTime() || b.id - a.id;
}
