import {
  defaultNotificationSettings,
  type CanteenId,
  type LabelCode,
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
  PushStore,
  PushSubscriptionRepository,
} from '@canteen-meals/domain/ports';
import type { Database, Statement, Transaction } from 'better-sqlite3';
import { randomUUID } from 'node:crypto';
import type { SqliteStorageHealth } from './storage-health.js';

interface SubscriptionRow {
  subscription_id: string;
  user_id: string;
  endpoint: string;
  p256dh: string;
  auth: string;
  expiration_time: number | null;
  created_at: number;
}

const subscriptionColumns = 'subscription_id, user_id, endpoint, p256dh, auth, expiration_time, created_at';

function subscriptionFromRow(row: SubscriptionRow): PushSubscription {
  return {
    id: row.subscription_id,
    userId: row.user_id,
    endpoint: row.endpoint,
    p256dh: row.p256dh,
    auth: row.auth,
    expirationTime: row.expiration_time === null ? null : new Date(row.expiration_time),
    createdAt: new Date(row.created_at),
  };
}

/** Runs a write through the storage's health, when there is one. */
type Guard = <T>(write: () => T) => T;

function guardOf(health: SqliteStorageHealth | undefined): Guard {
  return <T>(write: () => T): T => (health === undefined ? write() : health.guard(write));
}

/** A settlement or retry waiting for its turn's commit (SqlitePushOutbox.write). */
interface PendingWrite {
  readonly run: () => unknown;
  readonly resolve: () => void;
  readonly reject: (error: unknown) => void;
}

/** An entry id as the outbox hands it out (its integer key as text); undefined for text no entry has. */
function entryKeyOf(id: string): number | undefined {
  if (!/^[1-9]\d{0,15}$/.test(id)) return undefined;
  const key = Number(id);
  return Number.isSafeInteger(key) ? key : undefined;
}

/**
 * Subscriptions by endpoint. A save is one IMMEDIATE transaction: the endpoint's row written or updated,
 * then the person's oldest past the cap removed, with their notifications (the outbox's foreign key cascades).
 */
export class SqlitePushSubscriptionRepository implements PushSubscriptionRepository {
  private readonly saveInTransaction: Transaction<
    (
      subscription: NewPushSubscription,
      at: Date,
      maxPerPerson: number,
    ) => { subscription: PushSubscription; created: boolean }
  >;
  private readonly ofUser: Statement<[UserId], SubscriptionRow>;
  private readonly ofUsers: Statement<[string], SubscriptionRow>;
  private readonly removeOwn: Statement<[UserId, string]>;
  private readonly removeById: Statement<[string]>;
  private readonly removeAllOf: Statement<[UserId]>;
  private readonly guard: Guard;

