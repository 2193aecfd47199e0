import { nobodyListens, type AnnounceMenuChange } from '../reading/menu-change.js';
import { defaultCanteenId, type Canteen, type CanteenId } from '../canteen/canteen.js';
import type { CanteenRepository } from '../canteen/canteen-repository.js';
import { noMealDetails } from '../meal/meal.js';
import type { Clock } from '../shared/clock.js';
import { mealFieldProblem } from '../meal/meal-validation.js';
import { instantOfLocalTime, isLocalDate } from '../menu/local-time.js';
import { keysOfDay, type MealSourceKey, type MenuCandidate } from '../menu/meal-identity.js';
import type { ClosedDayRepository } from '../menu/closed-day-repository.js';
import type { MealSourceRepository } from '../menu/meal-source-repository.js';
import type { MenuDay } from '../menu/menu.js';
import { canteenDaysOf, decideMenuDays } from '../menu/menu-day-bound.js';
import { planMenuImport, servedAfterImport, type MenuImportPlan } from '../menu/menu-import-plan.js';
import type { LocalDate, LocalTime } from '../menu/local-time.js';
import { accept, refuse, type Result } from '../shared/refusal.js';
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
 * The most meals one unit of work of an import writes, in whole days (a day of more is one unit). A unit holds the
 * store's writers (and, on SQLite, the event loop) for its length: 10 000 meals in one took 0.5 to 1.5 s.
 */
export const maxMealsPerImportWrite = 500;

