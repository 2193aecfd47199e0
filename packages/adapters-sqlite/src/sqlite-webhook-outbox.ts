import {
  addedServingsOf,
  deliveriesOf,
  eventIdOf,
  favouritesUpcomingEvents,
  wantedServing,
  recordedEventOf,
  storedEventData,
  subjectOf,
  type Delivery,
  type RecordedEvent,
} from '@canteen-meals/domain';
import type { AttemptOutcome, ClaimedDelivery, ClaimRoom, WebhookOutbox } from '@canteen-meals/domain/ports';
import type { Database, Statement, Transaction } from 'better-sqlite3';
import { randomUUID } from 'node:crypto';
import {
  deliveryColumns,
  deliveryFromRow,
  webhookColumns,
  webhookFromRow,
  type DeliveryRow,
  type WebhookRow,
} from './sqlite-webhook-rows.js';
import type { SqliteStorageHealth } from './storage-health.js';

interface OutboxRow {
  seq: number;
  event_id: string;
  event_type: string;
  occurred_at: number;
  data: string;
}

interface FavouriteRow {
  user_id: string;
  canteen_id: string;
  date: string;
  meal_id: number;
  dish_id: number;
  name: string;
  served_at: number;
  labels: string;
  without_labels: string | null;
  only_labels: string | null;
  avoided: 0 | 1;
}

type LogCursor = { readonly createdAt: Date; readonly eventId: string };

/**
 * The outbox on the single SQLite instance: each method is one IMMEDIATE transaction, so the one writer of the file is
 * also the one that takes events and claims deliveries; nothing awaits inside.
 */
export class SqliteWebhookOutbox implements WebhookOutbox {
  private readonly fanOutInTransaction: Transaction<(at: Date, limit: number) => number>;
  private readonly claimInTransaction: Transaction<
    (at: Date, limit: number, leaseMs: number, room: ClaimRoom | undefined) => ClaimedDelivery[]
  >;
  private readonly recordInTransaction: Transaction<
    (webhookId: string, eventId: string, outcome: AttemptOutcome, at: Date, disable: boolean) => void
  >;
  private readonly firstPage: Statement<[string, number], DeliveryRow>;
  private readonly nextPage: Statement<[string, number, string, number], DeliveryRow>;
  private readonly earliestDue: Statement<[string], number | null>;
  private readonly pending: Statement<[], number>;

