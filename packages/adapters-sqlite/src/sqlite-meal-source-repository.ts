import {
  importEvents,
  type DishId,
  type LocalDate,
  type Meal,
  type MealId,
  type MealSourceKey,
  type MenuImportDecision,
  type MenuImportPlan,
  type MenuImportRefusal,
  type Result,
} from '@canteen-meals/domain';
import type { MealSourceRepository, MenuImportScope } from '@canteen-meals/domain/ports';
import type { Database, Statement, Transaction } from 'better-sqlite3';
import { SqliteDishAssignment } from './sqlite-dish-assignment.js';
import { SqliteHeldMeals } from './sqlite-held-meals.js';
import { SqliteOutboxRecorder } from './sqlite-outbox-recorder.js';
import {
  mealColumns,
  mealFromRow,
  mealParams,
  mealPlaceholders,
  type MealParams,
  type MealRow,
} from './sqlite-meal-row.js';

export class SqliteMealSourceRepository implements MealSourceRepository {
  private readonly selectKnown: Statement<
    [string, string],
    MealRow & { source_key: MealSourceKey; withdrawn_at: number | null }
  >;
  private readonly selectNextId: Statement<[], { next: number }>;
  private readonly insertMeal: Statement<[...MealParams, number]>;
  private readonly updateMeal: Statement<unknown[]>;
  private readonly withdrawMeal: Statement<[number, MealId], DishId | null>;
  private readonly insertSource: Statement<[MealSourceKey, MealId, string, LocalDate]>;
  private readonly importInTransaction: Transaction<
    (scope: MenuImportScope, decide: MenuImportDecision) => Result<MenuImportPlan, MenuImportRefusal>
  >;

  constructor(db: Database) {
    const dishes = new SqliteDishAssignment(db);
    const held = new SqliteHeldMeals(db);
    this.selectKnown = db.prepare(`SELECT s.source_key, ${prefixed('m', mealColumns)}, m.withdrawn_at
      FROM meal_sources s JOIN meals m ON m.meal_id = s.meal_id
      WHERE s.source = ? AND s.served_on IN (SELECT value FROM json_each(?))`);
    this.selectNextId = db.prepare('SELECT coalesce(max(meal_id), 0) + 1 AS next FROM meals');
    // A plain INSERT: a new meal can never replace one that exists.
    this.insertMeal = db.prepare(`INSERT INTO meals (${mealColumns}, dish_id) VALUES (${mealPlaceholders}, ?)`);
    const assignments = mealColumns
      .split(', ')
      .slice(1)
      .map((column) => `${column} = ?`);
    // An updated meal is listed by its feed again: it is served, whatever was withdrawn before.
    this.updateMeal = db.prepare(
      `UPDATE meals SET ${assignments.join(', ')}, dish_id = ?, withdrawn_at = NULL WHERE meal_id = ?`,
    );
    this.withdrawMeal = db
      .prepare<[number, MealId], DishId | null>(
        'UPDATE meals SET withdrawn_at = ? WHERE meal_id = ? AND withdrawn_at IS NULL RETURNING dish_id',
      )
      .pluck();
    const outbox = new SqliteOutboxRecorder(db);
    this.insertSource = db.prepare(
      'INSERT INTO meal_sources (source_key, meal_id, source, served_on) VALUES (?, ?, ?, ?)',
    );
    this.importInTransaction = db.transaction((scope: MenuImportScope, decide: MenuImportDecision) => {
      const known = new Map<MealSourceKey, Meal>();
      const withdrawn = new Set<MealId>();
      for (const row of this.selectKnown.all(scope.source, JSON.stringify(scope.days))) {
        known.set(row.source_key, mealFromRow(row));
        if (row.withdrawn_at !== null) withdrawn.add(row.meal_id);
      }
      const others = held.count(
        scope.servedIn,
        [...known.values()].map((meal) => meal.id),
      );
      const decision = decide({ known, nextMealId: this.selectNextId.get()?.next ?? 1, withdrawn, held: others });
      if (!decision.ok) return decision;
      const plan = decision.value;
      for (const { key, servedOn, meal } of plan.added) {
        this.insertMeal.run(...mealParams(meal), dishes.assign(meal));
        this.insertSource.run(key, meal.id, scope.source, servedOn);
      }
      for (const meal of plan.updated) {
        const [id, ...fields] = mealParams(meal);
        this.updateMeal.run(...fields, dishes.assign(meal), id);
      }
      const dishOf = new Map(
        plan.withdrawn.map((meal) => [meal.id, this.withdrawMeal.get(plan.at.getTime(), meal.id) ?? null]),
      );
      const placed = [...plan.added.map(({ meal }) => meal), ...plan.updated, ...plan.withdrawn];
      outbox.record(
        importEvents(plan, scope.cause ?? 'import', outbox.timeZonesOf(placed.map((meal) => meal.canteenId)), dishOf),
        plan.at,
      );
      return decision;
    });
  }

  async importMenu(
    scope: MenuImportScope,
    decide: MenuImportDecision,
  ): Promise<Result<MenuImportPlan, MenuImportRefusal>> {
    // IMMEDIATE takes the write lock before reading: two imports cannot both hand out the same next id, nor two
    // writers both count a day before the other has added to it.
    return this.importInTransaction.immediate(scope, decide);
  }
}

function prefixed(table: string, columns: string): string {
  return columns
    .split(', ')
    .map((column) => `${table}.${column}`)
    .join(', ');
}
