import {
  addedServingsOf,
  deliveriesOf,
  favouritesUpcomingEvents,
  wantedServing,
  recordedEventOf,
  storedEventData,
  type Delivery,
  type FavouriteServing,
  type RecordedEvent,
} from '@canteen-meals/domain';
import type { AttemptOutcome, ClaimedDelivery, ClaimRoom, WebhookOutbox } from '@canteen-meals/domain/ports';
import { newEventId } from './new-event-id.js';
import { InMemoryDatabase } from './in-memory-database.js';
import { copyOf } from './in-memory-webhook-repository.js';

// Nothing awaits inside a method: each runs as one unit of work, as a transaction would.
export class InMemoryWebhookOutbox implements WebhookOutbox {
  constructor(private readonly db: InMemoryDatabase = new InMemoryDatabase()) {}

  async fanOut(at: Date, limit: number): Promise<number> {
    const taken = this.db.outbox.splice(0, Math.max(0, limit));
    const derived: RecordedEvent[] = favouritesUpcomingEvents(this.favouritesOf(taken, at)).map((event) => ({
      ...event,
      id: newEventId(),
      occurredAt: new Date(at.getTime()),
    }));
    for (const { webhookId, event } of deliveriesOf([...taken, ...derived], [...this.db.webhooks.values()])) {
      this.db.deliveries.set(keyOf(webhookId, event.id), {
        webhookId,
        event,
        state: 'pending',
        attempts: 0,
        nextAttemptAt: new Date(at.getTime()),
        lastAttemptAt: null,
        lastStatus: null,
        lastError: null,
        createdAt: new Date(at.getTime()),
      });
    }
    return taken.length;
  }

  async claimDue(at: Date, limit: number, leaseMs: number, room?: ClaimRoom): Promise<readonly ClaimedDelivery[]> {
    const leasedUntil = new Date(at.getTime() + leaseMs);
    const taken = new Map(room?.busy ?? []);
    const due = [...this.db.deliveries.values()]
      .filter((delivery) => this.isDue(delivery) && delivery.nextAttemptAt! <= at)
      // A stable sort: equal instants keep the order the fan-outs made them in.
      .sort((a, b) => a.nextAttemptAt!.getTime() - b.nextAttemptAt!.getTime())
      .filter((delivery) => {
        if (room === undefined) return true;
        const count = taken.get(delivery.webhookId) ?? 0;
        if (count >= room.perEndpoint) return false;
        taken.set(delivery.webhookId, count + 1);
        return true;
      })
      .slice(0, Math.max(0, limit));
    return due.map((delivery) => {
      // The lease is the due instant moved to its end: a lease that runs out makes the delivery due again.
      const leased: Delivery = { ...delivery, nextAttemptAt: leasedUntil };
      this.db.deliveries.set(keyOf(delivery.webhookId, delivery.event.id), leased);
      return {
        webhook: copyOf(this.db.webhooks.get(delivery.webhookId)!),
        delivery: deliveryCopy(leased),
        leasedUntil: new Date(leasedUntil.getTime()),
      };
    });
  }

  async record(webhookId: string, eventId: string, outcome: AttemptOutcome, at: Date, disable: boolean): Promise<void> {
    const key = keyOf(webhookId, eventId);
    const delivery = this.db.deliveries.get(key);
    const webhook = this.db.webhooks.get(webhookId);
    if (delivery === undefined || webhook === undefined) return;
    const delivered = outcome.kind === 'delivered';
    const retryAt = outcome.kind === 'failed' ? outcome.retryAt : null;
    this.db.deliveries.set(key, {
      ...delivery,
      state: delivered ? 'delivered' : retryAt === null ? 'failed' : 'pending',
      attempts: delivery.attempts + 1,
      nextAttemptAt: retryAt === null ? null : new Date(retryAt.getTime()),
      lastAttemptAt: new Date(at.getTime()),
      lastStatus: outcome.status,
      lastError: outcome.kind === 'failed' ? outcome.error : null,
    });
    this.db.webhooks.set(webhookId, {
      ...webhook,
      failingSince: delivered ? null : (webhook.failingSince ?? new Date(at.getTime())),
      disabledAt: webhook.disabledAt ?? (disable ? new Date(at.getTime()) : null),
    });
  }

