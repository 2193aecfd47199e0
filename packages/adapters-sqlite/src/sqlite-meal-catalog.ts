import {
  accept,
  defaultCanteenId,
  upsertEvents,
  withdrawalEvent,
  type AuditNote,
  type CanteenId,
  type DishId,
  type Meal,
  type MealId,
  type MenuDaysCheck,
  type MenuUpsertOutcome,
  type Result,
  type WithdrawalOutcome,
} from '@canteen-meals/domain';
import type { MealCatalog, Withdrawal } from '@canteen-meals/domain/ports';
import type { Database, Statement, Transaction } from 'better-sqlite3';
import { SqliteAuditWriter } from './sqlite-audit-log.js';
import { SqliteDishAssignment } from './sqlite-dish-assignment.js';
import { SqliteHeldMeals } from './sqlite-held-meals.js';
import { SqliteOutboxRecorder } from './sqlite-outbox-recorder.js';
import {
  mealColumns,
  mealParams,
  mealPlaceholders,
  mealUpdateFromExcluded,
  type MealParams,
} from './sqlite-meal-row.js';

import type { SqliteStorageHealth } from './storage-health.js';

export { mealColumns, mealFromRow, type MealRow } from './sqlite-meal-row.js';

export class SqliteMealCatalog implements MealCatalog {
  private readonly upsert: Statement<[...MealParams, number]>;
  private readonly countAll: Statement<[], { n: number }>;
  private readonly existingIds: Statement<[string], MealId>;
  private readonly withdrawFirst: Statement<
    [number, MealId],
    { served_at: number; canteen_id: CanteenId; dish_id: DishId | null }
  >;
  private readonly withdrawnAt: Statement<[MealId], number | null>;
  private readonly canteenOfMeals: Statement<[string], { meal_id: MealId; canteen_id: CanteenId }>;
  private readonly upsertAll: Transaction<
    (
      meals: readonly Meal[],
      check: MenuDaysCheck | undefined,
      at: Date,
      audit: AuditNote<MenuUpsertOutcome> | undefined,
    ) => Result<number, 'menu_day_full'>
  >;
  private readonly withdrawOnce: Transaction<
    (mealId: MealId, at: Date, audit: AuditNote<WithdrawalOutcome> | undefined) => Withdrawal
  >;

  constructor(
    db: Database,
    private readonly health?: SqliteStorageHealth,
  ) {
    const dishes = new SqliteDishAssignment(db);
    const held = new SqliteHeldMeals(db);
    // The histogram columns are left alone: an updated meal keeps its ratings. A written meal is served again.
    this.upsert = db.prepare(`INSERT INTO meals (${mealColumns}, dish_id) VALUES (${mealPlaceholders}, ?)
      ON CONFLICT (meal_id) DO UPDATE SET ${mealUpdateFromExcluded}, dish_id = excluded.dish_id, withdrawn_at = NULL`);
    this.countAll = db.prepare('SELECT count(*) AS n FROM meals');
    this.canteenOfMeals = db.prepare(
      'SELECT meal_id, canteen_id FROM meals WHERE meal_id IN (SELECT value FROM json_each(?))',
    );
    const outbox = new SqliteOutboxRecorder(db);
    const auditLog = new SqliteAuditWriter(db);
    this.existingIds = db
      .prepare<[string], MealId>('SELECT meal_id FROM meals WHERE meal_id IN (SELECT value FROM json_each(?))')
      .pluck();
    // Only a meal not withdrawn yet: withdrawing again keeps the first instant and records nothing.
    this.withdrawFirst = db.prepare(
      'UPDATE meals SET withdrawn_at = ? WHERE meal_id = ? AND withdrawn_at IS NULL RETURNING served_at, canteen_id, dish_id',
    );
    this.withdrawnAt = db.prepare<[MealId], number | null>('SELECT withdrawn_at FROM meals WHERE meal_id = ?').pluck();
    this.upsertAll = db.transaction(
      (
        meals: readonly Meal[],
        check: MenuDaysCheck | undefined,
        at: Date,
        audit: AuditNote<MenuUpsertOutcome> | undefined,
      ) => {
        if (check !== undefined) {
          const decision = check.decide(
            held.count(
              check.days,
              meals.map((meal) => meal.id),
            ),
          );
          if (!decision.ok) return decision;
        }
        const existed = new Set(this.existingIds.all(JSON.stringify(meals.map((meal) => meal.id))));
        for (const meal of meals) this.upsert.run(...mealParams(meal), dishes.assign(meal));
        // After the writes, whose foreign keys name a missing canteen first; a throw here still rolls them back.
        outbox.record(
          upsertEvents(meals, existed, outbox.timeZonesOf(meals.map((meal) => meal.canteenId ?? defaultCanteenId))),
          at,
        );
        if (audit !== undefined) {
          const placed = meals.map((meal) => ({ id: meal.id, canteenId: meal.canteenId ?? defaultCanteenId }));
          auditLog.append(audit({ meals: placed, existed }));
        }
        return accept(meals.length);
      },
    );
    this.withdrawOnce = db.transaction(
      (mealId: MealId, at: Date, audit: AuditNote<WithdrawalOutcome> | undefined): Withdrawal => {
        const first = this.withdrawFirst.get(at.getTime(), mealId);
        if (first === undefined) {
          const before = this.withdrawnAt.get(mealId);
          return before === undefined || before === null
            ? { found: false }
            : { found: true, withdrawnAt: new Date(before) };
        }
        const meal = { id: mealId, servedAt: new Date(first.served_at), canteenId: first.canteen_id };
        outbox.record([withdrawalEvent(meal, first.dish_id, outbox.timeZonesOf([first.canteen_id]), at)], at);
        if (audit !== undefined) auditLog.append(audit({ mealId, canteenId: first.canteen_id, withdrawnAt: at }));
        return { found: true, withdrawnAt: new Date(at.getTime()) };
      },
    );
  }

  async upsertMany(
    meals: readonly Meal[],
    check?: MenuDaysCheck,
    at: Date = new Date(),
    audit?: AuditNote<MenuUpsertOutcome>,
  ): Promise<Result<number, 'menu_day_full'>> {
    // One transaction for the batch: the dish assignments and histogram moves land with the meals, or nothing does.
    // IMMEDIATE, as it reads the dishes and counts the days before it writes: no other connection can create the same
    // dish or add meals to those days in between.
    const upsert = () => this.upsertAll.immediate(meals, check, at, audit);
    return this.health === undefined ? upsert() : this.health.guard(upsert);
  }

  async count(): Promise<number> {
    return this.countAll.get()?.n ?? 0;
  }

  async canteensOf(mealIds: readonly MealId[]): Promise<ReadonlyMap<MealId, CanteenId>> {
    if (mealIds.length === 0) return new Map();
    const rows = this.canteenOfMeals.all(JSON.stringify([...new Set(mealIds)]));
    return new Map(rows.map((row) => [row.meal_id, row.canteen_id]));
  }

  async withdraw(mealId: MealId, at: Date, audit?: AuditNote<WithdrawalOutcome>): Promise<Withdrawal> {
    const withdraw = () => this.withdrawOnce.immediate(mealId, at, audit);
    return this.health === undefined ? withdraw() : this.health.guard(withdraw);
  }
}
