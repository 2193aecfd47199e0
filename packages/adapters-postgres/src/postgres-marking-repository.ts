import type { MarkingRepository, MealId, UserId } from '@canteen-meals/domain';
import type { Pool } from 'pg';
import type { PostgresStorageHealth } from './storage-health.js';

// A withdrawn meal is no meal to mark (or unmark).
const markExisting = `WITH meal AS (SELECT meal_id FROM meals WHERE meal_id = $2 AND withdrawn_at IS NULL),
  marking AS (INSERT INTO markings (user_id, meal_id) SELECT $1, meal_id FROM meal ON CONFLICT DO NOTHING)
  SELECT EXISTS (SELECT 1 FROM meal) AS found`;
const unmarkExisting = `WITH meal AS (SELECT meal_id FROM meals WHERE meal_id = $2 AND withdrawn_at IS NULL),
  marking AS (DELETE FROM markings WHERE user_id = $1 AND meal_id IN (SELECT meal_id FROM meal))
  SELECT EXISTS (SELECT 1 FROM meal) AS found`;

export class PostgresMarkingRepository implements MarkingRepository {
  constructor(
    private readonly pool: Pool,
    private readonly health?: PostgresStorageHealth,
  ) {}

  async setMarked(userId: UserId, mealId: MealId, marked: boolean): Promise<boolean> {
    // One round trip: the write only reaches an existing meal, and the answer says whether there was one.
    const statement = marked ? markExisting : unmarkExisting;
    const write = () => this.pool.query<{ found: boolean }>(statement, [userId, mealId]);
    const { rows } = await (this.health === undefined ? write() : this.health.guard(write));
    return rows[0]?.found ?? false;
  }
}
