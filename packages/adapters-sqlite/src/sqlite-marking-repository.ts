import type { MarkingRepository, MealId, UserId } from '@meals/domain';
import type { Database, Statement } from 'better-sqlite3';
import type { GroupCommit } from './group-commit.js';

export class SqliteMarkingRepository implements MarkingRepository {
  private readonly mark: Statement<[UserId, MealId]>;
  private readonly unmark: Statement<[UserId, MealId]>;
  private readonly select: Statement<[UserId, MealId], { marked: 1 }>;

  constructor(
    db: Database,
    private readonly writes: GroupCommit,
  ) {
    this.mark = db.prepare('INSERT INTO markings (user_id, meal_id) VALUES (?, ?) ON CONFLICT DO NOTHING');
    this.unmark = db.prepare('DELETE FROM markings WHERE user_id = ? AND meal_id = ?');
    this.select = db.prepare('SELECT 1 AS marked FROM markings WHERE user_id = ? AND meal_id = ?');
  }

  async setMarked(userId: UserId, mealId: MealId, marked: boolean): Promise<void> {
    const statement = marked ? this.mark : this.unmark;
    await this.writes.run(() => statement.run(userId, mealId));
  }

  async isMarked(userId: UserId, mealId: MealId): Promise<boolean> {
    return this.select.get(userId, mealId) !== undefined;
  }
}