  constructor(
    db: Database,
    private readonly health?: SqliteStorageHealth,
  ) {
    const takeEvents = db.prepare<[number], OutboxRow>(
      'SELECT seq, event_id, event_type, occurred_at, data FROM webhook_outbox ORDER BY seq LIMIT ?',
    );
    const deleteTaken = db.prepare<[number]>('DELETE FROM webhook_outbox WHERE seq <= ?');
    // For each added meal served after the instant, not withdrawn, with a dish: the users who marked any serving of
    // the dish (withdrawn and past ones included), through meals_by_dish_served and markings_by_meal.
    const favourites = db.prepare<{ added: string; at: number }, FavouriteRow>(`SELECT DISTINCT k.user_id,
        added.value ->> 0 AS canteen_id, added.value ->> 1 AS date, m.meal_id, m.dish_id, m.name, m.served_at,
        m.labels, p.without_labels, p.only_labels,
        EXISTS (SELECT 1 FROM dish_aversions AS a WHERE a.user_id = k.user_id AND a.dish_id = m.dish_id) AS avoided
      FROM json_each(@added) AS added
      JOIN meals AS m ON m.meal_id = added.value ->> 2
      JOIN meals AS serving ON serving.dish_id = m.dish_id
      JOIN markings AS k ON k.meal_id = serving.meal_id
      LEFT JOIN label_preferences AS p ON p.user_id = k.user_id
      WHERE m.served_at > @at AND m.withdrawn_at IS NULL AND m.dish_id IS NOT NULL`);
    const enabledWebhooks = db.prepare<[], WebhookRow>(
      `SELECT ${webhookColumns} FROM webhooks WHERE disabled_at IS NULL`,
    );
    const insertDeliveries = db.prepare<{ rows: string; at: number }>(`INSERT INTO webhook_deliveries
        (webhook_id, event_id, event_type, occurred_at, data, user_id, state, attempts, next_attempt_at, created_at)
      SELECT value ->> 0, value ->> 1, value ->> 2, value ->> 3, value ->> 4, value ->> 5, 'pending', 0, @at, @at
      FROM json_each(@rows) ORDER BY key`);
    this.fanOutInTransaction = db.transaction((at: Date, limit: number) => {
      const rows = takeEvents.all(limit);
      if (rows.length === 0) return 0;
      deleteTaken.run(rows[rows.length - 1]!.seq);
      const taken = rows.map((row) =>
        recordedEventOf({
          id: row.event_id,
          type: row.event_type,
          occurredAt: new Date(row.occurred_at),
          data: row.data,
        }),
      );
      const added = addedServingsOf(taken).map((serving) => [serving.canteenId, serving.date, serving.mealId]);
      const found = added.length === 0 ? [] : favourites.all({ added: JSON.stringify(added), at: at.getTime() });
      const wanted = found.filter((row) =>
        wantedServing(
          JSON.parse(row.labels) as string[],
          row.without_labels === null || row.only_labels === null
            ? null
            : { without: JSON.parse(row.without_labels) as string[], only: JSON.parse(row.only_labels) as string[] },
          row.avoided === 1,
        ),
      );
      const derived: RecordedEvent[] = favouritesUpcomingEvents(
        wanted.map((row) => ({
          userId: row.user_id,
          canteenId: row.canteen_id,
          date: row.date,
          mealId: row.meal_id,
          dishId: row.dish_id,
          name: row.name,
          servedAt: new Date(row.served_at),
        })),
      ).map((event) => ({ ...event, id: eventIdOf(randomUUID()), occurredAt: at }));
      const deliveries = deliveriesOf([...taken, ...derived], enabledWebhooks.all().map(webhookFromRow)).map(
        ({ webhookId, event }) => [
          webhookId,
          event.id,
          event.type,
          event.occurredAt.getTime(),
          storedEventData(event),
          subjectOf(event),
        ],
      );
      if (deliveries.length > 0) insertDeliveries.run({ rows: JSON.stringify(deliveries), at: at.getTime() });
      return rows.length;
    });

    const dueDeliveries = db.prepare<
      { at: number; limit: number },
      DeliveryRow & { seq: number } & { [K in keyof WebhookRow as `w_${K}`]: WebhookRow[K] }
    >(
      `SELECT d.seq, ${prefixed('d', deliveryColumns)}, ${webhookColumns
        .split(', ')
        .map((column) => `w.${column} AS w_${column}`)
        .join(', ')}
      FROM webhook_deliveries AS d JOIN webhooks AS w ON w.webhook_id = d.webhook_id
      WHERE d.state = 'pending' AND d.next_attempt_at <= @at AND w.disabled_at IS NULL
      ORDER BY d.next_attempt_at, d.seq LIMIT @limit`,
    );
    // With a room: the oldest due deliveries of each endpoint, as many as it has room for (`busy`: a JSON object of
    // endpoint id to attempts under way), then the oldest of those first.
    const dueWithinRoom = db.prepare<
      { at: number; limit: number; per: number; busy: string },
      DeliveryRow & { seq: number } & { [K in keyof WebhookRow as `w_${K}`]: WebhookRow[K] }
    >(
      `SELECT ranked.* FROM (
        SELECT d.seq, ${prefixed('d', deliveryColumns)}, ${webhookColumns
          .split(', ')
          .map((column) => `w.${column} AS w_${column}`)
          .join(', ')},
          row_number() OVER (PARTITION BY d.webhook_id ORDER BY d.next_attempt_at, d.seq) AS nth
        FROM webhook_deliveries AS d JOIN webhooks AS w ON w.webhook_id = d.webhook_id
        WHERE d.state = 'pending' AND d.next_attempt_at <= @at AND w.disabled_at IS NULL) AS ranked
      LEFT JOIN json_each(@busy) AS busy ON busy.key = ranked.webhook_id
      WHERE ranked.nth <= @per - coalesce(busy.value, 0)
      ORDER BY ranked.next_attempt_at, ranked.seq LIMIT @limit`,
    );
    const lease = db.prepare<{ until: number; seqs: string }>(
      'UPDATE webhook_deliveries SET next_attempt_at = @until WHERE seq IN (SELECT value FROM json_each(@seqs))',
    );
    this.claimInTransaction = db.transaction(
      (at: Date, limit: number, leaseMs: number, room: ClaimRoom | undefined) => {
        const rows =
          room === undefined
            ? dueDeliveries.all({ at: at.getTime(), limit })
            : dueWithinRoom.all({
                at: at.getTime(),
                limit,
                per: room.perEndpoint,
                busy: JSON.stringify(Object.fromEntries(room.busy)),
              });
        if (rows.length === 0) return [];
        // The lease is the due instant moved to its end: a lease that runs out without a record makes it due again.
        const until = at.getTime() + leaseMs;
        lease.run({ until, seqs: JSON.stringify(rows.map((row) => row.seq)) });
        return rows.map((row) => ({
          webhook: webhookFromRow(unprefixed(row)),
          delivery: deliveryFromRow({ ...row, next_attempt_at: until }),
          leasedUntil: new Date(until),
        }));
      },
    );

    const recordAttempt = db.prepare<{
      webhook: string;
      event: string;
      state: string;
      next: number | null;
      at: number;
      status: number | null;
      error: string | null;
    }>(
      `UPDATE webhook_deliveries SET state = @state, attempts = attempts + 1, next_attempt_at = @next, last_attempt_at = @at,
        last_status = @status, last_error = @error
      WHERE webhook_id = @webhook AND event_id = @event`,
    );
    const keepFailing = db.prepare<{ webhook: string; delivered: 0 | 1; disable: 0 | 1; at: number }>(
      `UPDATE webhooks SET failing_since = CASE WHEN @delivered = 1 THEN NULL ELSE coalesce(failing_since, @at) END,
        disabled_at = CASE WHEN @disable = 1 THEN coalesce(disabled_at, @at) ELSE disabled_at END
      WHERE webhook_id = @webhook`,
    );
    this.recordInTransaction = db.transaction(
      (webhookId: string, eventId: string, outcome: AttemptOutcome, at: Date, disable: boolean) => {
        const delivered = outcome.kind === 'delivered';
        const retryAt = outcome.kind === 'failed' ? outcome.retryAt : null;
        const changed = recordAttempt.run({
          webhook: webhookId,
          event: eventId,
          state: delivered ? 'delivered' : retryAt === null ? 'failed' : 'pending',
          next: retryAt === null ? null : retryAt.getTime(),
          at: at.getTime(),
          status: outcome.status,
          error: outcome.kind === 'failed' ? outcome.error : null,
        }).changes;
        // The endpoint was removed meanwhile, its deliveries with it.
        if (changed === 0) return;
        keepFailing.run({
          webhook: webhookId,
          delivered: delivered ? 1 : 0,
          disable: disable ? 1 : 0,
          at: at.getTime(),
        });
      },
    );

    this.firstPage = db.prepare(`SELECT ${deliveryColumns} FROM webhook_deliveries WHERE webhook_id = ?
      ORDER BY created_at DESC, event_id DESC LIMIT ?`);
    this.nextPage =
      db.prepare(`SELECT ${deliveryColumns} FROM webhook_deliveries WHERE webhook_id = ? AND (created_at, event_id) < (?, ?)
      ORDER BY created_at DESC, event_id DESC LIMIT ?`);
    this.earliestDue = db
      .prepare<[string], number | null>(
        `SELECT min(due) FROM (
          SELECT min(d.next_attempt_at) AS due FROM webhook_deliveries AS d JOIN webhooks AS w ON w.webhook_id = d.webhook_id
            WHERE d.state = 'pending' AND w.disabled_at IS NULL AND d.webhook_id NOT IN (SELECT value FROM json_each(?))
          UNION ALL SELECT min(occurred_at) FROM webhook_outbox)`,
      )
      .pluck();
    this.pending = db.prepare<[], number>("SELECT count(*) FROM webhook_deliveries WHERE state = 'pending'").pluck();
  }

