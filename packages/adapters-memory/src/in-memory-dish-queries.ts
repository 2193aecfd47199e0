import {
  dishSearchKey,
  histogramOf,
  type CanteenId,
  type DishId,
  type DishSummary,
  type LabelFilter,
  isNoLabelFilter,
  passesLabelFilter,
  type PageRequest,
  type PersonalMeal,
  type RatingValue,
  type UserId,
} from '@canteen-meals/domain';
import type { DishQueries, DishSearchPage, DishView } from '@canteen-meals/domain/ports';
import { InMemoryDatabase } from './in-memory-database.js';
import { dishSummaryOf, pageOf } from './in-memory-meal-queries.js';

export class InMemoryDishQueries implements DishQueries {
  constructor(private readonly db: InMemoryDatabase = new InMemoryDatabase()) {}

  async dish(dishId: DishId, reader: UserId | null, asOf: Date): Promise<DishView | undefined> {
    if (!this.db.dishes.has(dishId)) return undefined;
    const names = [...this.db.dishNames.values()]
      .filter((name) => name.dishId === dishId)
      .map((name) => name.name)
      .sort();
    return {
      dish: dishSummaryOf(this.db, dishId, asOf),
      names,
      personal: reader === null ? null : this.personal(dishId, reader),
    };
  }

  async servings(dishId: DishId, reader: UserId | null, page: PageRequest, asOf: Date): Promise<PersonalMeal[]> {
    return pageOf(this.db, reader, this.servingIds(dishId), page, asOf);
  }

  async search(
    canteenId: CanteenId | null,
    text: string,
    { after, limit }: DishSearchPage,
    asOf: Date,
    filter?: LabelFilter,
  ): Promise<DishSummary[]> {
    const wanted = dishSearchKey(text);
    const found = new Set<DishId>();
    for (const name of this.db.dishNames.values()) {
      const dish = this.db.dishes.get(name.dishId)!;
      if ((canteenId === null || dish.canteenId === canteenId) && dishSearchKey(name.name).includes(wanted))
        found.add(dish.id);
    }
    // The dishes of which a serving that is not withdrawn passes the filter.
    const passing = new Set<DishId>();
    if (filter !== undefined && !isNoLabelFilter(filter)) {
      for (const [mealId, dishId] of this.db.mealDishes) {
        if (!this.db.withdrawn.has(mealId) && passesLabelFilter(this.db.meals.get(mealId)?.labels ?? [], filter))
          passing.add(dishId);
      }
    }
    return [...found]
      .filter((id) => filter === undefined || isNoLabelFilter(filter) || passing.has(id))
      .filter((id) => after === null || id > after)
      .sort((a, b) => a - b)
      .slice(0, limit)
      .map((id) => dishSummaryOf(this.db, id, asOf));
  }

  async ofCanteen(canteenId: CanteenId, asOf: Date): Promise<DishSummary[]> {
    const served = new Set<DishId>();
    for (const [mealId, dishId] of this.db.mealDishes) if (!this.db.withdrawn.has(mealId)) served.add(dishId);
    return [...this.db.dishes.values()]
      .filter((dish) => dish.canteenId === canteenId && served.has(dish.id))
      .sort((a, b) => a.id - b.id)
      .map((dish) => dishSummaryOf(this.db, dish.id, asOf));
  }

  async markingCounts(dishIds: readonly DishId[]): Promise<ReadonlyMap<DishId, number>> {
    const wanted = new Set(dishIds);
    const counts = new Map<DishId, number>();
    for (const marked of this.db.markings.values()) {
      // A user counts once per dish, however many of its servings they marked.
      const dishes = new Set<DishId>();
      for (const mealId of marked) {
        const dishId = this.db.mealDishes.get(mealId);
        if (dishId !== undefined && wanted.has(dishId)) dishes.add(dishId);
      }
      for (const dishId of dishes) counts.set(dishId, (counts.get(dishId) ?? 0) + 1);
    }
    return counts;
  }

  private servingIds(dishId: DishId) {
    return [...this.db.mealDishes].filter(([, servingOf]) => servingOf === dishId).map(([mealId]) => mealId);
  }

  /**
   * The reader's ratings of every serving (withdrawn ones too, as the dish's statistics count them), and any marking.
   */
  private personal(dishId: DishId, reader: UserId) {
    const servings = this.servingIds(dishId);
    const ratings = servings.flatMap((mealId) => this.db.ratings.get(mealId)?.get(reader) ?? []) as RatingValue[];
    const marks = this.db.markings.get(reader);
    return { marked: servings.some((mealId) => marks?.has(mealId) ?? false), histogram: histogramOf(ratings) };
  }
}
