import type { ErasedUserData, RatingHistogram, RatingValue, UserData, UserId } from '@canteen-meals/domain';
import type { ErasedFromMeal, UserDataRepository } from '@canteen-meals/domain/ports';
import type { Database, Statement, Transaction } from 'better-sqlite3';
import { mealColumns, mealFromRow, type MealRow } from './sqlite-meal-row.js';
import { personalPartCacheOf, type PersonalPartCache } from './personal-part-cache.js';
import type { SqliteStorageHealth } from './storage-health.js';

export class SqliteUserDataRepository implements UserDataRepository {
  private readonly markedMeals: Statement<{ user: UserId }, MealRow>;
  private readonly ratedMeals: Statement<{ user: UserId }, MealRow & { rating: RatingValue }>;
  private readonly unrateHistograms: Statement<{ user: UserId }, MealFiguresRow>;
  private readonly unrateDishHistograms: Statement<{ user: UserId }, DishFiguresRow>;
  private readonly deleteRatings: Statement<{ user: UserId }>;
  private readonly deleteMarkings: Statement<{ user: UserId }>;
  private readonly personalParts: PersonalPartCache<unknown>;
  private readonly deleteDeliveries: Statement<{ user: UserId }>;
  private readonly exportInTransaction: Transaction<(userId: UserId) => UserData>;
  private readonly eraseInTransaction: Transaction<(userId: UserId) => ErasedUserData>;

  constructor(
    db: Database,
    private readonly health?: SqliteStorageHealth,
  ) {
    this.markedMeals = db.prepare(`SELECT ${mealColumns} FROM meals
      WHERE meal_id IN (SELECT meal_id FROM markings WHERE user_id = @user) ORDER BY meal_id`);
    this.ratedMeals = db.prepare(`SELECT ${mealColumns},
        (SELECT rating FROM ratings WHERE ratings.meal_id = meals.meal_id AND ratings.user_id = @user) AS rating
      FROM meals WHERE meal_id IN (SELECT meal_id FROM ratings WHERE user_id = @user) ORDER BY meal_id`);
    // Each meal joins at most one of the user's ratings (the primary key), so each count drops by at most one.
    this.unrateHistograms = db.prepare(`UPDATE meals SET
        rated_1 = rated_1 - (mine.rating = 1), rated_2 = rated_2 - (mine.rating = 2),
        rated_3 = rated_3 - (mine.rating = 3), rated_4 = rated_4 - (mine.rating = 4),
        rated_5 = rated_5 - (mine.rating = 5)
      FROM (SELECT meal_id, rating FROM ratings WHERE user_id = @user) AS mine
      WHERE meals.meal_id = mine.meal_id
      RETURNING meals.meal_id, meals.dish_id, ${histogramColumns}`);
    // The same for the dishes, whose servings several of the user's ratings may share: counted per dish first.
    this.unrateDishHistograms = db.prepare(`UPDATE dishes SET
        rated_1 = rated_1 - mine.c1, rated_2 = rated_2 - mine.c2, rated_3 = rated_3 - mine.c3,
        rated_4 = rated_4 - mine.c4, rated_5 = rated_5 - mine.c5
      FROM (SELECT meals.dish_id, sum(rating = 1) AS c1, sum(rating = 2) AS c2, sum(rating = 3) AS c3,
          sum(rating = 4) AS c4, sum(rating = 5) AS c5
        FROM ratings JOIN meals ON meals.meal_id = ratings.meal_id WHERE ratings.user_id = @user GROUP BY meals.dish_id) AS mine
      WHERE dishes.dish_id = mine.dish_id
      RETURNING dishes.dish_id, ${histogramColumns}`);
    this.deleteRatings = db.prepare('DELETE FROM ratings WHERE user_id = @user');
    this.deleteMarkings = db.prepare('DELETE FROM markings WHERE user_id = @user');
    this.personalParts = personalPartCacheOf(db);
    // The deliveries of events about the user (favourites.upcoming), pending or in the log: personal data too.
    this.deleteDeliveries = db.prepare('DELETE FROM webhook_deliveries WHERE user_id = @user');

    // The two reads see one snapshot, so the export never shows half of a concurrent change.
    this.exportInTransaction = db.transaction((user: UserId) => ({
      markings: this.markedMeals.all({ user }).map(mealFromRow),
      ratings: this.ratedMeals.all({ user }).map((row) => ({ meal: mealFromRow(row), rating: row.rating })),
    }));
    this.eraseInTransaction = db.transaction((user: UserId) => {
      // The figures as the erasure leaves them, for the readers of the menus.
      const mealFigures = this.unrateHistograms.all({ user });
      const dishFigures = new Map(
        this.unrateDishHistograms.all({ user }).map((row) => [row.dish_id, histogramOf(row)]),
      );
      const ratings = this.deleteRatings.run({ user }).changes;
      const markings = this.deleteMarkings.run({ user }).changes;
      this.personalParts.forget(user);
      this.deleteDeliveries.run({ user });
      const meals = mealFigures
        .sort((a, b) => a.meal_id - b.meal_id)
        .map((row): ErasedFromMeal => {
          const dish = row.dish_id === null ? undefined : dishFigures.get(row.dish_id);
          return {
            mealId: row.meal_id,
            histogram: histogramOf(row),
            dish: dish === undefined ? null : { id: row.dish_id!, histogram: dish },
          };
        });
      return { markings, ratings, meals };
    });
  }

  async exportAll(userId: UserId): Promise<UserData> {
    return this.exportInTransaction(userId);
  }

  async eraseAll(userId: UserId): Promise<ErasedUserData> {
    // IMMEDIATE: no rating change of another connection can slip between the histogram update and the deletes.
    const erase = () => this.eraseInTransaction.immediate(userId);
    return this.health === undefined ? erase() : this.health.guard(erase);
  }
}

const histogramColumns = 'rated_1, rated_2, rated_3, rated_4, rated_5';

interface HistogramRow {
  rated_1: number;
  rated_2: number;
  rated_3: number;
  rated_4: number;
  rated_5: number;
}
type MealFiguresRow = HistogramRow & { meal_id: number; dish_id: number | null };
type DishFiguresRow = HistogramRow & { dish_id: number };

function histogramOf(row: HistogramRow): RatingHistogram {
  return [row.rated_1, row.rated_2, row.rated_3, row.rated_4, row.rated_5];
}
