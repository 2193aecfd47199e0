import {
  type LabelFilter,
  defaultCanteenId,
  dishNameKey,
  emptyHistogram,
  sumOf,
  withoutServing,
  type Availability,
  type StoredCanteen,
  type CanteenId,
  type DetailedMeal,
  type Delivery,
  type DishId,
  type FeedState,
  type LocalDate,
  type MealId,
  type MealSourceKey,
  type RatingHistogram,
  type RatingValue,
  type UserId,
  type Webhook,
  type WebhookEvent,
  type WebhookId,
  type RecordedEvent,
  type AuditEntry,
  type AuditRecord,
} from '@canteen-meals/domain';
import type { ServingWindow } from '@canteen-meals/domain/ports';
import { newEventId } from './new-event-id.js';

export interface InMemoryDatabaseOptions {
  /** The time zone of the `default` canteen, which every store holds from the start (default: UTC). */
  readonly defaultTimeZone?: string | undefined;
}

/** The state every in-memory adapter shares, as one database would be shared by the SQL adapters. */
export class InMemoryDatabase {
  readonly canteens = new Map<CanteenId, StoredCanteen>();
  /** `${canteenId} ${date}` of each closed day. */
  readonly closedDays = new Set<string>();
  /** When each archived canteen was archived; a canteen without an entry is active. */
  readonly canteenArchivedAt = new Map<CanteenId, Date>();
  readonly meals = new Map<MealId, DetailedMeal>();
  readonly histograms = new Map<MealId, RatingHistogram>();
  /** mealId -> userId -> rating */
  readonly ratings = new Map<MealId, Map<UserId, RatingValue>>();
  /** userId -> marked meal ids */
  readonly markings = new Map<UserId, Set<MealId>>();
  /** Every dish: its canteen, the name it was first served under, and its histogram over all servings. */
  readonly dishes = new Map<DishId, InMemoryDish>();
  /** The names (aliases) of the dishes, by `nameKeyOf(canteenId, dishNameKey(name))`. */
  readonly dishNames = new Map<string, { readonly dishId: DishId; readonly name: string }>();
  /** Which dish each meal is a serving of. */
  readonly mealDishes = new Map<MealId, DishId>();
  /** The availability of each meal the kitchen has changed; a meal without an entry is as it started. */
  readonly availability = new Map<MealId, Availability>();
  /** The withdrawn meals, with the instant they were withdrawn at. */
  readonly withdrawn = new Map<MealId, Date>();
  /** Each person's label filter (none stored: no entry). */
  readonly labelFilters = new Map<UserId, LabelFilter>();
  /** Each person's avoided dishes, since when. */
  readonly aversions = new Map<UserId, Map<DishId, Date>>();
  /** What the service remembers of each feed's fetches, by `canteenId\nfeedName`. */
  readonly feedStates = new Map<string, FeedState>();
  /** Imported meals by source key: which meal each key names, for which source and day. */
  readonly mealSources = new Map<MealSourceKey, { mealId: MealId; source: string; servedOn: LocalDate }>();

  /** The admin's webhook endpoints. */
  readonly webhooks = new Map<WebhookId, Webhook>();
  /**
   * The webhook outbox: events recorded by menu writes, in the order they were recorded, until a fan-out takes them.
   */
  readonly outbox: RecordedEvent[] = [];
  /** Every delivery of an event to an endpoint, by `webhookId\neventId`, in the order the fan-outs made them. */
  readonly deliveries = new Map<string, Delivery>();

  private lastDishId = 0;

  /** Appends what a menu write records to the outbox, as part of the write: each event gets a new id. */
  /** The audit trail, in the order it was appended. */
  readonly audit: AuditEntry[] = [];
  private lastAuditId = 0;

  /** Appends audit records, each with a new id; a change calls it in the same synchronous step as its write. */
  appendAudit(records: readonly AuditRecord[]): void {
    for (const record of records) {
      this.lastAuditId += 1;
      // Zero-padded: ids compare as strings in the order they were given, as on the SQL stores.
      this.audit.push({ ...record, id: String(this.lastAuditId).padStart(12, '0'), at: new Date(record.at.getTime()) });
    }
  }

  recordEvents(events: readonly WebhookEvent[], at: Date): void {
    for (const event of events) this.outbox.push({ ...event, id: newEventId(), occurredAt: new Date(at.getTime()) });
  }

  /** The time zone of each canteen that exists among `canteenIds`. */
  timeZonesOf(canteenIds: Iterable<CanteenId>): Map<CanteenId, string> {
    const zones = new Map<CanteenId, string>();
    for (const id of canteenIds) {
      const canteen = this.canteens.get(id);
      if (canteen !== undefined) zones.set(id, canteen.timeZone);
    }
    return zones;
  }

  /**
   * Puts the meal (just written) in the dish of its canteen and name key, creating the dish when there is none; a
   * meal that was another dish's serving takes its histogram's counts along. Synchronous, as part of the write.
   */
  assignDish(meal: DetailedMeal): void {
    const key = nameKeyOf(meal.canteenId, dishNameKey(meal.name));
    let dishId = this.dishNames.get(key)?.dishId;
    if (dishId === undefined) {
      dishId = ++this.lastDishId;
      this.dishes.set(dishId, { id: dishId, canteenId: meal.canteenId, name: meal.name, histogram: emptyHistogram });
      this.dishNames.set(key, { dishId, name: meal.name });
    }
    const before = this.mealDishes.get(meal.id);
    if (before === dishId) return;
    const histogram = this.histograms.get(meal.id) ?? emptyHistogram;
    if (before !== undefined) {
      const old = this.dishes.get(before)!;
      this.dishes.set(before, { ...old, histogram: withoutServing(old.histogram, histogram) });
    }
    const next = this.dishes.get(dishId)!;
    this.dishes.set(dishId, { ...next, histogram: sumOf([next.histogram, histogram]) });
    this.mealDishes.set(meal.id, dishId);
  }

  /**
   * How many meals each window holds that are not withdrawn, leaving out those of `except`: what a write that adds
   * meals to those days counts before it writes (see MenuDaysCheck).
   */
  heldIn(windows: readonly ServingWindow[], except: ReadonlySet<MealId>): number[] {
    return windows.map((window) => {
      let held = 0;
      for (const meal of this.meals.values()) {
        const inWindow =
          meal.canteenId === window.canteenId && meal.servedAt >= window.from && meal.servedAt < window.until;
        if (inWindow && !this.withdrawn.has(meal.id) && !except.has(meal.id)) held += 1;
      }
      return held;
    });
  }

  constructor({ defaultTimeZone = 'UTC' }: InMemoryDatabaseOptions = {}) {
    this.canteens.set(defaultCanteenId, {
      id: defaultCanteenId,
      name: 'Default canteen',
      timeZone: defaultTimeZone,
      city: null,
      address: null,
      coordinates: null,
      feeds: [],
      openmensaId: 1,
    });
  }
}

export interface InMemoryDish {
  readonly id: DishId;
  readonly canteenId: CanteenId;
  readonly name: string;
  readonly histogram: RatingHistogram;
}

/** The key of a dish name within its canteen. */
export function nameKeyOf(canteenId: CanteenId, key: string): string {
  return `${canteenId}\u0000${key}`;
}
