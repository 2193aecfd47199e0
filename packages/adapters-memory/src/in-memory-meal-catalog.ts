import {
  accept,
  upsertEvents,
  withdrawalEvent,
  withMealDetails,
  type AuditNote,
  type CanteenId,
  type Meal,
  type MenuUpsertOutcome,
  type WithdrawalOutcome,
  type MealId,
  type MenuDaysCheck,
  type Result,
} from '@canteen-meals/domain';
import type { MealCatalog, Withdrawal } from '@canteen-meals/domain/ports';
import { InMemoryDatabase } from './in-memory-database.js';

export class InMemoryMealCatalog implements MealCatalog {
  constructor(private readonly db: InMemoryDatabase = new InMemoryDatabase()) {}

  async upsertMany(
    meals: readonly Meal[],
    check?: MenuDaysCheck,
    at: Date = new Date(),
    audit?: AuditNote<MenuUpsertOutcome>,
  ): Promise<Result<number, 'menu_day_full'>> {
    // Copy the whole batch before the first write, so a meal that fails leaves the store untouched; nothing awaits
    // between the count, the first and the last write, so no other operation sees half a batch or fills a day between.
    const copies = meals.map(withMealDetails);
    if (check !== undefined) {
      const decision = check.decide(this.db.heldIn(check.days, new Set(copies.map((meal) => meal.id))));
      if (!decision.ok) return decision;
    }
    const existed = new Set(copies.map((meal) => meal.id).filter((id) => this.db.meals.has(id)));
    // Worked out before the first write: an unknown canteen throws with the store untouched, as a foreign key would.
    const events = upsertEvents(copies, existed, this.db.timeZonesOf(copies.map((meal) => meal.canteenId)));
    const records = audit?.({ meals: copies, existed }) ?? [];
    this.db.appendAudit(records);
    for (const meal of copies) {
      this.db.meals.set(meal.id, meal);
      this.db.withdrawn.delete(meal.id);
      this.db.assignDish(meal);
    }
    this.db.recordEvents(events, at);
    return accept(meals.length);
  }

  async withdraw(mealId: MealId, at: Date, audit?: AuditNote<WithdrawalOutcome>): Promise<Withdrawal> {
    const meal = this.db.meals.get(mealId);
    if (meal === undefined) return { found: false };
    const before = this.db.withdrawn.get(mealId);
    if (before === undefined) {
      const event = withdrawalEvent(
        meal,
        this.db.mealDishes.get(mealId) ?? null,
        this.db.timeZonesOf([meal.canteenId]),
        at,
      );
      this.db.appendAudit(audit?.({ mealId, canteenId: meal.canteenId, withdrawnAt: at }) ?? []);
      this.db.withdrawn.set(mealId, new Date(at.getTime()));
      this.db.recordEvents([event], at);
    }
    return { found: true, withdrawnAt: new Date((before ?? at).getTime()) };
  }

  async count(): Promise<number> {
    return this.db.meals.size;
  }

  async canteensOf(mealIds: readonly MealId[]): Promise<ReadonlyMap<MealId, CanteenId>> {
    const found = new Map<MealId, CanteenId>();
    for (const mealId of mealIds) {
      const meal = this.db.meals.get(mealId);
      if (meal !== undefined) found.set(mealId, meal.canteenId);
    }
    return found;
  }
}
