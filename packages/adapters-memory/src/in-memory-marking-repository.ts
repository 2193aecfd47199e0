import type { MealId, UserId } from '@canteen-meals/domain';
import type { MarkingRepository } from '@canteen-meals/domain/ports';
import { InMemoryDatabase } from './in-memory-database.js';

export class InMemoryMarkingRepository implements MarkingRepository {
  constructor(private readonly db: InMemoryDatabase = new InMemoryDatabase()) {}

  async setMarked(userId: UserId, mealId: MealId, marked: boolean): Promise<boolean> {
    if (!this.db.meals.has(mealId) || this.db.withdrawn.has(mealId)) return false;
    let marks = this.db.markings.get(userId);
    if (marked) {
      if (marks === undefined) this.db.markings.set(userId, (marks = new Set()));
      marks.add(mealId);
    } else {
      marks?.delete(mealId);
    }
    return true;
  }
}
