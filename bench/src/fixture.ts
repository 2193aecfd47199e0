import { createSqliteAdapters, openSqliteDatabase } from '@canteen-meals/adapters-sqlite';
import { seededRandom } from './random.js';

/** What the bench seeds into the server's database before the server starts. */
export interface BenchFixture {
  readonly userIds: readonly string[];
  /**
   * As many users again, with marks and ratings like the others' and preferences too: a label filter that leaves out
   * no dish of the menu (`without=mustard,sesame`) and an aversion of one menu dish (marked `avoided`), so that their
   * personalized menu is the same work plus applying preferences (at most 10 % of the read).
   */
  readonly pickyUserIds: readonly string[];
  /** A few open meals that every user rates and marks. */
  readonly openMealIds: readonly number[];
  /** An open meal that already holds `heavyRatings` ratings, and one that holds `lightRatings`. */
  readonly heavyMealId: number;
  readonly lightMealId: number;
  /** The day (YYYY-MM-DD) whose menu the batch read asks for, and its meals. */
  readonly menuDay: string;
  readonly menuMealIds: readonly number[];
  /** The menu's meals that can be rated (every tenth cannot): open for rating, served two days ago. */
  readonly rateableMenuMealIds: readonly number[];
}

export const heavyRatings = 100_000;
export const lightRatings = 10;
export const menuSize = 50;

const hour = 60 * 60 * 1000;

