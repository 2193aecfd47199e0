import { eventIdOf, storedEventData, type CanteenId, type WebhookEvent } from '@canteen-meals/domain';
import { randomUUID } from 'node:crypto';
import type { PoolClient } from 'pg';
import { fromEpochMs } from './meal-rows.js';

// What a menu write needs to record its webhook events inside its own transaction: the time zones of the canteens it
// touches (the domain places the events on their days) and one multi-row INSERT into the outbox.

/** The time zone of each of the canteens that exists. */
export async function canteenTimeZones(
  client: PoolClient,
  canteenIds: Iterable<CanteenId>,
): Promise<Map<CanteenId, string>> {
  const { rows } = await client.query<{ canteen_id: CanteenId; time_zone: string }>(
    'SELECT canteen_id, time_zone FROM canteens WHERE canteen_id = ANY ($1::text[])',
    [[...new Set(canteenIds)]],
  );
  return new Map(rows.map((row) => [row.canteen_id, row.time_zone]));
}

/** Records the events, in their order, each with a new id, occurred at `at`: one statement. */
export async function recordEvents(client: PoolClient, events: readonly WebhookEvent[], at: Date): Promise<void> {
  if (events.length === 0) return;
  await client.query(
    `INSERT INTO webhook_outbox (event_id, event_type, occurred_at, data)
     SELECT id, type, ${fromEpochMs('$3')}, data FROM unnest($1::text[], $2::text[], $4::text[]) WITH ORDINALITY AS e (id, type, data, n)
     ORDER BY n`,
    [
      events.map(() => eventIdOf(randomUUID())),
      events.map((event) => event.type),
      at.getTime(),
      events.map(storedEventData),
    ],
  );
}
