import type { MealId, UserId } from '@canteen-meals/domain';
import type { MarkingRepository } from '@canteen-meals/domain/ports';
import type { Database, Statement } from 'better-sqlite3';
import type { GroupCommit } from './group-commit.js';
import { personalPartCacheOf, type PersonalPartCache } from './personal-part-cache.js';

export class SqliteMarkingRepository implements MarkingRepository {
  private readonly mark: Statement<[UserId, MealId]>;
  private readonly unmark: Statement<[UserId, MealId]>;
  private readonly mealExists: Statement<[MealId], 1>;
  private readonly personalParts: PersonalPartCache<unknown>;

  constructor(
    db: Database,
    private readonly writes: GroupCommit,
  ) {
    this.mark = db.prepare('INSERT INTO markings (user_id, meal_id) VALUES (?, ?) ON CONFLICT DO NOTHING');
    this.unmark = db.prepare('DELETE FROM markings WHERE user_id = ? AND meal_id = ?');
    // A withdrawn meal can be neither marked nor unmarked, as one that does not exist.
    this.mealExists = db.prepare<[MealId], 1>('SELECT 1 FROM meals WHERE meal_id = ? AND withdrawn_at IS NULL').pluck();
    this.personalParts = personalPartCacheOf(db);
  }

  setMarked(userId: UserId, mealId: MealId, marked: boolean): Promise<boolean> {
    const statement = marked ? this.mark : this.unmark;
    // The check and the write share the group's transaction: no meal can appear or vanish between them.
    return this.writes.run(() => {
      if (this.mealExists.get(mealId) === undefined) return false;
      statement.run(userId, mealId);
      this.personalParts.forget(userId);
      return true;
    });
  }
}