  constructor(db: Database, health?: SqliteStorageHealth) {
    this.guard = guardOf(health);
    const byEndpoint = db.prepare<[string], SubscriptionRow>(
      `SELECT ${subscriptionColumns} FROM push_subscriptions WHERE endpoint = ?`,
    );
    const insert = db.prepare<{
      id: string;
      user: string;
      endpoint: string;
      p256dh: string;
      auth: string;
      expiration: number | null;
      at: number;
    }>(
      `INSERT INTO push_subscriptions (subscription_id, user_id, endpoint, p256dh, auth, expiration_time, created_at)
       VALUES (@id, @user, @endpoint, @p256dh, @auth, @expiration, @at)`,
    );
    const update = db.prepare<{ id: string; user: string; p256dh: string; auth: string; expiration: number | null }>(
      `UPDATE push_subscriptions SET user_id = @user, p256dh = @p256dh, auth = @auth, expiration_time = @expiration
       WHERE subscription_id = @id`,
    );
    // The person's subscriptions but the newest `keep`, oldest first.
    const trim = db.prepare<{ user: string; keep: number }>(
      `DELETE FROM push_subscriptions WHERE seq IN (
         SELECT seq FROM push_subscriptions WHERE user_id = @user ORDER BY created_at DESC, seq DESC LIMIT -1 OFFSET @keep)`,
    );
    this.saveInTransaction = db.transaction((subscription: NewPushSubscription, at: Date, maxPerPerson: number) => {
      const known = byEndpoint.get(subscription.endpoint);
      const id = known?.subscription_id ?? randomUUID();
      const fields = {
        id,
        user: subscription.userId,
        p256dh: subscription.p256dh,
        auth: subscription.auth,
        expiration: subscription.expirationTime === null ? null : subscription.expirationTime.getTime(),
      };
      if (known === undefined) insert.run({ ...fields, endpoint: subscription.endpoint, at: at.getTime() });
      else update.run(fields);
      trim.run({ user: subscription.userId, keep: Math.max(0, maxPerPerson) });
      const saved: PushSubscription = {
        ...subscription,
        id,
        expirationTime: fields.expiration === null ? null : new Date(fields.expiration),
        createdAt: new Date(known?.created_at ?? at.getTime()),
      };
      return { subscription: saved, created: known === undefined };
    });
    this.ofUser = db.prepare(
      `SELECT ${subscriptionColumns} FROM push_subscriptions WHERE user_id = ? ORDER BY created_at, seq`,
    );
    // BINARY order of the user ids: JavaScript's order of strings (but for characters beyond the BMP).
    this.ofUsers = db.prepare(
      `SELECT ${subscriptionColumns} FROM push_subscriptions WHERE user_id IN (SELECT value FROM json_each(?))
       ORDER BY user_id, created_at, seq`,
    );
    this.removeOwn = db.prepare('DELETE FROM push_subscriptions WHERE user_id = ? AND endpoint = ?');
    this.removeById = db.prepare('DELETE FROM push_subscriptions WHERE subscription_id = ?');
    this.removeAllOf = db.prepare('DELETE FROM push_subscriptions WHERE user_id = ?');
  }

  async save(subscription: NewPushSubscription, at: Date, maxPerPerson: number) {
    return this.guard(() => this.saveInTransaction.immediate(subscription, at, maxPerPerson));
  }

  async subscriptionsOf(userId: UserId) {
    return this.ofUser.all(userId).map(subscriptionFromRow);
  }

  async subscriptionsOfUsers(userIds: readonly UserId[]) {
    if (userIds.length === 0) return [];
    return this.ofUsers.all(JSON.stringify(userIds)).map(subscriptionFromRow);
  }

  async remove(userId: UserId, endpoint: string) {
    return this.guard(() => this.removeOwn.run(userId, endpoint).changes > 0);
  }

  async removeGone(subscriptionId: string) {
    this.guard(() => this.removeById.run(subscriptionId));
  }

  async eraseAll(userId: UserId) {
    return this.guard(() => this.removeAllOf.run(userId).changes);
  }
}

interface SettingsRow {
  user_id: string;
  favourites_today: 0 | 1;
  sold_out: 0 | 1;
  language: NotificationSettings['language'];
}

const settingsFromRow = (row: SettingsRow): NotificationSettings => ({
  favouritesToday: row.favourites_today === 1,
  soldOut: row.sold_out === 1,
  language: row.language,
});

export class SqliteNotificationSettingsRepository implements NotificationSettingsRepository {
  private readonly ofUser: Statement<[UserId], SettingsRow>;
  private readonly ofUsers: Statement<[string], SettingsRow>;
  private readonly put: Statement<[UserId, number, number, string]>;
  private readonly remove: Statement<[UserId]>;
  private readonly guard: Guard;

  constructor(db: Database, health?: SqliteStorageHealth) {
    this.guard = guardOf(health);
    const columns = 'user_id, favourites_today, sold_out, language';
    this.ofUser = db.prepare(`SELECT ${columns} FROM notification_settings WHERE user_id = ?`);
    this.ofUsers = db.prepare(
      `SELECT ${columns} FROM notification_settings WHERE user_id IN (SELECT value FROM json_each(?))`,
    );
    this.put =
      db.prepare(`INSERT INTO notification_settings (user_id, favourites_today, sold_out, language) VALUES (?, ?, ?, ?)
      ON CONFLICT (user_id) DO UPDATE SET favourites_today = excluded.favourites_today, sold_out = excluded.sold_out, language = excluded.language`);
    this.remove = db.prepare('DELETE FROM notification_settings WHERE user_id = ?');
  }

