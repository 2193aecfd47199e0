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
import { randomUUID } from 'node:crypto';
import type { Pool, QueryResultRow } from 'pg';
import { fromEpochMs } from './meal-rows.js';
import type { PostgresStorageHealth } from './storage-health.js';
import { TransactionRunner, type TransactionOptions } from './transaction.js';

interface SubscriptionRow {
  subscription_id: string;
  user_id: string;
  endpoint: string;
  p256dh: string;
  auth: string;
  expiration_time: Date | null;
  created_at: Date;
}

const subscriptionColumns = 'subscription_id, user_id, endpoint, p256dh, auth, expiration_time, created_at';

function subscriptionFromRow(row: SubscriptionRow): PushSubscription {
  return {
    id: row.subscription_id,
    userId: row.user_id,
    endpoint: row.endpoint,
    p256dh: row.p256dh,
    auth: row.auth,
    expirationTime: row.expiration_time,
    createdAt: row.created_at,
  };
}

/** An instant parameter that may be NULL, as epoch milliseconds. */
const nullableFromEpochMs = (parameter: string) =>
  `CASE WHEN ${parameter}::bigint IS NULL THEN NULL ELSE ${fromEpochMs(parameter)} END`;

/** An entry id as the outbox hands it out (its bigint key as text); undefined for text no entry has. */
function entryKeyOf(id: string): string | undefined {
  return /^[1-9]\d{0,17}$/.test(id) ? id : undefined;
}

/** One statement on the pool, through the storage's health when there is one. */
class Statements {
  constructor(
    readonly pool: Pool,
    private readonly health: PostgresStorageHealth | undefined,
  ) {}

  query<R extends QueryResultRow = QueryResultRow>(sql: string, params: unknown[]) {
    const run = () => this.pool.query<R>(sql, params);
    return this.health === undefined ? run() : this.health.guard(run);
  }
}

/**
 * Subscriptions by endpoint. A save is one transaction: the endpoint's row inserted or updated (ON
 * CONFLICT, so two saves of one new endpoint at once make one row), then the person's oldest past the cap removed, with
 * their notifications (the outbox's foreign key cascades).
 */
export class PostgresPushSubscriptionRepository implements PushSubscriptionRepository {
  constructor(
    private readonly statements: Statements,
    private readonly transactions: TransactionRunner,
  ) {}

  async save(subscription: NewPushSubscription, at: Date, maxPerPerson: number) {
    const newId = randomUUID();
    return this.transactions.run(async (client) => {
      const { rows } = await client.query<SubscriptionRow>(
        `INSERT INTO push_subscriptions (subscription_id, user_id, endpoint, p256dh, auth, expiration_time, created_at)
         VALUES ($1, $2, $3, $4, $5, ${nullableFromEpochMs('$6')}, ${fromEpochMs('$7')})
         ON CONFLICT (endpoint) DO UPDATE SET user_id = excluded.user_id, p256dh = excluded.p256dh, auth = excluded.auth,
           expiration_time = excluded.expiration_time
         RETURNING ${subscriptionColumns}`,
        [
          newId,
          subscription.userId,
          subscription.endpoint,
          subscription.p256dh,
          subscription.auth,
          subscription.expirationTime === null ? null : subscription.expirationTime.getTime(),
          at.getTime(),
        ],
      );
      // The person's subscriptions but the newest `maxPerPerson`, the one just saved counted.
      await client.query(
        `DELETE FROM push_subscriptions WHERE subscription_id IN (
           SELECT subscription_id FROM push_subscriptions WHERE user_id = $1 ORDER BY created_at DESC, seq DESC OFFSET $2)`,
        [subscription.userId, Math.max(0, maxPerPerson)],
      );
      const row = rows[0]!;
      return { subscription: { ...subscription, ...subscriptionFromRow(row) }, created: row.subscription_id === newId };
    });
  }

  async subscriptionsOf(userId: UserId) {
    const { rows } = await this.statements.pool.query<SubscriptionRow>(
      `SELECT ${subscriptionColumns} FROM push_subscriptions WHERE user_id = $1 ORDER BY created_at, seq`,
      [userId],
    );
    return rows.map(subscriptionFromRow);
  }

