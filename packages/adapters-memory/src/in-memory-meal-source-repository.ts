import {
  importEvents,
  withMealDetails,
  type Meal,
  type MealSourceKey,
  type MenuImportDecision,
  type MenuImportPlan,
  type MenuImportRefusal,
  type Result,
} from '@canteen-meals/domain';
import type { MealSourceRepository, MenuImportScope } from '@canteen-meals/domain/ports';
import { InMemoryDatabase } from './in-memory-database.js';

export class InMemoryMealSourceRepository implements MealSourceRepository {
  constructor(private readonly db: InMemoryDatabase = new InMemoryDatabase()) {}

  async importMenu(
    scope: MenuImportScope,
    decide: MenuImportDecision,
  ): Promise<Result<MenuImportPlan, MenuImportRefusal>> {
    // Read, decide and write run without an await in between: no other operation sees half an import.
    const days = new Set(scope.days);
    const known = new Map<MealSourceKey, Meal>();
    for (const [key, entry] of this.db.mealSources) {
      const meal = this.db.meals.get(entry.mealId);
      if (entry.source === scope.source && days.has(entry.servedOn) && meal !== undefined) {
        known.set(key, withMealDetails(meal));
      }
    }
    let highestId = 0;
    for (const id of this.db.meals.keys()) highestId = Math.max(highestId, id);
    const knownIds = new Set([...known.values()].map((meal) => meal.id));
    const withdrawn = new Set([...knownIds].filter((id) => this.db.withdrawn.has(id)));
    const held = this.db.heldIn(scope.servedIn, knownIds);
    const decision = decide({ known, nextMealId: highestId + 1, withdrawn, held });
    if (!decision.ok) return decision;
    const plan = decision.value;

    // As a database's plain INSERT would: a new meal never replaces a meal or a key that exists.
    for (const { key, meal } of plan.added) {
      if (this.db.meals.has(meal.id)) throw new Error(`meal ${meal.id} exists already`);
      if (this.db.mealSources.has(key)) throw new Error(`source key ${key} is taken already`);
    }
    for (const meal of plan.updated) {
      if (!this.db.meals.has(meal.id)) throw new Error(`meal ${meal.id} does not exist`);
    }
    const planned = [...plan.added.map(({ meal }) => meal), ...plan.updated, ...plan.withdrawn];
    const dishOf = new Map(plan.withdrawn.map((meal) => [meal.id, this.db.mealDishes.get(meal.id) ?? null]));
    const events = importEvents(
      plan,
      scope.cause ?? 'import',
      this.db.timeZonesOf(planned.map((meal) => meal.canteenId)),
      dishOf,
    );
    const written = [...plan.added.map(({ meal }) => meal), ...plan.updated].map(withMealDetails);
    for (const meal of written) {
      this.db.meals.set(meal.id, meal);
      this.db.withdrawn.delete(meal.id);
      this.db.assignDish(meal);
    }
    for (const meal of plan.withdrawn) this.db.withdrawn.set(meal.id, new Date(plan.at.getTime()));
    for (const { key, servedOn, meal } of plan.added) {
      this.db.mealSources.set(key, { mealId: meal.id, source: scope.source, servedOn });
    }
    this.db.recordEvents(events, plan.at);
    return decision;
  }
}
