import { nobodyListens, type AnnounceMenuChange } from '../reading/menu-change.js';
import type { CanteenRepository } from '../canteen/canteen-repository.js';
import type { AuditActor } from '../audit/audit-entry.js';
import { menuUpsertAudit } from '../audit/audit-notes.js';
import type { MealCatalog } from '../meal/meal-catalog.js';
import { defaultCanteenId, type CanteenId } from '../canteen/canteen.js';
import type { Meal } from '../meal/meal.js';
import type { Clock } from '../shared/clock.js';
import { validateMeals } from '../meal/meal-validation.js';
import { canteenDaysOf, decideMenuDays } from '../menu/menu-day-bound.js';
import { mapResult, refuse, type Result } from '../shared/refusal.js';
import { MealLabelling } from '../label/meal-labelling.js';

/** Every refusal UpsertMeals can answer. */
export const upsertMealsRefusals = ['invalid_meal', 'canteen_not_found', 'menu_day_full'] as const;

type UpsertMealsRefusal = (typeof upsertMealsRefusals)[number];

/**
 * Admin import: every meal or none. An existing meal keeps its ratings and markings. A meal that names no canteen
 * goes to `default`; one without a position takes its place in the batch. A batch after which a day of a canteen
 * would serve more than `maxMealsPerCanteenDay` meals is refused; the day is counted in the catalog's transaction,
 * so two batches at once cannot both fill it.
 */
export class UpsertMeals {
  constructor(
    private readonly deps: {
      readonly meals: MealCatalog;
      readonly canteens: CanteenRepository;
      /** The instant of the write's `menu.published` events (absent: the catalog's). */
      readonly clock?: Clock;
      readonly announce?: AnnounceMenuChange;
    },
  ) {}

  /** `by`: who upserts, recorded in the audit trail in the write's own unit of work. */
  async execute(
    meals: readonly Meal[],
    by?: AuditActor,
  ): Promise<Result<{ readonly upserted: number }, UpsertMealsRefusal>> {
    const valid = validateMeals(meals);
    if (!valid.ok) return valid;
    const placed = meals.map((meal, index) => ({
      ...meal,
      canteenId: meal.canteenId ?? defaultCanteenId,
      position: meal.position ?? index,
    }));
    const timeZones = new Map<CanteenId, string>();
    const labelling = new Map<CanteenId, MealLabelling>();
    for (const canteenId of new Set(placed.map((meal) => meal.canteenId))) {
      const canteen = await this.deps.canteens.find(canteenId);
      if (canteen === undefined) return refuse('canteen_not_found', `The canteen "${canteenId}" does not exist.`);
      timeZones.set(canteenId, canteen.timeZone);
      labelling.set(canteenId, new MealLabelling(canteen));
    }
    // The codes given, those the notes name, and placeholder for an entry that is none, as an import labels them.
    const labelled = placed.map((meal) => labelling.get(meal.canteenId)!.labelled(meal));
    const days = canteenDaysOf(labelled, timeZones);
    // Every meal of the batch is served once it is written, wherever it was before.
    const at = this.deps.clock?.now();
    const written = await this.deps.meals.upsertMany(
      labelled,
      { days, decide: (held) => decideMenuDays(days, held, labelled) },
      at,
      by === undefined ? undefined : menuUpsertAudit(by, at ?? new Date()),
    );
    if (written.ok) (this.deps.announce ?? nobodyListens)({ kind: 'menus' });
    return mapResult(written, (upserted) => ({ upserted }));
  }
}
