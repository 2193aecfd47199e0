import type { AuditActor } from '../audit/audit-entry.js';
import { withdrawalAudit } from '../audit/audit-notes.js';
import type { MealCatalog } from '../meal/meal-catalog.js';
import type { MealId } from '../meal/meal.js';
import type { Clock } from '../shared/clock.js';
import { nobodyListens, type AnnounceMenuChange } from '../reading/menu-change.js';
import { accept, refuse, type Result } from '../shared/refusal.js';

export const withdrawMealRefusals = ['meal_not_found'] as const;

/** A menu correction (admin): the meal leaves the menus; its markings and ratings stay. Idempotent. */
export class WithdrawMeal {
  constructor(
    private readonly deps: {
      readonly meals: MealCatalog;
      readonly clock: Clock;
      readonly announce?: AnnounceMenuChange;
    },
  ) {}

  async execute({
    mealId,
    by,
  }: {
    readonly mealId: MealId;
    /** Who withdraws it, recorded in the audit trail in the withdrawal's own unit of work. */
    readonly by?: AuditActor | undefined;
  }): Promise<Result<{ readonly withdrawnAt: Date }, 'meal_not_found'>> {
    const withdrawal = await this.deps.meals.withdraw(
      mealId,
      this.deps.clock.now(),
      by === undefined ? undefined : withdrawalAudit(by),
    );
    if (withdrawal.found) (this.deps.announce ?? nobodyListens)({ kind: 'menus' });
    return withdrawal.found ? accept({ withdrawnAt: withdrawal.withdrawnAt }) : refuse('meal_not_found');
  }
}
