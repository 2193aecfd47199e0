import type { SqliteDatabase } from '@canteen-meals/adapters-sqlite';
import type { ErrorCode } from '@canteen-meals/adapters-http';

/**
 * A model of what the service stores, written from the contract and not from the code: the tests apply
 * a request to it only when the service answered 200, and compare it with the database afterwards.
 */

export const weekMs = 7 * 24 * 60 * 60 * 1000;
export type Rating = 1 | 2 | 3 | 4 | 5;

export type PriceRole = 'student' | 'employee' | 'pupil' | 'other';

export interface ModelMeal {
  readonly name: string;
  readonly servedAt: number;
  readonly rateable: boolean;
  readonly category: string | null;
  readonly notes: readonly string[];
  readonly prices: Readonly<Partial<Record<PriceRole, string>>>;
}

export interface Statistics {
  readonly rating_count: number;
  readonly rating_average: number | null;
  readonly rating_median: number | null;
  readonly rating_personal: Rating | null;
}

export class ServiceModel {
  readonly meals = new Map<number, ModelMeal>();
  /** `mealId/userId` -> rating */
  readonly ratings = new Map<string, Rating>();
  /** `mealId/userId` of each marking */
  readonly markings = new Set<string>();
  /** Meals withdrawn by DELETE /api/v1/admin/meals/{meal_id}: they answer meal_not_found until upserted again. */
  readonly withdrawn = new Set<number>();

  constructor(readonly now: number) {}

  /** Why rating this meal is refused now, in the order the contract lists the checks; null when it is open. */
  ratingRefusal(mealId: number): ErrorCode | null {
    const meal = this.meals.get(mealId);
    if (meal === undefined || this.withdrawn.has(mealId)) return 'meal_not_found';
    if (!meal.rateable) return 'meal_not_rateable';
    if (this.now < meal.servedAt) return 'meal_not_yet_served';
    if (this.now - meal.servedAt > weekMs) return 'rating_period_over';
    return null;
  }

  rate(userId: string, mealId: number, rating: Rating | null): Statistics {
    const key = `${mealId}/${userId}`;
    if (rating === null) this.ratings.delete(key);
    else this.ratings.set(key, rating);
    return this.statistics(userId, mealId);
  }

  statistics(userId: string, mealId: number): Statistics {
    const values = [...this.ratings.entries()]
      .filter(([key]) => key.startsWith(`${mealId}/`))
      .map(([, rating]) => rating)
      .sort((a, b) => a - b);
    const count = values.length;
    const middle = (values[Math.floor((count - 1) / 2)]! + values[Math.floor(count / 2)]!) / 2;
    return {
      rating_count: count,
      rating_average: count === 0 ? null : values.reduce((sum, value) => sum + value, 0) / count,
      rating_median: count === 0 ? null : middle,
      rating_personal: this.ratings.get(`${mealId}/${userId}`) ?? null,
    };
  }

  mark(userId: string, mealId: number, marked: boolean): void {
    if (marked) this.markings.add(`${mealId}/${userId}`);
    else this.markings.delete(`${mealId}/${userId}`);
  }

  /** Everything one user marked and rated goes; the meals' statistics follow. */
  erase(userId: string): void {
    const owner = (key: string) => key.slice(key.indexOf('/') + 1);
    for (const key of [...this.ratings.keys()]) if (owner(key) === userId) this.ratings.delete(key);
    for (const key of [...this.markings]) if (owner(key) === userId) this.markings.delete(key);
  }

  histogram(mealId: number): number[] {
    const counts = [0, 0, 0, 0, 0];
    for (const [key, rating] of this.ratings) if (key.startsWith(`${mealId}/`)) counts[rating - 1]! += 1;
    return counts;
  }
}

/** The three tables, as plain values comparable with the model. */
export function storedState(db: SqliteDatabase) {
  type MealRow = {
    meal_id: number;
    name: string;
    served_at: number;
    rateable: number;
    category: string | null;
    notes: string;
    h: string;
  } & Record<`price_${PriceRole}`, string | null>;
  const roles: readonly PriceRole[] = ['student', 'employee', 'pupil', 'other'];
  const meals = new Map(
    db
      .prepare<[], MealRow>(
        `SELECT meal_id, name, served_at, rateable, category, notes, price_student, price_employee, price_pupil, price_other,
           rated_1 || ',' || rated_2 || ',' || rated_3 || ',' || rated_4 || ',' || rated_5 AS h FROM meals`,
      )
      .all()
      .map((row) => [
        row.meal_id,
        {
          name: row.name,
          servedAt: row.served_at,
          rateable: row.rateable === 1,
          category: row.category,
          notes: JSON.parse(row.notes) as string[],
          prices: Object.fromEntries(
            roles.filter((role) => row[`price_${role}`] !== null).map((role) => [role, row[`price_${role}`]]),
          ),
          histogram: row.h,
        },
      ]),
  );
  const ratings = new Map(
    db
      .prepare<[], { meal_id: number; user_id: string; rating: Rating }>('SELECT meal_id, user_id, rating FROM ratings')
      .all()
      .map((row) => [`${row.meal_id}/${row.user_id}`, row.rating]),
  );
  const markings = new Set(
    db
      .prepare<[], { meal_id: number; user_id: string }>('SELECT meal_id, user_id FROM markings')
      .all()
      .map((row) => `${row.meal_id}/${row.user_id}`),
  );
  return { meals, ratings, markings };
}

/** The same three tables as the model holds them. */
export function modelState(model: ServiceModel) {
  return {
    meals: new Map([...model.meals].map(([id, meal]) => [id, { ...meal, histogram: model.histogram(id).join(',') }])),
    ratings: new Map(model.ratings),
    markings: new Set(model.markings),
  };
}