  /** By user id in "C" order (the column's collation: JavaScript's order of strings), then age. */
  async subscriptionsOfUsers(userIds: readonly UserId[]) {
    if (userIds.length === 0) return [];
    const { rows } = await this.statements.pool.query<SubscriptionRow>(
      `SELECT ${subscriptionColumns} FROM push_subscriptions WHERE user_id = ANY ($1::text[]) ORDER BY user_id, created_at, seq`,
      [[...userIds]],
    );
    return rows.map(subscriptionFromRow);
  }

  async remove(userId: UserId, endpoint: string) {
    const { rowCount } = await this.statements.query(
      'DELETE FROM push_subscriptions WHERE user_id = $1 AND endpoint = $2',
      [userId, endpoint],
    );
    return (rowCount ?? 0) > 0;
  }

  async removeGone(subscriptionId: string) {
    await this.statements.query('DELETE FROM push_subscriptions WHERE subscription_id = $1', [subscriptionId]);
  }

  async eraseAll(userId: UserId) {
    const { rowCount } = await this.statements.query('DELETE FROM push_subscriptions WHERE user_id = $1', [userId]);
    return rowCount ?? 0;
  }
}

interface SettingsRow {
  user_id: string;
  favourites_today: boolean;
  sold_out: boolean;
  language: NotificationSettings['language'];
}

const settingsFromRow = (row: SettingsRow): NotificationSettings => ({
  favouritesToday: row.favourites_today,
  soldOut: row.sold_out,
  language: row.language,
});
const settingsColumns = 'user_id, favourites_today, sold_out, language';

export class PostgresNotificationSettingsRepository implements NotificationSettingsRepository {
  constructor(private readonly statements: Statements) {}

  async settingsOf(userId: UserId) {
    const { rows } = await this.statements.pool.query<SettingsRow>(
      `SELECT ${settingsColumns} FROM notification_settings WHERE user_id = $1`,
      [userId],
    );
    return rows[0] === undefined ? { ...defaultNotificationSettings } : settingsFromRow(rows[0]);
  }

  async settingsOfUsers(userIds: readonly UserId[]) {
    const { rows } =
      userIds.length === 0
        ? { rows: [] }
        : await this.statements.pool.query<SettingsRow>(
            `SELECT ${settingsColumns} FROM notification_settings WHERE user_id = ANY ($1::text[])`,
            [[...userIds]],
          );
    const stored = new Map(rows.map((row) => [row.user_id, settingsFromRow(row)] as const));
    return new Map(userIds.map((userId) => [userId, stored.get(userId) ?? { ...defaultNotificationSettings }]));
  }

  async save(userId: UserId, settings: NotificationSettings) {
    await this.statements.query(
      `INSERT INTO notification_settings (${settingsColumns}) VALUES ($1, $2, $3, $4)
       ON CONFLICT (user_id) DO UPDATE SET favourites_today = excluded.favourites_today, sold_out = excluded.sold_out, language = excluded.language`,
      [userId, settings.favouritesToday, settings.soldOut, settings.language],
    );
  }

  async erase(userId: UserId) {
    const { rowCount } = await this.statements.query('DELETE FROM notification_settings WHERE user_id = $1', [userId]);
    return (rowCount ?? 0) > 0;
  }
}

interface ClaimRow extends SubscriptionRow {
  entry_id: string;
  payload: string;
  topic: string;
  due_at: Date;
  expires_at: Date;
  attempts: number;
}

/**
 * The entries of the five array parameters from `$first` on (subscription ids, payloads, topics, due and expiry
 * instants
 * as epoch milliseconds) whose subscription still exists, in their order (`e.n`). The subscriptions are locked FOR KEY
 * SHARE (the statement ends with it), so one removed at the same time is either skipped (removed first) or waits for
 * this write, whose entries its removal then takes along.
 */
function entriesToWrite(first: number): string {
  const [ids, payloads, topics, due, expires] = [0, 1, 2, 3, 4].map((offset) => `$${first + offset}`);
  return `SELECT e.subscription_id, e.payload, e.topic, ${fromEpochMs('e.due_ms')}, ${fromEpochMs('e.expires_ms')}
  FROM unnest(${ids}::text[], ${payloads}::text[], ${topics}::text[], ${due}::bigint[], ${expires}::bigint[]) WITH ORDINALITY
    AS e (subscription_id, payload, topic, due_ms, expires_ms, n)
  JOIN push_subscriptions AS s ON s.subscription_id = e.subscription_id`;
}

