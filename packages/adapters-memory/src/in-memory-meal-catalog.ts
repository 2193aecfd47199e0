import type { Meal, MealCatalog, MealId } from '@meals/domain';
import { InMemoryDatabase } from './in-memory-database.js';

export class InMemoryMealCatalog implements MealCatalog {
  constructor(private readonly db: InMemoryDatabase = new InMemoryDatabase()) {}

  async findById(id: MealId): Promise<Meal | undefined> {
    const meal = this.db.meals.get(id);
    return meal === undefined ? undefined : copyMeal(meal);
  }

  async upsertMany(meals: readonly Meal[]): Promise<number> {
    // Nothing awaits between the first and the last write, so the batch is atomic.
    for (const meal of meals) this.db.meals.set(meal.id, copyMeal(meal));
    return meals.length;
  }

  async count(): Promise<number> {
    return this.db.meals.size;
  }
}

export function copyMeal(meal: Meal): Meal {
  return { id: meal.id, name: meal.name, servedAt: new Date(meal.servedAt.getTime()), rateable: meal.rateable };
}