  async settingsOf(userId: UserId) {
    const row = this.ofUser.get(userId);
    return row === undefined ? { ...defaultNotificationSettings } : settingsFromRow(row);
  }

  async settingsOfUsers(userIds: readonly UserId[]) {
    const stored = new Map(
      userIds.length === 0
        ? []
        : this.ofUsers.all(JSON.stringify(userIds)).map((row) => [row.user_id, settingsFromRow(row)] as const),
    );
    return new Map(userIds.map((userId) => [userId, stored.get(userId) ?? { ...defaultNotificationSettings }]));
  }

  async save(userId: UserId, settings: NotificationSettings) {
    this.guard(() =>
      this.put.run(userId, settings.favouritesToday ? 1 : 0, settings.soldOut ? 1 : 0, settings.language),
    );
  }

  async erase(userId: UserId) {
    return this.guard(() => this.remove.run(userId).changes > 0);
  }
}

interface ClaimRow extends SubscriptionRow {
  entry_id: number;
  payload: string;
  topic: string;
  due_at: number;
  expires_at: number;
  attempts: number;
  /** NULL: the entry's subscription is gone. */
  s_subscription_id: string | null;
}

/**
 * The outbox on the single SQLite writer: each write is one IMMEDIATE transaction and awaits nothing inside, so a
 * claim's read and its lease are one step no other claim comes between.
 */
export class SqlitePushOutbox implements PushOutbox {
  private readonly enqueueOnceInTransaction: Transaction<(key: string, entries: string, at: number) => boolean>;
  private readonly insertEntries: Statement<[string]>;
  private readonly onceKey: Statement<[string], number>;
  private readonly claimInTransaction: Transaction<(now: number, limit: number, leaseMs: number) => ClaimedPush[]>;
  private readonly deliver: Statement<[number]>;
  private readonly record: Statement<{ id: number; state: string; at: number; status: number | null; error: string }>;
  private readonly again: Statement<{ id: number; due: number; status: number | null; error: string }>;
  private readonly pending: Statement<[], number>;
  private readonly guard: Guard;
  private readonly writeAll: Transaction<(writes: readonly PendingWrite[]) => void>;
  private readonly pendingWrites: PendingWrite[] = [];

