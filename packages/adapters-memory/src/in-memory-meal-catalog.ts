import { withMealDetails, type DetailedMeal, type Meal, type MealCatalog, type MealId } from '@canteen-meals/domain';
import { InMemoryDatabase } from './in-memory-database.js';

export class InMemoryMealCatalog implements MealCatalog {
  constructor(private readonly db: InMemoryDatabase = new InMemoryDatabase()) {}

  async findById(id: MealId): Promise<DetailedMeal | undefined> {
    const meal = this.db.meals.get(id);
    return meal === undefined ? undefined : withMealDetails(meal);
  }

  async upsertMany(meals: readonly Meal[]): Promise<number> {
    // Copy the whole batch before the first write, so a meal that fails leaves the store untouched; nothing awaits
    // between the first and the last write, so no other operation sees half a batch.
    const copies = meals.map(withMealDetails);
    for (const meal of copies) this.db.meals.set(meal.id, meal);
    return meals.length;
  }

  async count(): Promise<number> {
    return this.db.meals.size;
  }
}
