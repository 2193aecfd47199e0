import { availabilityChangedAt, type AvailabilityChange } from '../availability/availability.js';
import { localDayOf, type LocalDay } from '../calendar/local-day.js';
import { defaultCanteenId, type CanteenId } from '../canteen/canteen.js';
import type { DishId } from '../dish/dish.js';
import type { Meal, MealId } from '../meal/meal.js';
import type { MenuImportPlan } from '../menu/menu-import-plan.js';
import type {
  MealAvailabilityChanged,
  MealWithdrawn,
  MenuPublished,
  MenuWriteCause,
  WebhookEvent,
} from './webhook-event.js';

// Pure: what a menu write records in the outbox, from what it changed. Adapters call these inside the write's
// transaction and persist the answer with it; they never decide what an event says.

/** The time zone of every canteen a write touches, as the write's transaction reads it. */
export type CanteenTimeZones = ReadonlyMap<CanteenId, string>;

/** A meal as the events place it: where and when it is served. */
type PlacedMeal = Pick<Meal, 'id' | 'servedAt' | 'canteenId'>;

/**
 * `MealCatalog.upsertMany`: one `menu.published` (cause `upsert`) per canteen day the batch writes meals to, in the
 * order of their first meals. `added`: the meals new to the catalog; `changed`: every other written meal, even one
 * written with the data it had (an upsert says "this is the menu now"; comparing every field would cost a read of
 * every row for an event receivers treat alike). An upsert withdraws nothing; a meal it moves to another day shows on
 * the new day only.
 */
export function upsertEvents(
  written: readonly PlacedMeal[],
  existed: ReadonlySet<MealId>,
  timeZones: CanteenTimeZones,
): WebhookEvent[] {
  const days = new DayGroups(timeZones);
  // The last of two meals with one id wins, as the write itself does.
  const meals = [...new Map(written.map((meal) => [meal.id, meal])).values()];
  for (const meal of meals) days.of(meal)[existed.has(meal.id) ? 'changed' : 'added'].push(meal.id);
  return days.events('upsert');
}

/**
 * `MealSourceRepository.importMenu`: one `menu.published` per canteen day whose plan added, updated or withdrew a
 * meal (a day of unchanged meals records nothing, so an unchanged re-import records nothing), then one
 * `meal.withdrawn` per meal the plan withdraws, at the plan's instant. `dishOf`: the dish of each withdrawn meal.
 */
export function importEvents(
  plan: MenuImportPlan,
  cause: Exclude<MenuWriteCause, 'upsert'>,
  timeZones: CanteenTimeZones,
  dishOf: ReadonlyMap<MealId, DishId | null>,
): WebhookEvent[] {
  const days = new DayGroups(timeZones);
  for (const { meal } of plan.added) days.of(meal).added.push(meal.id);
  for (const meal of plan.updated) days.of(meal).changed.push(meal.id);
  for (const meal of plan.withdrawn) days.of(meal).withdrawn.push(meal.id);
  const withdrawals = [...plan.withdrawn]
    .sort((a, b) => a.id - b.id)
    // The day of each withdrawn meal is its group's: the time zone arithmetic once per day, not once per meal (an
    // import that withdraws 10 000 meals spent 0.4 s of the event loop on it).
    .map((meal) => withdrawalOn(meal, days.of(meal).day.date, dishOf.get(meal.id) ?? null, plan.at));
  return [...days.events(cause), ...withdrawals];
}

/** `MealCatalog.withdraw` (the first time only) and every meal an import withdraws: one `meal.withdrawn`. */
export function withdrawalEvent(
  meal: PlacedMeal,
  dishId: DishId | null,
  timeZones: CanteenTimeZones,
  withdrawnAt: Date,
): WebhookEvent {
  return withdrawalOn(
    meal,
    localDayOf(meal.servedAt, timeZoneOf(timeZones, meal.canteenId ?? defaultCanteenId)).date,
    dishId,
    withdrawnAt,
  );
}

function withdrawalOn(
  meal: PlacedMeal,
  date: LocalDay['date'],
  dishId: DishId | null,
  withdrawnAt: Date,
): WebhookEvent {
  const data: MealWithdrawn = {
    mealId: meal.id,
    canteenId: meal.canteenId ?? defaultCanteenId,
    date,
    dishId,
    withdrawnAt: new Date(withdrawnAt.getTime()),
  };
  return { type: 'meal.withdrawn', data };
}

interface DayChanges {
  readonly day: LocalDay;
  readonly canteenId: CanteenId;
  readonly added: MealId[];
  readonly changed: MealId[];
  readonly withdrawn: MealId[];
}

/** The canteen days of a write, each with what it did to the day, in the order of their first meals. */
class DayGroups {
  private readonly days: DayChanges[] = [];
  private last: DayChanges | undefined;

  constructor(private readonly timeZones: CanteenTimeZones) {}

  of(meal: PlacedMeal): DayChanges {
    const canteenId = meal.canteenId ?? defaultCanteenId;
    // Most meals of a write share a few days: only a meal on a day not seen yet costs the time zone arithmetic.
    const servedAt = meal.servedAt.getTime();
    const holds = (group: DayChanges) =>
      group.canteenId === canteenId && servedAt >= group.day.from.getTime() && servedAt < group.day.until.getTime();
    // Meals come grouped by day: the group of the meal before first.
    if (this.last !== undefined && holds(this.last)) return this.last;
    const known = this.days.find(holds);
    if (known !== undefined) return (this.last = known);
    const group = {
      day: localDayOf(meal.servedAt, timeZoneOf(this.timeZones, canteenId)),
      canteenId,
      added: [],
      changed: [],
      withdrawn: [],
    };
    this.days.push(group);
    return (this.last = group);
  }

  events(cause: MenuWriteCause): WebhookEvent[] {
    const ascending = (ids: MealId[]) => [...ids].sort((a, b) => a - b);
    return this.days
      .filter((group) => group.added.length + group.changed.length + group.withdrawn.length > 0)
      .map((group) => {
        const data: MenuPublished = {
          canteenId: group.canteenId,
          date: group.day.date,
          cause,
          added: ascending(group.added),
          changed: ascending(group.changed),
          withdrawn: ascending(group.withdrawn),
        };
        return { type: 'menu.published', data };
      });
  }
}

/** `AvailabilityRepository.change` (a change of status only): one `meal.availability_changed`, at the new instant. */
export function availabilityEvent(change: AvailabilityChange): WebhookEvent {
  const data: MealAvailabilityChanged = {
    mealId: change.mealId,
    canteenId: change.canteenId,
    date: change.date,
    availability: change.next.status,
    availabilityChangedAt: new Date(availabilityChangedAt(change).getTime()),
  };
  return { type: 'meal.availability_changed', data };
}

function timeZoneOf(timeZones: CanteenTimeZones, canteenId: CanteenId): string {
  const timeZone = timeZones.get(canteenId);
  if (timeZone === undefined) throw new RangeError(`no time zone is given for the canteen "${canteenId}"`);
  return timeZone;
}