  constructor(db: Database, health?: SqliteStorageHealth) {
    this.guard = guardOf(health);
    // Entries of a subscription that is gone by now are not written: a claim would drop them.
    this.insertEntries = db.prepare<[string]>(
      `INSERT INTO push_outbox (subscription_id, payload, topic, due_at, expires_at)
       SELECT e.value ->> 0, e.value ->> 1, e.value ->> 2, e.value ->> 3, e.value ->> 4
       FROM json_each(?) AS e JOIN push_subscriptions AS s ON s.subscription_id = e.value ->> 0
       ORDER BY e.key`,
    );
    const insertKey = db.prepare<[string, number]>(
      'INSERT INTO push_once_keys (once_key, created_at) VALUES (?, ?) ON CONFLICT DO NOTHING',
    );
    this.onceKey = db.prepare<[string], number>('SELECT 1 FROM push_once_keys WHERE once_key = ?').pluck();
    this.enqueueOnceInTransaction = db.transaction((key: string, entries: string, at: number) => {
      if (insertKey.run(key, at).changes === 0) return false;
      this.insertEntries.run(entries);
      return true;
    });

    const due = db.prepare<{ now: number; limit: number }, ClaimRow>(
      `SELECT o.entry_id, o.payload, o.topic, o.due_at, o.expires_at, o.attempts, o.subscription_id,
         s.subscription_id AS s_subscription_id, s.user_id, s.endpoint, s.p256dh, s.auth, s.expiration_time, s.created_at
       FROM push_outbox AS o LEFT JOIN push_subscriptions AS s ON s.subscription_id = o.subscription_id
       WHERE o.state = 'pending' AND o.due_at <= @now AND o.expires_at > @now AND (o.leased_until IS NULL OR o.leased_until <= @now)
       ORDER BY o.due_at, o.entry_id LIMIT @limit`,
    );
    const lease = db.prepare<{ until: number; ids: string }>(
      'UPDATE push_outbox SET leased_until = @until WHERE entry_id IN (SELECT value FROM json_each(@ids))',
    );
    const drop = db.prepare<[string]>('DELETE FROM push_outbox WHERE entry_id IN (SELECT value FROM json_each(?))');
    // What expired before any attempt leaves the queue as expired (the outbox's depth counts what can still go out).
    const expire = db.prepare<{ now: number }>(
      `UPDATE push_outbox SET state = 'expired', last_error = 'expired before an attempt' WHERE state = 'pending' AND expires_at <= @now`,
    );
    this.claimInTransaction = db.transaction((now: number, limit: number, leaseMs: number) => {
      expire.run({ now });
      const claimed: ClaimedPush[] = [];
      // The foreign key keeps orphans out; should one be found all the same (a file written with foreign keys off),
      // it is dropped and the claim reads on, so that the limit counts entries it can hand out.
      for (;;) {
        const rows = due.all({ now, limit: limit - claimed.length });
        const orphans = rows.filter((row) => row.s_subscription_id === null).map((row) => row.entry_id);
        const live = rows.filter((row) => row.s_subscription_id !== null);
        if (live.length > 0) lease.run({ until: now + leaseMs, ids: JSON.stringify(live.map((row) => row.entry_id)) });
        for (const row of live) {
          claimed.push({
            id: String(row.entry_id),
            subscriptionId: row.subscription_id,
            payload: row.payload,
            topic: row.topic,
            dueAt: new Date(row.due_at),
            expiresAt: new Date(row.expires_at),
            attempts: row.attempts,
            subscription: subscriptionFromRow(row),
          });
        }
        if (orphans.length === 0) break;
        drop.run(JSON.stringify(orphans));
      }
      return claimed;
    });

    this.deliver = db.prepare("DELETE FROM push_outbox WHERE entry_id = ? AND state = 'pending'");
    this.record =
      db.prepare(`UPDATE push_outbox SET state = @state, attempts = attempts + 1, leased_until = NULL, settled_at = @at,
        last_status = @status, last_error = @error
      WHERE entry_id = @id AND state = 'pending'`);
    this.again =
      db.prepare(`UPDATE push_outbox SET due_at = @due, attempts = attempts + 1, leased_until = NULL, last_status = @status, last_error = @error
      WHERE entry_id = @id AND state = 'pending'`);
    this.pending = db.prepare<[], number>("SELECT count(*) FROM push_outbox WHERE state = 'pending'").pluck();
    this.writeAll = db.transaction((writes: readonly PendingWrite[]) => {
      for (const write of writes) write.run();
    });
  }

  async enqueueOnce(key: string, entries: readonly PushEntry[], at: Date) {
    return this.guard(() => this.enqueueOnceInTransaction.immediate(key, entriesJson(entries), at.getTime()));
  }

  async usedOnce(key: string) {
    return this.onceKey.get(key) !== undefined;
  }

  async enqueue(entries: readonly PushEntry[]) {
    if (entries.length === 0) return;
    this.guard(() => this.insertEntries.run(entriesJson(entries)));
  }

  async claim(now: Date, limit: number, leaseMs: number) {
    if (limit <= 0) return [];
    return this.guard(() => this.claimInTransaction.immediate(now.getTime(), limit, leaseMs));
  }

  async settle(id: string, settlement: PushSettlement, at: Date) {
    const key = entryKeyOf(id);
    if (key === undefined) return;
    return this.write(
      settlement.kind === 'delivered'
        ? () => this.deliver.run(key)
        : () =>
            this.record.run({
              id: key,
              state: settlement.kind,
              at: at.getTime(),
              status: settlement.status,
              error: settlement.error,
            }),
    );
  }

