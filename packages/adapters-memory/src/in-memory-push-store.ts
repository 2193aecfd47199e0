import {
  defaultNotificationSettings,
  localDayOf,
  type CanteenId,
  type LocalDate,
  type MealId,
  type NewPushSubscription,
  type NotificationSettings,
  type PushSubscription,
  type UserId,
} from '@canteen-meals/domain';
import type {
  ClaimedPush,
  MarkedServing,
  NotificationSettingsRepository,
  PushAudience,
  PushEntry,
  PushOutbox,
  PushSettlement,
  PushSubscriptionRepository,
} from '@canteen-meals/domain/ports';
import { InMemoryDatabase } from './in-memory-database.js';

/** The push state of an in-memory database: subscriptions, settings, the outbox and its once-keys. */
interface PushTables {
  readonly subscriptions: Map<string, PushSubscription>;
  readonly settings: Map<UserId, NotificationSettings>;
  readonly entries: Map<string, StoredEntry>;
  readonly keys: Set<string>;
  sequence: number;
}

interface StoredEntry extends PushEntry {
  readonly id: string;
  state: 'pending' | 'delivered' | 'failed' | 'expired';
  attempts: number;
  leasedUntil: Date | null;
  dueAt: Date;
  lastStatus: number | null;
  lastError: string | null;
}

const tables = new WeakMap<InMemoryDatabase, PushTables>();
function pushTables(db: InMemoryDatabase): PushTables {
  let found = tables.get(db);
  if (found === undefined)
    tables.set(
      db,
      (found = { subscriptions: new Map(), settings: new Map(), entries: new Map(), keys: new Set(), sequence: 0 }),
    );
  return found;
}

const copy = (subscription: PushSubscription): PushSubscription => ({
  ...subscription,
  expirationTime: subscription.expirationTime === null ? null : new Date(subscription.expirationTime.getTime()),
  createdAt: new Date(subscription.createdAt.getTime()),
});
const byAge = (a: PushSubscription, b: PushSubscription) =>
  a.createdAt.getTime() - b.createdAt.getTime() || a.id.localeCompare(b.id);

export class InMemoryPushSubscriptionRepository implements PushSubscriptionRepository {
  private readonly t: PushTables;
  constructor(db: InMemoryDatabase = new InMemoryDatabase()) {
    this.t = pushTables(db);
  }

  async save(subscription: NewPushSubscription, at: Date, maxPerPerson: number) {
    const known = [...this.t.subscriptions.values()].find((each) => each.endpoint === subscription.endpoint);
    const id = known?.id ?? `ps_${(this.t.sequence += 1)}`;
    const saved: PushSubscription = { ...subscription, id, createdAt: known?.createdAt ?? new Date(at.getTime()) };
    this.t.subscriptions.set(id, saved);
    const theirs = [...this.t.subscriptions.values()].filter((each) => each.userId === subscription.userId).sort(byAge);
    for (const oldest of theirs.slice(0, Math.max(0, theirs.length - maxPerPerson))) await this.removeGone(oldest.id);
    return { subscription: copy(saved), created: known === undefined };
  }

  async subscriptionsOf(userId: UserId) {
    return [...this.t.subscriptions.values()]
      .filter((each) => each.userId === userId)
      .sort(byAge)
      .map(copy);
  }

  async subscriptionsOfUsers(userIds: readonly UserId[]) {
    const wanted = new Set(userIds);
    return [...this.t.subscriptions.values()]
      .filter((each) => wanted.has(each.userId))
      .sort((a, b) => (a.userId < b.userId ? -1 : a.userId > b.userId ? 1 : byAge(a, b)))
      .map(copy);
  }

  async remove(userId: UserId, endpoint: string) {
    const found = [...this.t.subscriptions.values()].find(
      (each) => each.userId === userId && each.endpoint === endpoint,
    );
    if (found === undefined) return false;
    await this.removeGone(found.id);
    return true;
  }

  async removeGone(subscriptionId: string) {
    this.t.subscriptions.delete(subscriptionId);
    for (const [id, entry] of this.t.entries) if (entry.subscriptionId === subscriptionId) this.t.entries.delete(id);
  }

  async eraseAll(userId: UserId) {
    const theirs = [...this.t.subscriptions.values()].filter((each) => each.userId === userId);
    for (const each of theirs) await this.removeGone(each.id);
    return theirs.length;
  }
}

export class InMemoryNotificationSettingsRepository implements NotificationSettingsRepository {
  private readonly t: PushTables;
  constructor(db: InMemoryDatabase = new InMemoryDatabase()) {
    this.t = pushTables(db);
  }

  async settingsOf(userId: UserId) {
    return { ...(this.t.settings.get(userId) ?? defaultNotificationSettings) };
  }

  async settingsOfUsers(userIds: readonly UserId[]) {
    return new Map(
      userIds.map((userId) => [userId, { ...(this.t.settings.get(userId) ?? defaultNotificationSettings) }]),
    );
  }

  async save(userId: UserId, settings: NotificationSettings) {
    this.t.settings.set(userId, { ...settings });
  }

  async erase(userId: UserId) {
    return this.t.settings.delete(userId);
  }
}

export class InMemoryPushOutbox implements PushOutbox {
  private readonly t: PushTables;
  constructor(db: InMemoryDatabase = new InMemoryDatabase()) {
    this.t = pushTables(db);
  }