const entryParams = (entries: readonly PushEntry[]) => [
  entries.map((entry) => entry.subscriptionId),
  entries.map((entry) => entry.payload),
  entries.map((entry) => entry.topic),
  entries.map((entry) => entry.dueAt.getTime()),
  entries.map((entry) => entry.expiresAt.getTime()),
];

/**
 * The outbox across instances sharing one database. Each method is one statement: an enqueueOnce writes its key and
 * its entries together (a second instance with the same key waits for the first, then writes nothing); a claim locks
 * its due entries FOR UPDATE SKIP LOCKED and leases them in the same statement, so no two claims take one entry, and
 * one that a crashed instance held is due again when its lease ends.
 */
export class PostgresPushOutbox implements PushOutbox {
  constructor(private readonly statements: Statements) {}

  async enqueueOnce(key: string, entries: readonly PushEntry[], at: Date) {
    const { rows } = await this.statements.query<{ written: boolean }>(
      `WITH once AS (
         INSERT INTO push_once_keys (once_key, created_at) VALUES ($1, ${fromEpochMs('$2')}) ON CONFLICT DO NOTHING RETURNING once_key),
       entries AS (
         INSERT INTO push_outbox (subscription_id, payload, topic, due_at, expires_at)
         ${entriesToWrite(3)}
         WHERE EXISTS (SELECT 1 FROM once)
         ORDER BY e.n
         FOR KEY SHARE OF s
         RETURNING 1)
       SELECT EXISTS (SELECT 1 FROM once) AS written`,
      [key, at.getTime(), ...entryParams(entries)],
    );
    return rows[0]?.written === true;
  }

  async usedOnce(key: string) {
    const { rows } = await this.statements.query('SELECT 1 FROM push_once_keys WHERE once_key = $1', [key]);
    return rows.length > 0;
  }

  async enqueue(entries: readonly PushEntry[]) {
    if (entries.length === 0) return;
    await this.statements.query(
      `INSERT INTO push_outbox (subscription_id, payload, topic, due_at, expires_at)
       ${entriesToWrite(1)}
       ORDER BY e.n
       FOR KEY SHARE OF s`,
      entryParams(entries),
    );
  }

  async claim(now: Date, limit: number, leaseMs: number): Promise<readonly ClaimedPush[]> {
    if (limit <= 0) return [];
    // What expired before any attempt leaves the queue as expired (the outbox's depth counts what can still go out);
    // rows another claim holds are left to it.
    await this.statements.query(
      `UPDATE push_outbox SET state = 'expired', last_error = 'expired before an attempt'
       WHERE entry_id IN (SELECT entry_id FROM push_outbox WHERE state = 'pending' AND expires_at <= ${fromEpochMs('$1')} FOR UPDATE SKIP LOCKED)`,
      [now.getTime()],
    );
    // The foreign key keeps every entry's subscription: the join drops none.
    const { rows } = await this.statements.query<ClaimRow>(
      `WITH due AS (
         SELECT entry_id FROM push_outbox
         WHERE state = 'pending' AND due_at <= ${fromEpochMs('$1')} AND expires_at > ${fromEpochMs('$1')}
           AND (leased_until IS NULL OR leased_until <= ${fromEpochMs('$1')})
         ORDER BY due_at, entry_id LIMIT $2
         FOR UPDATE SKIP LOCKED),
       leased AS (
         UPDATE push_outbox AS o SET leased_until = ${fromEpochMs('$3')} FROM due WHERE o.entry_id = due.entry_id
         RETURNING o.entry_id, o.subscription_id, o.payload, o.topic, o.due_at, o.expires_at, o.attempts)
       SELECT leased.*, s.user_id, s.endpoint, s.p256dh, s.auth, s.expiration_time, s.created_at
       FROM leased JOIN push_subscriptions AS s ON s.subscription_id = leased.subscription_id
       ORDER BY leased.due_at, leased.entry_id`,
      [now.getTime(), limit, now.getTime() + leaseMs],
    );
    return rows.map((row) => ({
      id: String(row.entry_id),
      subscriptionId: row.subscription_id,
      payload: row.payload,
      topic: row.topic,
      dueAt: row.due_at,
      expiresAt: row.expires_at,
      attempts: row.attempts,
      subscription: subscriptionFromRow(row),
    }));
  }

