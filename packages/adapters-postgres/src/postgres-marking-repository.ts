import type { MarkingRepository, MealId, UserId } from '@meals/domain';
import type { Pool } from 'pg';

export class PostgresMarkingRepository implements MarkingRepository {
  constructor(private readonly pool: Pool) {}

  async setMarked(userId: UserId, mealId: MealId, marked: boolean): Promise<void> {
    await this.pool.query(
      marked
        ? 'INSERT INTO markings (user_id, meal_id) VALUES ($1, $2) ON CONFLICT DO NOTHING'
        : 'DELETE FROM markings WHERE user_id = $1 AND meal_id = $2',
      [userId, mealId],
    );
  }

  async isMarked(userId: UserId, mealId: MealId): Promise<boolean> {
    const { rowCount } = await this.pool.query('SELECT 1 FROM markings WHERE user_id = $1 AND meal_id = $2', [
      userId,
      mealId,
    ]);
    return (rowCount ?? 0) > 0;
  }
}
