import type { CanteenId } from '../canteen/canteen.js';
import type { DishId } from '../dish/dish.js';
import type { MealId } from '../meal/meal.js';
import type { LocalDate } from '../menu/local-time.js';
import type { UserId } from '../shared/user-id.js';
import type { FavouritesUpcoming, RecordedEvent, WebhookEvent } from './webhook-event.js';
import { passesLabelFilter, type LabelFilter } from '../label/label-filter.js';
import type { LabelCode } from '../label/label.js';

/**
 * `favourites.upcoming` applies the person's preferences: a serving their label filter leaves out, or of a
 * dish they avoid, is not announced to them. `filter` null: they set none.
 */
export function wantedServing(labels: readonly LabelCode[], filter: LabelFilter | null, avoided: boolean): boolean {
  return !avoided && (filter === null || passesLabelFilter(labels, filter));
}

// Pure halves of the outbox's fan-out: which meals to look for favourites of, how the matches become events, and
// which endpoint gets which event. Adapters do the lookups (in SQL where they have it) and the writes.

/** A meal a `menu.published` added to a canteen day. */
export interface AddedServing {
  readonly canteenId: CanteenId;
  readonly date: LocalDate;
  readonly mealId: MealId;
}

/** The meals added by the `menu.published` events among `events`, each with the day its event names. */
export function addedServingsOf(events: readonly WebhookEvent[]): AddedServing[] {
  return events.flatMap((event) =>
    event.type === 'menu.published'
      ? event.data.added.map((mealId) => ({ canteenId: event.data.canteenId, date: event.data.date, mealId }))
      : [],
  );
}

/**
 * What the adapter's lookup finds for an added serving: one of its users. The lookup answers, for every added serving
 * served after the fan-out's instant, not withdrawn and with a dish, each user with a marking on any serving of that
 * dish (withdrawn and past servings included).
 */
export interface FavouriteServing extends AddedServing {
  readonly userId: UserId;
  readonly dishId: DishId;
  readonly name: string;
  readonly servedAt: Date;
}

/**
 * One `favourites.upcoming` per user and canteen day, its meals by serving time then id, each once; the events by
 * user, canteen and day.
 */
export function favouritesUpcomingEvents(found: readonly FavouriteServing[]): WebhookEvent[] {
  const byKey = new Map<
    string,
    { data: FavouritesUpcoming; meals: Map<MealId, FavouritesUpcoming['meals'][number]> }
  >();
  for (const serving of found) {
    const key = JSON.stringify([serving.userId, serving.canteenId, serving.date]);
    let group = byKey.get(key);
    if (group === undefined) {
      group = {
        data: { userId: serving.userId, canteenId: serving.canteenId, date: serving.date, meals: [] },
        meals: new Map(),
      };
      byKey.set(key, group);
    }
    const { mealId, dishId, name, servedAt } = serving;
    group.meals.set(mealId, { mealId, dishId, name, servedAt: new Date(servedAt.getTime()) });
  }
  return [...byKey.entries()]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([, { data, meals }]) => ({
      type: 'favourites.upcoming',
      data: {
        ...data,
        meals: [...meals.values()].sort((a, b) => a.servedAt.getTime() - b.servedAt.getTime() || a.mealId - b.mealId),
      },
    }));
}

/** An endpoint as the fan-out sees it. */
export interface Subscriber {
  readonly id: string;
  readonly events: readonly string[];
  readonly disabledAt: Date | null;
}

/** One delivery per event and enabled endpoint subscribed to its type, event by event in the given order. */
export function deliveriesOf(
  events: readonly RecordedEvent[],
  endpoints: readonly Subscriber[],
): { readonly webhookId: string; readonly event: RecordedEvent }[] {
  const enabled = endpoints.filter((endpoint) => endpoint.disabledAt === null);
  return events.flatMap((event) =>
    enabled
      .filter((endpoint) => endpoint.events.includes(event.type))
      .map((endpoint) => ({ webhookId: endpoint.id, event })),
  );
}