  /**
   * Delivered: deleted. Failed or expired: kept, with the attempt's answer. An entry settled before stays as it was.
   */
  async settle(id: string, settlement: PushSettlement, at: Date) {
    const key = entryKeyOf(id);
    if (key === undefined) return;
    if (settlement.kind === 'delivered') {
      await this.statements.query(`DELETE FROM push_outbox WHERE entry_id = $1 AND state = 'pending'`, [key]);
      return;
    }
    await this.statements.query(
      `UPDATE push_outbox SET state = $2, attempts = attempts + 1, leased_until = NULL, settled_at = ${fromEpochMs('$3')},
         last_status = $4, last_error = $5
       WHERE entry_id = $1 AND state = 'pending'`,
      [key, settlement.kind, at.getTime(), settlement.status, settlement.error],
    );
  }

  async retry(id: string, at: Date, status: number | null, error: string) {
    const key = entryKeyOf(id);
    if (key === undefined) return;
    await this.statements.query(
      `UPDATE push_outbox SET due_at = ${fromEpochMs('$2')}, attempts = attempts + 1, leased_until = NULL, last_status = $3, last_error = $4
       WHERE entry_id = $1 AND state = 'pending'`,
      [key, at.getTime(), status, error],
    );
  }

  async depth() {
    const { rows } = await this.statements.pool.query<{ pending: number }>(
      `SELECT count(*)::int AS pending FROM push_outbox WHERE state = 'pending'`,
    );
    return rows[0]?.pending ?? 0;
  }
}

interface MarkedRow {
  user_id: string;
  meal_id: string;
  dish_id: string;
  name: string;
  labels: LabelCode[];
  served_at: Date;
}

/** Who to notify, one statement each: through meals_menu_order, meals_by_dish and markings_by_meal. */
export class PostgresPushAudience implements PushAudience {
  constructor(private readonly pool: Pool) {}

  /**
   * Each serving of the day once per person who marked any serving of its dish (past and withdrawn ones included).
   * The window is the canteen day's (its start and end on the canteen's clocks): `date` names it and adds nothing.
   */
  async markedServingsOn(
    canteenId: CanteenId,
    _date: LocalDate,
    window: { readonly from: Date; readonly to: Date },
  ): Promise<readonly MarkedServing[]> {
    const { rows } = await this.pool.query<MarkedRow>(
      `SELECT fans.user_id, m.meal_id, m.dish_id, m.name, m.labels, m.served_at
       FROM meals AS m
       CROSS JOIN LATERAL (
         SELECT DISTINCT k.user_id FROM meals AS serving JOIN markings AS k ON k.meal_id = serving.meal_id
         WHERE serving.dish_id = m.dish_id) AS fans
       WHERE m.canteen_id = $1 AND m.served_at >= ${fromEpochMs('$2')} AND m.served_at < ${fromEpochMs('$3')}
         AND m.withdrawn_at IS NULL AND m.dish_id IS NOT NULL
       ORDER BY fans.user_id COLLATE "C", m.served_at, m.meal_id`,
      [canteenId, window.from.getTime(), window.to.getTime()],
    );
    return rows.map((row) => ({
      userId: row.user_id,
      mealId: Number(row.meal_id),
      dishId: Number(row.dish_id),
      name: row.name,
      labels: row.labels,
      servedAt: row.served_at,
    }));
  }

  async markersOf(mealId: MealId): Promise<readonly UserId[]> {
    const { rows } = await this.pool.query<{ user_id: string }>(
      'SELECT user_id FROM markings WHERE meal_id = $1 ORDER BY user_id COLLATE "C"',
      [mealId],
    );
    return rows.map((row) => row.user_id);
  }
}

/**
 * Web Push's state in the same PostgreSQL database as the menu: the four ports of a PushStore over one
 * pool of a migrated database, the pool the other repositories use (see createPostgresAdapters), with the same
 * transaction options (`health` turns a failing database's errors into `StorageUnavailableError`s).
 */
export function createPostgresPushStore(pool: Pool, options: TransactionOptions = {}): PushStore {
  const statements = new Statements(pool, options.health);
  return {
    pushSubscriptions: new PostgresPushSubscriptionRepository(statements, new TransactionRunner(pool, options)),
    notificationSettings: new PostgresNotificationSettingsRepository(statements),
    pushOutbox: new PostgresPushOutbox(statements),
    pushAudience: new PostgresPushAudience(pool),
  };
}
