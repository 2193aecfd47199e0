import type {
  LocalDate,
  Meal,
  MealId,
  MealSourceKey,
  MealSourceRepository,
  MenuImportDecision,
  MenuImportPlan,
  MenuImportScope,
} from '@canteen-meals/domain';
import type { Database, Statement, Transaction } from 'better-sqlite3';
import { mealColumns, mealFromRow, mealParams, mealPlaceholders, type MealParams, type MealRow } from './sqlite-meal-row.js';

export class SqliteMealSourceRepository implements MealSourceRepository {
  private readonly selectKnown: Statement<[string, string], MealRow & { source_key: MealSourceKey }>;
  private readonly selectNextId: Statement<[], { next: number }>;
  private readonly insertMeal: Statement<MealParams>;
  private readonly updateMeal: Statement<unknown[]>;
  private readonly insertSource: Statement<[MealSourceKey, MealId, string, LocalDate]>;
  private readonly importInTransaction: Transaction<(scope: MenuImportScope, decide: MenuImportDecision) => MenuImportPlan>;

  constructor(db: Database) {
    this.selectKnown = db.prepare(`SELECT s.source_key, ${prefixed('m', mealColumns)}
      FROM meal_sources s JOIN meals m ON m.meal_id = s.meal_id
      WHERE s.source = ? AND s.served_on IN (SELECT value FROM json_each(?))`);
    this.selectNextId = db.prepare('SELECT coalesce(max(meal_id), 0) + 1 AS next FROM meals');
    // A plain INSERT: a new meal can never replace one that exists.
    this.insertMeal = db.prepare(`INSERT INTO meals (${mealColumns}) VALUES (${mealPlaceholders})`);
    const assignments = mealColumns
      .split(', ')
      .slice(1)
      .map((column) => `${column} = ?`);
    this.updateMeal = db.prepare(`UPDATE meals SET ${assignments.join(', ')} WHERE meal_id = ?`);
    this.insertSource = db.prepare('INSERT INTO meal_sources (source_key, meal_id, source, served_on) VALUES (?, ?, ?, ?)');
    this.importInTransaction = db.transaction((scope: MenuImportScope, decide: MenuImportDecision) => {
      const known = new Map<MealSourceKey, Meal>();
      for (const row of this.selectKnown.all(scope.source, JSON.stringify(scope.days))) {
        known.set(row.source_key, mealFromRow(row));
      }
      const plan = decide({ known, nextMealId: this.selectNextId.get()?.next ?? 1 });
      for (const { key, servedOn, meal } of plan.added) {
        this.insertMeal.run(...mealParams(meal));
        this.insertSource.run(key, meal.id, scope.source, servedOn);
      }
      for (const meal of plan.updated) {
        const [id, ...fields] = mealParams(meal);
        this.updateMeal.run(...fields, id);
      }
      return plan;
    });
  }

  async importMenu(scope: MenuImportScope, decide: MenuImportDecision): Promise<MenuImportPlan> {
    // IMMEDIATE takes the write lock before reading: two imports cannot both hand out the same next id.
    return this.importInTransaction.immediate(scope, decide);
  }
}

function prefixed(table: string, columns: string): string {
  return columns
    .split(', ')
    .map((column) => `${table}.${column}`)
    .join(', ');
}