/**
 * Brings a published menu into the catalog, in units of work of whole days of at most `maxMealsPerImportWrite` meals
 * (a menu of a canteen's usual size is one). Meals already imported keep their ids (so their ratings and markings stay
 * attached); new ones get fresh ids; closed days add nothing; meals that vanished from a re-imported day stay, except
 * that those still to be served are withdrawn (the feed took them off the menu). A meal that cannot be stored refuses
 * the whole import before anything is written. An import after which a day of the canteen would serve more than
 * `maxMealsPerCanteenDay` meals (its own and those written by other means) is refused; the day is counted in its
 * unit's transaction, and the units before it stay written. The days the menu says are closed are recorded as
 * closed, and the others it lists as open.
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
      /** Awaited between two units of work (see UseCaseOptions.letOthersRun). */
      readonly letOthersRun?: () => Promise<void>;
      /** Where the closed days of a menu are kept; absent: they are not kept. */
      readonly closedDays?: ClosedDayRepository;
    },
  ) {}

  async execute(command: ImportMenuCommand): Promise<Result<MenuImportPlan, ImportMenuRefusal>> {
    const source = command.source.trim();
    if (source === '') return refuse('invalid_meal', 'the menu needs a source name');
    const dayProblem = repeatedOrInvalidDay(command.days);
    if (dayProblem !== undefined) return refuse('invalid_meal', dayProblem);
    const canteen = await this.deps.canteens.find(command.canteenId ?? defaultCanteenId);
    if (canteen === undefined) return refuse('canteen_not_found', `The canteen "${command.canteenId}" does not exist.`);
    const candidates = await this.candidatesOf(source, canteen, command);
    if (typeof candidates === 'string') return refuse('invalid_meal', candidates);
    const now = this.deps.clock.now();
    let done: MenuImportPlan | undefined;
    for (const [index, unit] of unitsOfWholeDays(command.days, candidates).entries()) {
      if (index > 0) await (this.deps.letOthersRun ?? nothingToWaitFor)();
      const imported = await this.importUnit(source, canteen, unit, command.cause ?? 'import', now);
      if (!imported.ok) return imported;
      // A unit that changed nothing (a feed fetched again, as it is most of the time) sends no reader to the database.
      if (changesMenus(imported.value)) (this.deps.announce ?? nobodyListens)({ kind: 'menus' });
      done = done === undefined ? imported.value : joined(done, imported.value);
    }
    // After the meals: a day the menu closes shows no meal either way, and one it opens again had none to show.
    const closingsChanged = await this.recordClosedDays(canteen, command.days);
    if (closingsChanged && !changesMenus(done!)) (this.deps.announce ?? nobodyListens)({ kind: 'menus' });
    return accept(done!);
  }

  /** Records which of the menu's days are closed; answers whether that changed any day's closing. */
  private async recordClosedDays(canteen: Canteen, days: readonly MenuDay[]): Promise<boolean> {
    const { closedDays } = this.deps;
    if (closedDays === undefined || days.length === 0) return false;
    const dates = days.map(({ date }) => date).sort();
    const before = new Set(await closedDays.closedIn(canteen.id, dates[0]!, dates.at(-1)!));
    await closedDays.record(
      canteen.id,
      days.map(({ date, closed }) => ({ date, closed })),
    );
    return days.some(({ date, closed }) => before.has(date) !== closed);
  }

  /** One unit of work: the unit's days of the source read, planned, bounded and written in one transaction. */
  private importUnit(
    source: string,
    canteen: Canteen,
    unit: ImportUnit,
    cause: Exclude<MenuWriteCause, 'upsert'>,
    now: Date,
  ) {
    const { days, candidates } = unit;
    const servedIn = canteenDaysOf(
      candidates.map(({ meal }) => ({ canteenId: canteen.id, servedAt: meal.servedAt })),
      new Map([[canteen.id, canteen.timeZone]]),
    );
    return this.deps.mealSources.importMenu({ source, days, servedIn, cause }, (snapshot) => {
      const plan = planMenuImport(candidates, snapshot, now);
      if (!plan.ok) return plan;
      const bounded = decideMenuDays(servedIn, snapshot.held, servedAfterImport(plan.value, snapshot.withdrawn));
      return bounded.ok ? plan : bounded;
    });
  }

  /**
   * Each listed meal as it would be stored, served on its day at the start of service in the canteen's zone; or what
   * is wrong with the first meal that could not be stored.
   */
  private async candidatesOf(
    source: string,
    canteen: Canteen,
    command: ImportMenuCommand,
  ): Promise<MenuCandidate[] | string> {
    const start = this.deps.serviceStart;
    const timeZone = canteen.timeZone;
    const candidates: MenuCandidate[] = [];
    let checkedSinceTurn = 0;
    const labelling = new MealLabelling(canteen);
    for (const day of command.days) {
      if (day.closed) continue;
      // Checking 10 000 meals is a unit's worth of work too: others run between units of it.
      if (checkedSinceTurn + day.items.length > maxMealsPerImportWrite && checkedSinceTurn > 0) {
        await (this.deps.letOthersRun ?? nothingToWaitFor)();
        checkedSinceTurn = 0;
      }
      checkedSinceTurn += day.items.length;
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

interface ImportUnit {
  readonly days: LocalDate[];
  readonly candidates: MenuCandidate[];
}

/** The days in order, cut before a day that would take a unit past `maxMealsPerImportWrite`; at least one unit. */
function unitsOfWholeDays(days: readonly MenuDay[], candidates: readonly MenuCandidate[]): ImportUnit[] {
  const byDay = new Map<LocalDate, MenuCandidate[]>();
  for (const candidate of candidates) {
    const listed = byDay.get(candidate.servedOn);
    if (listed === undefined) byDay.set(candidate.servedOn, [candidate]);
    else listed.push(candidate);
  }
  const units: ImportUnit[] = [{ days: [], candidates: [] }];
  for (const { date } of days) {
    const ofDay = byDay.get(date) ?? [];
    let unit = units.at(-1)!;
    if (unit.days.length > 0 && unit.candidates.length + ofDay.length > maxMealsPerImportWrite)
      units.push((unit = { days: [], candidates: [] }));
    unit.days.push(date);
    unit.candidates.push(...ofDay);
  }
  return units;
}

/** The plan of two units as one, in their order. */
function joined(first: MenuImportPlan, next: MenuImportPlan): MenuImportPlan {
  return {
    added: [...first.added, ...next.added],
    updated: [...first.updated, ...next.updated],
    unchanged: [...first.unchanged, ...next.unchanged],
    missing: [...first.missing, ...next.missing],
    withdrawn: [...first.withdrawn, ...next.withdrawn],
    at: first.at,
  };
}

const nothingToWaitFor = async () => {};

function changesMenus(plan: MenuImportPlan): boolean {
  return plan.added.length > 0 || plan.updated.length > 0 || plan.withdrawn.length > 0;
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
