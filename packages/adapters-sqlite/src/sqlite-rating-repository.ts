import {
  changesAnything,
  type DishId,
  emptyHistogram,
  type MealId,
  type RatingChange,
  type RatingHistogram,
  type RatingRefusal,
  type RatingSnapshot,
  type RatingValue,
  type Result,
  type UserId,
} from '@canteen-meals/domain';
import type { RatingDecision, RatingRepository } from '@canteen-meals/domain/ports';
import type { Database, Statement } from 'better-sqlite3';
import { personalPartCacheOf, type PersonalPartCache } from './personal-part-cache.js';
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
 * What a rating change reads: the meal's rating rules and histogram, the user's rating (null when none), and the
 * meal's dish with its histogram. A raw row, an array: better-sqlite3 builds it in two thirds of the time of an
 * object, and every rating reads one.
 */
type SnapshotRow = [
  mealId: MealId,
  name: string,
  servedAt: number,
  rateable: 0 | 1,
  ...histogram: RatingHistogram,
  rating: RatingValue | null,
  dishId: DishId,
  ...dishHistogram: RatingHistogram,
];

type HistogramParams = [number, number, number, number, number, number];

export class SqliteRatingRepository implements RatingRepository {
  private readonly selectSnapshot: Statement<[UserId, MealId], SnapshotRow>;
  private readonly upsertRating: Statement<[MealId, UserId, RatingValue]>;
  private readonly deleteRating: Statement<[MealId, UserId]>;
  private readonly personalParts: PersonalPartCache<unknown>;
  private readonly updateHistogram: Statement<HistogramParams>;
  private readonly updateDishHistogram: Statement<HistogramParams>;

  constructor(
    db: Database,
    private readonly writes: GroupCommit,
  ) {
    // One statement: the rules need no menu details, the user's rating comes along through the primary key and the
    // dish through its. A withdrawn meal reads as no meal.
    this.selectSnapshot = db
      .prepare<[UserId, MealId], SnapshotRow>(`SELECT meals.meal_id, meals.name, served_at, rateable,
        meals.rated_1, meals.rated_2, meals.rated_3, meals.rated_4, meals.rated_5, rating,
        dishes.dish_id, dishes.rated_1, dishes.rated_2, dishes.rated_3, dishes.rated_4, dishes.rated_5
        FROM meals JOIN dishes ON dishes.dish_id = meals.dish_id
        LEFT JOIN ratings ON ratings.meal_id = meals.meal_id AND ratings.user_id = ?
        WHERE meals.meal_id = ? AND meals.withdrawn_at IS NULL`)
      .raw(true);
    this.upsertRating = db.prepare(`INSERT INTO ratings (meal_id, user_id, rating) VALUES (?, ?, ?)
      ON CONFLICT (meal_id, user_id) DO UPDATE SET rating = excluded.rating`);
    this.deleteRating = db.prepare('DELETE FROM ratings WHERE meal_id = ? AND user_id = ?');
    this.personalParts = personalPartCacheOf(db);
    this.updateHistogram = db.prepare(
      'UPDATE meals SET rated_1 = ?, rated_2 = ?, rated_3 = ?, rated_4 = ?, rated_5 = ? WHERE meal_id = ?',
    );
    this.updateDishHistogram = db.prepare(
      'UPDATE dishes SET rated_1 = ?, rated_2 = ?, rated_3 = ?, rated_4 = ?, rated_5 = ? WHERE dish_id = ?',
    );
  }

  change(userId: UserId, mealId: MealId, decide: RatingDecision): Promise<Result<RatingChange, RatingRefusal>> {
    // The group's BEGIN IMMEDIATE takes the write lock before reading, so two processes cannot both read the same
    // old histogram. A refused change writes nothing. What decide throws (a bug) is handed back as a Refusal of the
    // group commit: a write that throws costs its group a rollback.
    return this.writes.run(() => this.changeNow(userId, mealId, decide));
  }

  private changeNow(
    userId: UserId,
    mealId: MealId,
    decide: RatingDecision,
  ): Result<RatingChange, RatingRefusal> | Refusal {
    const row = this.selectSnapshot.get(userId, mealId);
    let snapshot: RatingSnapshot = noMeal;
    if (row !== undefined) {
      const [
        id,
        name,
        servedAt,
        rateable,
        rated1,
        rated2,
        rated3,
        rated4,
        rated5,
        rating,
        dishId,
        dish1,
        dish2,
        dish3,
        dish4,
        dish5,
      ] = row;
      snapshot = {
        meal: { id, name, servedAt: new Date(servedAt), rateable: rateable === 1 },
        current: rating,
        histogram: [rated1, rated2, rated3, rated4, rated5],
        dish: { id: dishId, histogram: [dish1, dish2, dish3, dish4, dish5] },
      };
    }
    let decision: Result<RatingChange, RatingRefusal>;
    try {
      decision = decide(snapshot);
    } catch (reason) {
      return new Refusal(reason);
    }
    if (!decision.ok || !changesAnything(decision.value)) return decision;
    const change = decision.value;
    if (change.next === null) this.deleteRating.run(mealId, userId);
    else this.upsertRating.run(mealId, userId, change.next);
    this.personalParts.forget(userId);
    this.updateHistogram.run(...change.histogram, mealId);
    if (change.dish !== null) this.updateDishHistogram.run(...change.dish.histogram, change.dish.id);
    return decision;
  }
}

const noMeal: RatingSnapshot = { meal: undefined, current: null, histogram: emptyHistogram, dish: undefined };