  async enqueueOnce(key: string, entries: readonly PushEntry[], _at: Date) {
    if (this.t.keys.has(key)) return false;
    this.t.keys.add(key);
    await this.enqueue(entries);
    return true;
  }

  async usedOnce(key: string) {
    return this.t.keys.has(key);
  }

  async enqueue(entries: readonly PushEntry[]) {
    for (const entry of entries) {
      const id = `pe_${(this.t.sequence += 1)}`;
      this.t.entries.set(id, {
        ...entry,
        id,
        state: 'pending',
        attempts: 0,
        leasedUntil: null,
        lastStatus: null,
        lastError: null,
      });
    }
  }

  async claim(now: Date, limit: number, leaseMs: number): Promise<readonly ClaimedPush[]> {
    const claimed: ClaimedPush[] = [];
    // What expired before any attempt leaves the queue as expired (the depth counts what can still go out).
    for (const entry of this.t.entries.values()) {
      if (entry.state === 'pending' && entry.expiresAt <= now) {
        entry.state = 'expired';
        entry.lastError = 'expired before an attempt';
      }
    }
    const due = [...this.t.entries.values()]
      .filter(
        (entry) =>
          entry.state === 'pending' &&
          entry.dueAt <= now &&
          entry.expiresAt > now &&
          (entry.leasedUntil === null || entry.leasedUntil <= now),
      )
      .sort((a, b) => a.dueAt.getTime() - b.dueAt.getTime() || Number(a.id.slice(3)) - Number(b.id.slice(3)));
    for (const entry of due) {
      if (claimed.length >= limit) break;
      const subscription = this.t.subscriptions.get(entry.subscriptionId);
      if (subscription === undefined) {
        this.t.entries.delete(entry.id);
        continue;
      }
      entry.leasedUntil = new Date(now.getTime() + leaseMs);
      claimed.push({
        id: entry.id,
        subscriptionId: entry.subscriptionId,
        payload: entry.payload,
        topic: entry.topic,
        dueAt: entry.dueAt,
        expiresAt: entry.expiresAt,
        attempts: entry.attempts,
        subscription: copy(subscription),
      });
    }
    return claimed;
  }

  async settle(id: string, settlement: PushSettlement, _at: Date) {
    const entry = this.t.entries.get(id);
    if (entry === undefined) return;
    entry.attempts += 1;
    entry.leasedUntil = null;
    entry.state = settlement.kind;
    entry.lastStatus = settlement.status;
    entry.lastError = settlement.kind === 'delivered' ? null : settlement.error;
  }

  async retry(id: string, at: Date, status: number | null, error: string) {
    const entry = this.t.entries.get(id);
    if (entry === undefined) return;
    entry.attempts += 1;
    entry.leasedUntil = null;
    entry.dueAt = new Date(at.getTime());
    entry.lastStatus = status;
    entry.lastError = error;
  }

  async depth() {
    return [...this.t.entries.values()].filter((entry) => entry.state === 'pending').length;
  }

  /** What the outbox holds, for tests: each entry's state, attempts and last answer. */
  snapshot() {
    return [...this.t.entries.values()].map(
      ({ id, subscriptionId, state, attempts, lastStatus, lastError, dueAt }) => ({
        id,
        subscriptionId,
        state,
        attempts,
        lastStatus,
        lastError,
        dueAt,
      }),
    );
  }
}

export class InMemoryPushAudience implements PushAudience {
  constructor(private readonly db: InMemoryDatabase = new InMemoryDatabase()) {}

  async markedServingsOn(
    canteenId: CanteenId,
    date: LocalDate,
    window: { readonly from: Date; readonly to: Date },
  ): Promise<readonly MarkedServing[]> {
    const timeZone = this.db.canteens.get(canteenId)?.timeZone;
    const servings = [...this.db.meals.values()].filter(
      (meal) =>
        meal.canteenId === canteenId &&
        meal.servedAt >= window.from &&
        meal.servedAt < window.to &&
        !this.db.withdrawn.has(meal.id) &&
        this.db.mealDishes.has(meal.id) &&
        (timeZone === undefined || localDayOf(meal.servedAt, timeZone).date === date),
    );
    const found: MarkedServing[] = [];
    for (const [userId, marked] of this.db.markings) {
      const dishes = new Set(
        [...marked].map((mealId) => this.db.mealDishes.get(mealId)).filter((dishId) => dishId !== undefined),
      );
      for (const meal of servings) {
        const dishId = this.db.mealDishes.get(meal.id)!;
        if (dishes.has(dishId))
          found.push({
            userId,
            mealId: meal.id,
            dishId,
            name: meal.name,
            labels: [...meal.labels],
            servedAt: new Date(meal.servedAt.getTime()),
          });
      }
    }
    return found.sort((a, b) =>
      a.userId < b.userId
        ? -1
        : a.userId > b.userId
          ? 1
          : a.servedAt.getTime() - b.servedAt.getTime() || a.mealId - b.mealId,
    );
  }

  async markersOf(mealId: MealId): Promise<readonly UserId[]> {
    return [...this.db.markings]
      .filter(([, marked]) => marked.has(mealId))
      .map(([userId]) => userId)
      .sort();
  }
}
