import type { MarkingRepository, MealId, UserId } from '@meals/domain';
import { InMemoryDatabase } from './in-memory-database.js';

export class InMemoryMarkingRepository implements MarkingRepository {
  constructor(private readonly db: InMemoryDatabase = new InMemoryDatabase()) {}

  async setMarked(userId: UserId, mealId: MealId, marked: boolean): Promise<void> {
    let marks = this.db.markings.get(userId);
    if (marked) {
      // As a foreign key would: only an existing meal can be marked; unmarking a missing one changes nothing.
      if (!this.db.meals.has(mealId)) throw new Error(`meal ${mealId} does not exist`);
      if (marks === undefined) this.db.markings.set(userId, (marks = new Set()));
      marks.add(mealId);
    } else {
      marks?.delete(mealId);
    }
  }

  async isMarked(userId: UserId, mealId: MealId): Promise<boolean> {
    return this.db.markings.get(userId)?.has(mealId) ?? false;
  }
}
