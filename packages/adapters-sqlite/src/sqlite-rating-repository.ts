import {
  changesAnything,
  emptyHistogram,
  type MealId,
  type RatingChange,
  type RatingDecision,
  type RatingHistogram,
  type RatingSnapshot,
  type RatingRepository,
  type RatingValue,
  type UserId,
} from '@canteen-meals/domain';
import type { Database, Statement } from 'better-sqlite3';
import { Refusal, type GroupCommit } from './group-commit.js';

export interface HistogramRow {
  rated_1: number;
  rated_2: number;
  rated_3: number;
  rated_4: number;
  rated_5: number;
}

export const histogramColumns = 'rated_1, rated_2, rated_3, rated_4, rated_5';

export function histogramFromRow(row: HistogramRow): RatingHistogram {
  return [row.rated_1, row.rated_2, row.rated_3, row.rated_4, row.rated_5];
}

/**
 * What a rating change reads: the meal's rating rules and histogram, and the user's rating (null when none). A raw
 * row, an array: better-sqlite3 builds it in two thirds of the time of an object, and every rating reads one.
 */
type SnapshotRow = [
  mealId: MealId,
  name: string,
  servedAt: number,
  rateable: 0 | 1,
  ...histogram: RatingHistogram,
  rating: RatingValue | null,
];

export class SqliteRatingRepository implements RatingRepository {
  private readonly selectSnapshot: Statement<[UserId, MealId], SnapshotRow>;
  private readonly selectRating: Statement<[MealId, UserId], { rating: RatingValue }>;
  private readonly selectHistogram: Statement<[MealId], HistogramRow>;
  private readonly upsertRating: Statement<[MealId, UserId, RatingValue]>;
  private readonly deleteRating: Statement<[MealId, UserId]>;
  private readonly updateHistogram: Statement<[number, number, number, number, number, MealId]>;

  constructor(
    db: Database,
    private readonly writes: GroupCommit,
  ) {
    // One statement: the rules need no menu details, and the user's rating comes along through the primary key.
    this.selectSnapshot = db
      .prepare<[UserId, MealId], SnapshotRow>(`SELECT meals.meal_id, name, served_at, rateable, ${histogramColumns},
        rating FROM meals LEFT JOIN ratings ON ratings.meal_id = meals.meal_id AND ratings.user_id = ?
        WHERE meals.meal_id = ?`)
      .raw(true);
    this.selectRating = db.prepare('SELECT rating FROM ratings WHERE meal_id = ? AND user_id = ?');
    this.selectHistogram = db.prepare(`SELECT ${histogramColumns} FROM meals WHERE meal_id = ?`);
    this.upsertRating = db.prepare(`INSERT INTO ratings (meal_id, user_id, rating) VALUES (?, ?, ?)
      ON CONFLICT (meal_id, user_id) DO UPDATE SET rating = excluded.rating`);
    this.deleteRating = db.prepare('DELETE FROM ratings WHERE meal_id = ? AND user_id = ?');
    this.updateHistogram = db.prepare(
      'UPDATE meals SET rated_1 = ?, rated_2 = ?, rated_3 = ?, rated_4 = ?, rated_5 = ? WHERE meal_id = ?',
    );
  }

  change(userId: UserId, mealId: MealId, decide: RatingDecision): Promise<RatingChange> {
    // The group's BEGIN IMMEDIATE takes the write lock before reading, so two processes cannot both read the same
    // old histogram. What decide throws is handed back as a Refusal: a write that throws costs its group a rollback.
    return this.writes.run(() => this.changeNow(userId, mealId, decide));
  }

  private changeNow(userId: UserId, mealId: MealId, decide: RatingDecision): RatingChange | Refusal {
    const row = this.selectSnapshot.get(userId, mealId);
    let snapshot: RatingSnapshot = { meal: undefined, current: null, histogram: emptyHistogram };
    if (row !== undefined) {
      const [id, name, servedAt, rateable, rated1, rated2, rated3, rated4, rated5, rating] = row;
      snapshot = {
        meal: { id, name, servedAt: new Date(servedAt), rateable: rateable === 1 },
        current: rating,
        histogram: [rated1, rated2, rated3, rated4, rated5],
      };
    }
    let change: RatingChange;
    try {
      change = decide(snapshot);
    } catch (reason) {
      return new Refusal(reason);
    }
    if (!changesAnything(change)) return change;
    if (change.next === null) this.deleteRating.run(mealId, userId);
    else this.upsertRating.run(mealId, userId, change.next);
    this.updateHistogram.run(...change.histogram, mealId);
    return change;
  }

  async findRating(userId: UserId, mealId: MealId): Promise<RatingValue | null> {
    return this.selectRating.get(mealId, userId)?.rating ?? null;
  }

  async histogram(mealId: MealId): Promise<RatingHistogram> {
    const row = this.selectHistogram.get(mealId);
    return row === undefined ? emptyHistogram : histogramFromRow(row);
  }
}