  async deliveries(
    webhookId: string,
    page: { readonly limit: number; readonly before?: { readonly createdAt: Date; readonly eventId: string } },
  ): Promise<readonly Delivery[]> {
    const before = page.before;
    return [...this.db.deliveries.values()]
      .filter((delivery) => delivery.webhookId === webhookId && (before === undefined || isBefore(delivery, before)))
      .sort(
        (a, b) =>
          b.createdAt.getTime() - a.createdAt.getTime() ||
          (a.event.id < b.event.id ? 1 : a.event.id > b.event.id ? -1 : 0),
      )
      .slice(0, Math.max(0, page.limit))
      .map(deliveryCopy);
  }

  async nextDueAt(except?: ReadonlySet<string>): Promise<Date | null> {
    const instants = [
      ...[...this.db.deliveries.values()]
        .filter((delivery) => this.isDue(delivery) && except?.has(delivery.webhookId) !== true)
        .map((delivery) => delivery.nextAttemptAt!.getTime()),
      ...this.db.outbox.map((event) => event.occurredAt.getTime()),
    ];
    return instants.length === 0 ? null : new Date(Math.min(...instants));
  }

  async pendingCount(): Promise<number> {
    return [...this.db.deliveries.values()].filter((delivery) => delivery.state === 'pending').length;
  }

  /** Pending, to an endpoint that is enabled. */
  private isDue(delivery: Delivery): boolean {
    return (
      delivery.state === 'pending' &&
      delivery.nextAttemptAt !== null &&
      this.db.webhooks.get(delivery.webhookId)?.disabledAt === null
    );
  }

  /**
   * For each meal the events added that is served after `at`, not withdrawn and has a dish: every user with a
   * marking on any serving of that dish.
   */
  private favouritesOf(events: readonly RecordedEvent[], at: Date): FavouriteServing[] {
    const found: FavouriteServing[] = [];
    for (const added of addedServingsOf(events)) {
      const meal = this.db.meals.get(added.mealId);
      const dishId = this.db.mealDishes.get(added.mealId);
      if (meal === undefined || dishId === undefined || this.db.withdrawn.has(meal.id) || meal.servedAt <= at) continue;
      for (const [userId, marked] of this.db.markings) {
        if (![...marked].some((mealId) => this.db.mealDishes.get(mealId) === dishId)) continue;
        const avoided = this.db.aversions.get(userId)?.has(dishId) ?? false;
        if (!wantedServing(meal.labels, this.db.labelFilters.get(userId) ?? null, avoided)) continue;
        found.push({ ...added, userId, dishId, name: meal.name, servedAt: meal.servedAt });
      }
    }
    return found;
  }
}

function keyOf(webhookId: string, eventId: string): string {
  return `${webhookId}\n${eventId}`;
}

/** Strictly after the cursor in the log's order (newest first, then by event id descending). */
function isBefore(delivery: Delivery, cursor: { readonly createdAt: Date; readonly eventId: string }): boolean {
  const created = delivery.createdAt.getTime();
  return (
    created < cursor.createdAt.getTime() ||
    (created === cursor.createdAt.getTime() && delivery.event.id < cursor.eventId)
  );
}

/** A copy with its own event, dates and arrays, as a database would answer. */
function deliveryCopy(delivery: Delivery): Delivery {
  const date = (value: Date | null) => (value === null ? null : new Date(value.getTime()));
  const { event } = delivery;
  return {
    ...delivery,
    event: recordedEventOf({
      id: event.id,
      type: event.type,
      occurredAt: event.occurredAt,
      data: storedEventData(event),
    }),
    nextAttemptAt: date(delivery.nextAttemptAt),
    lastAttemptAt: date(delivery.lastAttemptAt),
    createdAt: new Date(delivery.createdAt.getTime()),
  };
}
