import type { AuditActor } from '../audit/audit-entry.js';
import { dayClosureAudit } from '../audit/audit-notes.js';
import { localDayRange } from '../calendar/local-day.js';
import type { CanteenId } from '../canteen/canteen.js';
import type { CanteenRepository } from '../canteen/canteen-repository.js';
import type { MealCatalog } from '../meal/meal-catalog.js';
import type { MealId } from '../meal/meal.js';
import type { ClosedDayRepository } from '../menu/closed-day-repository.js';
import { isLocalDate, type LocalDate } from '../menu/local-time.js';
import { nobodyListens, type AnnounceMenuChange } from '../reading/menu-change.js';
import type { MealQueries } from '../reading/meal-queries.js';
import type { Clock } from '../shared/clock.js';
import { accept, refuse, type Result } from '../shared/refusal.js';

export const setDayClosedRefusals = ['canteen_not_found', 'invalid_menu_range'] as const;

type SetDayClosedRefusal = (typeof setDayClosedRefusals)[number];

/**
 * An admin says a canteen is closed on a day, or open after all. Closing withdraws the day's meals still to be served,
 * as an import of the day as closed does (those served already stay: they were eaten and rated); opening withdraws
 * nothing and brings nothing back.
 */
export class SetDayClosed {
  constructor(
    private readonly deps: {
      readonly canteens: CanteenRepository;
      readonly closedDays: ClosedDayRepository;
      readonly queries: MealQueries;
      readonly meals: MealCatalog;
      readonly clock: Clock;
      readonly announce?: AnnounceMenuChange;
    },
  ) {}

  async execute(command: {
    readonly canteenId: CanteenId;
    readonly date: LocalDate;
    readonly closed: boolean;
    /** Who closes or opens it, recorded in the audit trail in the write's own unit of work. */
    readonly by?: AuditActor | undefined;
  }): Promise<
    Result<
      { readonly date: LocalDate; readonly closed: boolean; readonly withdrawn: readonly MealId[] },
      SetDayClosedRefusal
    >
  > {
    if (!isLocalDate(command.date)) return refuse('invalid_menu_range', `"${command.date}" is not a calendar day`);
    const canteen = await this.deps.canteens.find(command.canteenId);
    if (canteen === undefined) return refuse('canteen_not_found');
    const { by } = command;
    await this.deps.closedDays.record(
      canteen.id,
      [{ date: command.date, closed: command.closed }],
      by === undefined ? undefined : dayClosureAudit(by, this.deps.clock.now(), canteen.id),
    );
    const withdrawn = command.closed ? await this.withdrawComingMeals(canteen.id, command.date, canteen.timeZone) : [];
    (this.deps.announce ?? nobodyListens)({ kind: 'menus' });
    return accept({ date: command.date, closed: command.closed, withdrawn });
  }

  private async withdrawComingMeals(canteenId: CanteenId, date: LocalDate, timeZone: string): Promise<MealId[]> {
    const now = this.deps.clock.now();
    const window = { canteenId, ...localDayRange(date, timeZone) };
    const views = await this.deps.queries.viewsServedIn(null, [window], now);
    const coming = views.filter((view) => view.meal.servedAt > now).map((view) => view.meal.id);
    for (const mealId of coming) await this.deps.meals.withdraw(mealId, now);
    return coming;
  }
}