/** Seeds meals, ratings and markings straight into the SQLite file, with every histogram equal to its ratings. */
export async function seedDatabase(
  path: string,
  options: { users: number; now: Date; heavyRatings?: number },
): Promise<BenchFixture> {
  const random = seededRandom(20_240_611);
  const userIds = Array.from({ length: options.users }, (_, i) => `bench-user-${String(i + 1).padStart(5, '0')}`);
  const pickyUserIds = Array.from({ length: options.users }, (_, i) => `bench-picky-${String(i + 1).padStart(5, '0')}`);
  const openMealIds = [1, 2, 3, 4, 5];
  const heavyMealId = 100;
  const lightMealId = 101;
  const menuMealIds = Array.from({ length: menuSize }, (_, i) => 1001 + i);
  const menuMealRateable = (index: number) => index % 10 !== 9;
  // Noon UTC two days ago: the same calendar day in every European time zone, and still open for rating.
  const menuNoon = new Date(options.now.getTime() - 2 * 24 * hour);
  menuNoon.setUTCHours(12, 0, 0, 0);
  const servedAnHourAgo = new Date(options.now.getTime() - hour);

  const db = openSqliteDatabase(path);
  try {
    const meals = createSqliteAdapters(db).meals;
    await meals.upsertMany([
      ...openMealIds.map((id) => ({ id, name: `Open meal ${id}`, servedAt: servedAnHourAgo, rateable: true })),
      { id: heavyMealId, name: 'Meal with many ratings', servedAt: servedAnHourAgo, rateable: true },
      { id: lightMealId, name: 'Meal with few ratings', servedAt: servedAnHourAgo, rateable: true },
      ...menuMealIds.map((id, i) => ({
        id,
        name: `Menu dish ${i + 1} with a name as long as a real one`,
        servedAt: menuNoon,
        rateable: menuMealRateable(i),
        // Every third dish contains wheat: the filtered public menu (without=gluten) leaves those out.
        labels: i % 3 === 0 ? ['gluten', 'wheat'] : ['vegan', 'vegetarian'],
      })),
    ]);

    const insertRating = db.prepare(
      'INSERT INTO ratings (meal_id, user_id, rating) VALUES (?, ?, ?) ON CONFLICT DO NOTHING',
    );
    const insertMarking = db.prepare('INSERT INTO markings (user_id, meal_id) VALUES (?, ?) ON CONFLICT DO NOTHING');
    const value = () => 1 + Math.floor(random() * 5);
    db.transaction(() => {
      for (let i = 1; i <= (options.heavyRatings ?? heavyRatings); i++)
        insertRating.run(heavyMealId, `seed-user-${i}`, value());
      for (let i = 1; i <= lightRatings; i++) insertRating.run(lightMealId, `seed-user-${i}`, value());
      // Each user has rated and marked a few dishes of the menu, so the batch read has personal state to join.
      for (const userId of userIds) {
        for (let k = 0; k < 5; k++) {
          const mealId = menuMealIds[Math.floor(random() * menuSize)]!;
          insertRating.run(mealId, userId, value());
          insertMarking.run(userId, mealId);
        }
      }
      // After the others, so that their rows are what they were before these users came.
      const avoidedDish = db
        .prepare<[number], number>('SELECT dish_id FROM meals WHERE meal_id = ?')
        .pluck()
        .get(menuMealIds[0]!)!;
      const insertFilter = db.prepare(
        'INSERT INTO label_preferences (user_id, without_labels, only_labels) VALUES (?, \'["mustard","sesame"]\', \'[]\')',
      );
      const insertAversion = db.prepare('INSERT INTO dish_aversions (user_id, dish_id, since) VALUES (?, ?, ?)');
      for (const userId of pickyUserIds) {
        for (let k = 0; k < 5; k++) {
          const mealId = menuMealIds[Math.floor(random() * menuSize)]!;
          insertRating.run(mealId, userId, value());
          insertMarking.run(userId, mealId);
        }
        insertFilter.run(userId);
        insertAversion.run(userId, avoidedDish, options.now.getTime());
      }
      db.exec(`UPDATE meals SET rated_1 = c.c1, rated_2 = c.c2, rated_3 = c.c3, rated_4 = c.c4, rated_5 = c.c5
        FROM (${ratingCountsByMeal}) AS c WHERE c.meal_id = meals.meal_id`);
      // Each dish counts the ratings of all its servings, as the rating path keeps it.
      db.exec(`UPDATE dishes SET rated_1 = d.c1, rated_2 = d.c2, rated_3 = d.c3, rated_4 = d.c4, rated_5 = d.c5
        FROM (SELECT dish_id, sum(rated_1) AS c1, sum(rated_2) AS c2, sum(rated_3) AS c3, sum(rated_4) AS c4,
              sum(rated_5) AS c5 FROM meals GROUP BY dish_id) AS d WHERE d.dish_id = dishes.dish_id`);
    })();
    db.pragma('wal_checkpoint(TRUNCATE)');
  } finally {
    db.close();
  }
  return {
    userIds,
    pickyUserIds,
    openMealIds,
    heavyMealId,
    lightMealId,
    menuDay: menuNoon.toISOString().slice(0, 10),
    menuMealIds,
    rateableMenuMealIds: menuMealIds.filter((_, i) => menuMealRateable(i)),
  };
}

/**
 * Each rated meal's counts of the five values (c1 … c5), in one pass over the ratings (keyed by user, not by meal):
 * what the fixture writes into the histograms, and what the check after a run compares them with.
 */
const ratingCountsByMeal = `SELECT meal_id, sum(rating = 1) AS c1, sum(rating = 2) AS c2, sum(rating = 3) AS c3,
  sum(rating = 4) AS c4, sum(rating = 5) AS c5 FROM ratings GROUP BY meal_id`;

/** Meals whose stored histogram differs from the counts of their ratings rows: after a correct run, none. */
export function mealsWithDriftedHistograms(path: string): number[] {
  const db = openSqliteDatabase(path);
  try {
    return db
      .prepare<[], { meal_id: number }>(
        `SELECT m.meal_id FROM meals m LEFT JOIN (${ratingCountsByMeal}) r ON r.meal_id = m.meal_id
         WHERE m.rated_1 != coalesce(r.c1, 0) OR m.rated_2 != coalesce(r.c2, 0) OR m.rated_3 != coalesce(r.c3, 0)
            OR m.rated_4 != coalesce(r.c4, 0) OR m.rated_5 != coalesce(r.c5, 0)`,
      )
      .all()
      .map((row) => row.meal_id);
  } finally {
    db.close();
  }
}
