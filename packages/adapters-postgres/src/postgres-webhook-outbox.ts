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
import { randomUUID } from 'node:crypto';
import type { Pool, PoolClient, QueryResultRow } from 'pg';
import { fromEpochMs } from './meal-rows.js';
import type { PostgresStorageHealth } from './storage-health.js';
import type { TransactionRunner } from './transaction.js';
import {
  deliveryColumnList,
  deliveryColumns,
  deliveryFromRow,
  webhookColumnList,
  webhookColumns,
  webhookFromRow,
  type DeliveryRow,
  type WebhookRow,
} from './webhook-rows.js';

interface OutboxRow {
  seq: string;
  event_id: string;
  event_type: string;
  occurred_at: Date;
  data: string;
}

interface FavouriteRow {
  user_id: string;
  canteen_id: string;
  date: string;
  meal_id: string;
  dish_id: string;
  name: string;
  served_at: Date;
  labels: string[];
  without_labels: string[] | null;
  only_labels: string[] | null;
  avoided: boolean;
}

type ClaimRow = DeliveryRow & { [K in keyof WebhookRow as `w_${K}`]: WebhookRow[K] };

/**
 * The outbox across instances sharing one database: a fan-out takes its events, and a claim its deliveries, with
 * FOR UPDATE SKIP LOCKED, so no two instances take the same row; a claim's lease is the due instant moved to the
 * lease's end, so a crashed attempt is due again then, for any instance.
 */
export class PostgresWebhookOutbox implements WebhookOutbox {
  constructor(
    private readonly pool: Pool,
    private readonly transactions: TransactionRunner,
    private readonly health?: PostgresStorageHealth,
  ) {}

  async fanOut(at: Date, limit: number): Promise<number> {
    return this.transactions.run(async (client) => {
      const { rows } = await client.query<OutboxRow>(
        `DELETE FROM webhook_outbox WHERE seq IN (SELECT seq FROM webhook_outbox ORDER BY seq LIMIT $1 FOR UPDATE SKIP LOCKED)
         RETURNING seq, event_id, event_type, occurred_at, data`,
        [Math.max(0, limit)],
      );
      if (rows.length === 0) return 0;
      const taken = rows
        .sort((a, b) => Number(a.seq) - Number(b.seq))
        .map((row) =>
          recordedEventOf({ id: row.event_id, type: row.event_type, occurredAt: row.occurred_at, data: row.data }),
        );
      const derived: RecordedEvent[] = favouritesUpcomingEvents(await favouritesOf(client, taken, at)).map((event) => ({
        ...event,
        id: eventIdOf(randomUUID()),
        occurredAt: at,
      }));
      const endpoints = await client.query<WebhookRow>(
        `SELECT ${webhookColumns} FROM webhooks WHERE disabled_at IS NULL`,
      );
      const deliveries = deliveriesOf([...taken, ...derived], endpoints.rows.map(webhookFromRow));
      if (deliveries.length > 0) {
        await client.query(
          `INSERT INTO webhook_deliveries (webhook_id, event_id, event_type, occurred_at, data, user_id, state, attempts, next_attempt_at, created_at)
           SELECT webhook_id, event_id, event_type, ${fromEpochMs('occurred_ms')}, data, user_id, 'pending', 0, ${fromEpochMs('$7')}, ${fromEpochMs('$7')}
           FROM unnest($1::text[], $2::text[], $3::text[], $4::bigint[], $5::text[], $6::text[]) WITH ORDINALITY
             AS d (webhook_id, event_id, event_type, occurred_ms, data, user_id, n)
           ORDER BY n`,
          [
            deliveries.map(({ webhookId }) => webhookId),
            deliveries.map(({ event }) => event.id),
            deliveries.map(({ event }) => event.type),
            deliveries.map(({ event }) => event.occurredAt.getTime()),
            deliveries.map(({ event }) => storedEventData(event)),
            deliveries.map(({ event }) => subjectOf(event)),
            at.getTime(),
          ],
        );
      }
      return rows.length;
    });
  }