  async retry(id: string, at: Date, status: number | null, error: string) {
    const key = entryKeyOf(id);
    if (key === undefined) return;
    return this.write(() => this.again.run({ id: key, due: at.getTime(), status, error }));
  }

  /**
   * The attempts' ends of one turn of the event loop in one transaction, each settled once it is committed: a pass
   * ends thousands of attempts, and a commit each would write the WAL's pages anew for every one. What a crash loses
   * before the commit was never answered as settled: its lease runs out and it is sent again (at least once).
   */
  private write(run: () => unknown): Promise<void> {
    return new Promise((resolve, reject) => {
      this.pendingWrites.push({ run, resolve, reject });
      if (this.pendingWrites.length === 1) setImmediate(() => this.commitWrites());
    });
  }

  private commitWrites() {
    const writes = this.pendingWrites.splice(0);
    try {
      this.guard(() => this.writeAll.immediate(writes));
    } catch (error) {
      for (const write of writes) write.reject(error);
      return;
    }
    for (const write of writes) write.resolve();
  }

  async depth() {
    return this.pending.get() ?? 0;
  }
}

function entriesJson(entries: readonly PushEntry[]): string {
  return JSON.stringify(
    entries.map((entry) => [
      entry.subscriptionId,
      entry.payload,
      entry.topic,
      entry.dueAt.getTime(),
      entry.expiresAt.getTime(),
    ]),
  );
}

interface MarkedRow {
  user_id: string;
  meal_id: number;
  dish_id: number;
  name: string;
  labels: string;
  served_at: number;
}

/** Who to notify, one statement each: through meals_by_canteen_served, meals_by_dish_served and markings_by_meal. */
export class SqlitePushAudience implements PushAudience {
  private readonly marked: Statement<{ canteen: string; from: number; to: number }, MarkedRow>;
  private readonly markers: Statement<[MealId], string>;

  constructor(db: Database) {
    // Each serving of the day once per person who marked any serving of its dish (past and withdrawn ones included).
    this.marked = db.prepare(`SELECT DISTINCT k.user_id, m.meal_id, m.dish_id, m.name, m.labels, m.served_at
      FROM meals AS m
      JOIN meals AS serving ON serving.dish_id = m.dish_id
      JOIN markings AS k ON k.meal_id = serving.meal_id
      WHERE m.canteen_id = @canteen AND m.served_at >= @from AND m.served_at < @to
        AND m.withdrawn_at IS NULL AND m.dish_id IS NOT NULL
      ORDER BY k.user_id, m.served_at, m.meal_id`);
    this.markers = db
      .prepare<[MealId], string>('SELECT user_id FROM markings WHERE meal_id = ? ORDER BY user_id')
      .pluck();
  }

  /** The window is the canteen day's (its start and end on the canteen's clocks): `date` names it and adds nothing. */
  async markedServingsOn(
    canteenId: CanteenId,
    _date: LocalDate,
    window: { readonly from: Date; readonly to: Date },
  ): Promise<readonly MarkedServing[]> {
    return this.marked.all({ canteen: canteenId, from: window.from.getTime(), to: window.to.getTime() }).map((row) => ({
      userId: row.user_id,
      mealId: row.meal_id,
      dishId: row.dish_id,
      name: row.name,
      labels: JSON.parse(row.labels) as LabelCode[],
      servedAt: new Date(row.served_at),
    }));
  }

  async markersOf(mealId: MealId): Promise<readonly UserId[]> {
    return this.markers.all(mealId);
  }
}

/** Web Push's state in the same SQLite database as the menu: the four ports of a PushStore. */
export function createSqlitePushStore(db: Database, health?: SqliteStorageHealth): PushStore {
  return {
    pushSubscriptions: new SqlitePushSubscriptionRepository(db, health),
    notificationSettings: new SqliteNotificationSettingsRepository(db, health),
    pushOutbox: new SqlitePushOutbox(db, health),
    pushAudience: new SqlitePushAudience(db),
  };
}