  async fanOut(at: Date, limit: number): Promise<number> {
    return this.guarded(() => this.fanOutInTransaction.immediate(at, Math.max(0, limit)));
  }

  async claimDue(at: Date, limit: number, leaseMs: number, room?: ClaimRoom): Promise<readonly ClaimedDelivery[]> {
    return this.guarded(() => this.claimInTransaction.immediate(at, Math.max(0, limit), leaseMs, room));
  }

  async record(webhookId: string, eventId: string, outcome: AttemptOutcome, at: Date, disable: boolean): Promise<void> {
    this.guarded(() => this.recordInTransaction.immediate(webhookId, eventId, outcome, at, disable));
  }

  async deliveries(
    webhookId: string,
    page: { readonly limit: number; readonly before?: LogCursor },
  ): Promise<readonly Delivery[]> {
    const limit = Math.max(0, page.limit);
    const { before } = page;
    const rows =
      before === undefined
        ? this.firstPage.all(webhookId, limit)
        : this.nextPage.all(webhookId, before.createdAt.getTime(), before.eventId, limit);
    return rows.map(deliveryFromRow);
  }

  async nextDueAt(except?: ReadonlySet<string>): Promise<Date | null> {
    const due = this.earliestDue.get(JSON.stringify([...(except ?? [])])) ?? null;
    return due === null ? null : new Date(due);
  }

  async pendingCount(): Promise<number> {
    return this.pending.get() ?? 0;
  }

  private guarded<T>(write: () => T): T {
    return this.health === undefined ? write() : this.health.guard(write);
  }
}

function prefixed(table: string, columns: string): string {
  return columns
    .split(', ')
    .map((column) => `${table}.${column}`)
    .join(', ');
}

/** The webhook's columns of a claimed row, which carry a `w_` prefix beside the delivery's. */
function unprefixed(row: { [K in keyof WebhookRow as `w_${K}`]: WebhookRow[K] }): WebhookRow {
  return {
    webhook_id: row.w_webhook_id,
    url: row.w_url,
    events: row.w_events,
    secret: row.w_secret,
    created_at: row.w_created_at,
    updated_at: row.w_updated_at,
    failing_since: row.w_failing_since,
    disabled_at: row.w_disabled_at,
  };
}