  /**
   * One statement: the due deliveries locked (skipping those another instance is claiming) and leased. With a room,
   * the candidates are first the oldest due deliveries of each endpoint, as many as it has room for.
   */
  async claimDue(at: Date, limit: number, leaseMs: number, room?: ClaimRoom): Promise<readonly ClaimedDelivery[]> {
    const until = at.getTime() + leaseMs;
    const dueAndEnabled = `d.state = 'pending' AND d.next_attempt_at <= ${fromEpochMs('$1')} AND w.disabled_at IS NULL`;
    // FOR UPDATE takes no window function: the ranking picks candidates, the lock re-checks that they are still due.
    const candidates =
      room === undefined
        ? `SELECT d.seq, d.next_attempt_at AS due_at FROM webhook_deliveries AS d JOIN webhooks AS w ON w.webhook_id = d.webhook_id
           WHERE ${dueAndEnabled}
           ORDER BY d.next_attempt_at, d.seq LIMIT $2
           FOR UPDATE OF d SKIP LOCKED`
        : `SELECT d.seq, d.next_attempt_at AS due_at FROM webhook_deliveries AS d JOIN webhooks AS w ON w.webhook_id = d.webhook_id
           WHERE d.seq IN (
             SELECT ranked.seq FROM (
               SELECT d.seq, d.webhook_id, d.next_attempt_at,
                 row_number() OVER (PARTITION BY d.webhook_id ORDER BY d.next_attempt_at, d.seq) AS nth
               FROM webhook_deliveries AS d JOIN webhooks AS w ON w.webhook_id = d.webhook_id
               WHERE ${dueAndEnabled}) AS ranked
             LEFT JOIN unnest($5::text[], $6::integer[]) AS busy (webhook_id, n) ON busy.webhook_id = ranked.webhook_id
             WHERE ranked.nth <= $4 - coalesce(busy.n, 0)
             ORDER BY ranked.next_attempt_at, ranked.seq LIMIT $2)
           AND ${dueAndEnabled}
           ORDER BY d.next_attempt_at, d.seq
           FOR UPDATE OF d SKIP LOCKED`;
    const params: unknown[] = [at.getTime(), Math.max(0, limit), until];
    if (room !== undefined) params.push(room.perEndpoint, [...room.busy.keys()], [...room.busy.values()]);
    const { rows } = await this.query<ClaimRow & { due_at: Date; seq: string }>(
      `WITH due AS (${candidates}),
       leased AS (
         UPDATE webhook_deliveries AS d SET next_attempt_at = ${fromEpochMs('$3')} FROM due WHERE d.seq = due.seq
         RETURNING d.seq, due.due_at, ${deliveryColumnList.map((column) => `d.${column}`).join(', ')})
       SELECT leased.*, ${webhookColumnList.map((column) => `w.${column} AS w_${column}`).join(', ')}
       FROM leased JOIN webhooks AS w ON w.webhook_id = leased.webhook_id
       ORDER BY leased.due_at, leased.seq`,
      params,
    );
    return rows.map((row) => ({
      webhook: webhookFromRow(unprefixed(row)),
      delivery: deliveryFromRow(row),
      leasedUntil: new Date(until),
    }));
  }

  /** One statement: the delivery, then (only if it still exists) its endpoint, in the lock order of every writer. */
  async record(webhookId: string, eventId: string, outcome: AttemptOutcome, at: Date, disable: boolean): Promise<void> {
    const delivered = outcome.kind === 'delivered';
    const retryAt = outcome.kind === 'failed' ? outcome.retryAt : null;
    await this.query(
      `WITH attempt AS (
         UPDATE webhook_deliveries SET state = $3, attempts = attempts + 1,
           next_attempt_at = CASE WHEN $4::bigint IS NULL THEN NULL ELSE ${fromEpochMs('$4')} END,
           last_attempt_at = ${fromEpochMs('$5')}, last_status = $6, last_error = $7
         WHERE webhook_id = $1 AND event_id = $2 RETURNING webhook_id)
       UPDATE webhooks SET
         failing_since = CASE WHEN $8 THEN NULL ELSE coalesce(failing_since, ${fromEpochMs('$5')}) END,
         disabled_at = CASE WHEN $9 THEN coalesce(disabled_at, ${fromEpochMs('$5')}) ELSE disabled_at END
       WHERE webhook_id IN (SELECT webhook_id FROM attempt)`,
      [
        webhookId,
        eventId,
        delivered ? 'delivered' : retryAt === null ? 'failed' : 'pending',
        retryAt === null ? null : retryAt.getTime(),
        at.getTime(),
        outcome.status,
        outcome.kind === 'failed' ? outcome.error : null,
        delivered,
        disable,
      ],
    );
  }

