import { noMealDetails } from '../meal/meal.js';
import { mealFieldProblem } from '../meal/meal-validation.js';
import { instantOfLocalTime, isLocalDate } from '../menu/local-time.js';
import { mealSourceKey, type MenuCandidate } from '../menu/meal-source.js';
import type { MealSourceRepository } from '../menu/meal-source-repository.js';
import type { MenuDay, ServiceTime } from '../menu/menu.js';
import { planMenuImport, type MenuImportPlan } from '../menu/menu-import-plan.js';
import { DomainError } from '../shared/domain-error.js';

export interface ImportMenuCommand {
  /** Who published the menu, e.g. one canteen's feed: part of every meal's source key, so keep it stable. */
  readonly source: string;
  readonly days: readonly MenuDay[];
  /** Whether meals new to the catalog can be rated; meals already known keep their flag. */
  readonly rateable: boolean;
}

/**
 * Brings a published menu into the catalog in one unit of work. Meals already imported keep their ids (so their
 * ratings and markings stay attached); new ones get fresh ids; closed days add nothing; meals that vanished from a
 * re-imported day stay.
 */
export class ImportMenu {
  constructor(
    private readonly deps: { readonly mealSources: MealSourceRepository; readonly serviceTime: ServiceTime },
  ) {}

  async execute(command: ImportMenuCommand): Promise<MenuImportPlan> {
    const source = command.source.trim();
    if (source === '') throw new DomainError('invalid_meal', 'the menu needs a source name');
    assertDistinctDays(command.days);
    const candidates = this.candidatesOf(source, command);
    const scope = { source, days: command.days.map((day) => day.date) };
    return this.deps.mealSources.importMenu(scope, (snapshot) => planMenuImport(candidates, snapshot));
  }

  /** Each listed meal as it would be stored, served on its day at the start of service in the canteen's zone. */
  private candidatesOf(source: string, command: ImportMenuCommand): MenuCandidate[] {
    const { start, timeZone } = this.deps.serviceTime;
    return command.days.flatMap((day) => {
      if (day.closed) return [];
      const servedAt = instantOfLocalTime(day.date, start, timeZone);
      const ordinals = new Map<string, number>();
      return day.items.map((item, index) => {
        const firstKey = mealSourceKey(source, day.date, item);
        const ordinal = (ordinals.get(firstKey) ?? 0) + 1;
        ordinals.set(firstKey, ordinal);
        const meal = {
          ...noMealDetails,
          name: item.name,
          servedAt,
          rateable: command.rateable,
          category: item.category,
          notes: item.notes,
          prices: item.prices,
        };
        const problem = mealFieldProblem(meal);
        if (problem !== undefined) throw new DomainError('invalid_meal', `${day.date}, meal ${index + 1}: ${problem}`);
        return { key: mealSourceKey(source, day.date, item, ordinal), servedOn: day.date, meal };
      });
    });
  }
}

function assertDistinctDays(days: readonly MenuDay[]): void {
  const seen = new Set<string>();
  for (const { date } of days) {
    if (!isLocalDate(date)) throw new DomainError('invalid_meal', `"${date}" is not a calendar day`);
    if (seen.has(date)) throw new DomainError('invalid_meal', `the menu lists ${date} more than once`);
    seen.add(date);
  }
}
