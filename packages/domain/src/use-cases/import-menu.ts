import { nobodyListens, type AnnounceMenuChange } from '../reading/menu-change.js';
import { defaultCanteenId, type Canteen, type CanteenId } from '../canteen/canteen.js';
import type { CanteenRepository } from '../canteen/canteen-repository.js';
import { noMealDetails } from '../meal/meal.js';
import type { Clock } from '../shared/clock.js';
import { mealFieldProblem } from '../meal/meal-validation.js';
import { instantOfLocalTime, isLocalDate } from '../menu/local-time.js';
import { keysOfDay, type MealSourceKey, type MenuCandidate } from '../menu/meal-identity.js';
import type { MealSourceRepository } from '../menu/meal-source-repository.js';
import type { MenuDay } from '../menu/menu.js';
import type { LocalTime } from '../menu/local-time.js';
import { canteenDaysOf, decideMenuDays } from '../menu/menu-day-bound.js';
import { planMenuImport, servedAfterImport, type MenuImportPlan } from '../menu/menu-import-plan.js';
import { refuse, type Result } from '../shared/refusal.js';
import type { MenuWriteCause } from '../webhook/webhook-event.js';
import { MealLabelling } from '../label/meal-labelling.js';

/** Every refusal ImportMenu can answer. */
export const importMenuRefusals = ['invalid_meal', 'canteen_not_found', 'menu_day_full'] as const;

type ImportMenuRefusal = (typeof importMenuRefusals)[number];

export interface ImportMenuCommand {
  /** Who published the menu, e.g. one canteen's feed: part of every meal's source key, so keep it stable. */
  readonly source: string;
  readonly days: readonly MenuDay[];
  /** Whether meals new to the catalog can be rated; meals already known keep their flag. */
  readonly rateable: boolean;
  /** The canteen that serves the menu (absent: `default`); its time zone places the days. */
  readonly canteenId?: CanteenId | undefined;
  /** Why the menu is imported, as its `menu.published` events say: `feed` from a feed fetch (absent: `import`). */
  readonly cause?: Exclude<MenuWriteCause, 'upsert'> | undefined;
}

/**
 * Brings a published menu into the catalog in one unit of work. Meals already imported keep their ids (so their
 * ratings and markings stay attached); new ones get fresh ids; closed days add nothing; meals that vanished from a
 * re-imported day stay, except that those still to be served are withdrawn (the feed took them off the menu). An
 * import after which a day of the canteen would serve more than `maxMealsPerCanteenDay` meals (its own and those
 * written by other means) is refused; the day is counted in the import's transaction.
 */
export class ImportMenu {
  constructor(
    private readonly deps: {
      readonly mealSources: MealSourceRepository;
      readonly canteens: CanteenRepository;
      readonly clock: Clock;
      /** Wall-clock time of the start of service, "HH:MM", in every canteen's own zone. */
      readonly serviceStart: LocalTime;
      readonly announce?: AnnounceMenuChange;
    },
  ) {}

  async execute(command: ImportMenuCommand): Promise<Result<MenuImportPlan, ImportMenuRefusal>> {
    const source = command.source.trim();
    if (source === '') return refuse('invalid_meal', 'the menu needs a source name');
    const dayProblem = repeatedOrInvalidDay(command.days);
    if (dayProblem !== undefined) return refuse('invalid_meal', dayProblem);
    const canteen = await this.deps.canteens.find(command.canteenId ?? defaultCanteenId);
    if (canteen === undefined) return refuse('canteen_not_found', `The canteen "${command.canteenId}" does not exist.`);
    const candidates = this.candidatesOf(source, canteen, command);
    if (typeof candidates === 'string') return refuse('invalid_meal', candidates);
    const servedIn = canteenDaysOf(
      candidates.map(({ meal }) => ({ canteenId: canteen.id, servedAt: meal.servedAt })),
      new Map([[canteen.id, canteen.timeZone]]),
    );
    const scope = { source, days: command.days.map((day) => day.date), servedIn, cause: command.cause ?? 'import' };
    const now = this.deps.clock.now();
    const imported = await this.deps.mealSources.importMenu(scope, (snapshot) => {
      const plan = planMenuImport(candidates, snapshot, now);
      if (!plan.ok) return plan;
      const bounded = decideMenuDays(servedIn, snapshot.held, servedAfterImport(plan.value, snapshot.withdrawn));
      return bounded.ok ? plan : bounded;
    });
    if (imported.ok) (this.deps.announce ?? nobodyListens)({ kind: 'menus' });
    return imported;
  }

  /**
   * Each listed meal as it would be stored, served on its day at the start of service in the canteen's zone; or what
   * is wrong with the first meal that could not be stored.
   */
  private candidatesOf(source: string, canteen: Canteen, command: ImportMenuCommand): MenuCandidate[] | string {
    const start = this.deps.serviceStart;
    const timeZone = canteen.timeZone;
    const candidates: MenuCandidate[] = [];
    const labelling = new MealLabelling(canteen);
    for (const day of command.days) {
      if (day.closed) continue;
      const servedAt = instantOfLocalTime(day.date, start, timeZone);
      const keys = keysOfDay(source, day.date, day.items);
      for (const [index, item] of day.items.entries()) {
        const meal = labelling.labelled({
          ...noMealDetails,
          name: item.name,
          servedAt,
          rateable: command.rateable,
          category: item.category,
          notes: item.notes,
          prices: item.prices,
          canteenId: canteen.id,
          position: index,
        });
        const problem = mealFieldProblem(meal);
        if (problem !== undefined) return `${day.date}, meal ${index + 1}: ${problem}`;
        candidates.push({ key: keys[index] as MealSourceKey, servedOn: day.date, meal });
      }
    }
    return candidates;
  }
}

function repeatedOrInvalidDay(days: readonly MenuDay[]): string | undefined {
  const seen = new Set<string>();
  for (const { date } of days) {
    if (!isLocalDate(date)) return `"${date}" is not a calendar day`;
    if (seen.has(date)) return `the menu lists ${date} more than once`;
    seen.add(date);
  }
  return undefined;
}