  async deliveries(
    webhookId: string,
    page: { readonly limit: number; readonly before?: { readonly createdAt: Date; readonly eventId: string } },
  ): Promise<readonly Delivery[]> {
    const { before } = page;
    const { rows } = await this.pool.query<DeliveryRow>(
      `SELECT ${deliveryColumns} FROM webhook_deliveries
       WHERE webhook_id = $1 AND ($2::bigint IS NULL OR (created_at, event_id) < (${fromEpochMs('$2')}, $3::text))
       ORDER BY created_at DESC, event_id DESC LIMIT $4`,
      [webhookId, before?.createdAt.getTime() ?? null, before?.eventId ?? null, Math.max(0, page.limit)],
    );
    return rows.map(deliveryFromRow);
  }

  async nextDueAt(except?: ReadonlySet<string>): Promise<Date | null> {
    const { rows } = await this.pool.query<{ due: Date | null }>(
      `SELECT least(
         (SELECT min(d.next_attempt_at) FROM webhook_deliveries AS d JOIN webhooks AS w ON w.webhook_id = d.webhook_id
           WHERE d.state = 'pending' AND w.disabled_at IS NULL AND d.webhook_id <> ALL ($1::text[])),
         (SELECT min(occurred_at) FROM webhook_outbox)) AS due`,
      [[...(except ?? [])]],
    );
    return rows[0]?.due ?? null;
  }

  async pendingCount(): Promise<number> {
    const { rows } = await this.pool.query<{ pending: number }>(
      `SELECT count(*)::int AS pending FROM webhook_deliveries WHERE state = 'pending'`,
    );
    return rows[0]?.pending ?? 0;
  }

  private query<R extends QueryResultRow = QueryResultRow>(sql: string, params: unknown[]) {
    const run = () => this.pool.query<R>(sql, params);
    return this.health === undefined ? run() : this.health.guard(run);
  }
}

/**
 * For each meal the events added that is served after `at`, not withdrawn and has a dish: every user with a marking on
 * any serving of that dish (withdrawn and past ones included). One statement, through meals_by_dish and the markings'
 * index by meal.
 */
async function favouritesOf(client: PoolClient, events: readonly RecordedEvent[], at: Date) {
  const added = addedServingsOf(events);
  if (added.length === 0) return [];
  const { rows } = await client.query<FavouriteRow>(
    `SELECT DISTINCT ON (k.user_id, added.canteen_id, added.date, m.meal_id)
        k.user_id, added.canteen_id, added.date, m.meal_id, m.dish_id, m.name, m.served_at, m.labels, p.without_labels, p.only_labels,
        EXISTS (SELECT 1 FROM dish_aversions AS a WHERE a.user_id = k.user_id AND a.dish_id = m.dish_id) AS avoided
     FROM unnest($1::text[], $2::text[], $3::bigint[]) AS added (canteen_id, date, meal_id)
     JOIN meals AS m ON m.meal_id = added.meal_id
     JOIN meals AS serving ON serving.dish_id = m.dish_id
     JOIN markings AS k ON k.meal_id = serving.meal_id
     LEFT JOIN label_preferences AS p ON p.user_id = k.user_id
     WHERE m.served_at > ${fromEpochMs('$4')} AND m.withdrawn_at IS NULL AND m.dish_id IS NOT NULL`,
    [
      added.map((serving) => serving.canteenId),
      added.map((serving) => serving.date),
      added.map((serving) => serving.mealId),
      at.getTime(),
    ],
  );
  const wanted = rows.filter((row) =>
    wantedServing(
      row.labels,
      row.without_labels === null || row.only_labels === null
        ? null
        : { without: row.without_labels, only: row.only_labels },
      row.avoided,
    ),
  );
  return wanted.map((row) => ({
    userId: row.user_id,
    canteenId: row.canteen_id,
    date: row.date,
    mealId: Number(row.meal_id),
    dishId: Number(row.dish_id),
    name: row.name,
    servedAt: row.served_at,
  }));
}

/** The webhook's columns of a claimed row, which carry a `w_` prefix beside the delivery's. */
function unprefixed(row: ClaimRow): WebhookRow {
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
