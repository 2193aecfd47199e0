import type { MealId } from '@canteen-meals/domain';
import type { ServingWindow } from '@canteen-meals/domain/ports';
import type { Database, Statement } from 'better-sqlite3';

/**
 * How many meals each canteen day holds that are not withdrawn, leaving out the meals a write itself writes (see
 * MenuDaysCheck): one statement for all the days of a batch, each day one range of the index (canteen_id, served_at,
 * position, meal_id). Call it inside the write's IMMEDIATE transaction, which holds the write lock from its start: no
 * other connection adds a meal between the count and the write.
 */
export class SqliteHeldMeals {
  private readonly heldIn: Statement<{ windows: string; except: string }, number>;

  constructor(db: Database) {
    this.heldIn = db
      .prepare<{ windows: string; except: string }, number>(
        `SELECT (SELECT count(*) FROM meals
            WHERE canteen_id = json_extract(span.value, '$[0]')
              AND served_at >= json_extract(span.value, '$[1]') AND served_at < json_extract(span.value, '$[2]')
              AND withdrawn_at IS NULL AND meal_id NOT IN (SELECT value FROM json_each(@except)))
          FROM json_each(@windows) AS span ORDER BY span.key`,
      )
      .pluck();
  }

  /** The counts in the order of `windows`. */
  count(windows: readonly ServingWindow[], except: readonly MealId[]): number[] {
    if (windows.length === 0) return [];
    const ranges = windows.map((window) => [window.canteenId, window.from.getTime(), window.until.getTime()]);
    return this.heldIn.all({ windows: JSON.stringify(ranges), except: JSON.stringify(except) });
  }
}
