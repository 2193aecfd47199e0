import { eventIdOf, storedEventData, type CanteenId, type WebhookEvent } from '@canteen-meals/domain';
import type { Database, Statement } from 'better-sqlite3';
import { randomUUID } from 'node:crypto';

/**
 * What a menu write needs to record its webhook events inside its own transaction: the time zones of the canteens it
 * touches (the domain places the events on their days) and one multi-row INSERT into the outbox.
 */
export class SqliteOutboxRecorder {
  private readonly selectTimeZones: Statement<[string], { canteen_id: CanteenId; time_zone: string }>;
  private readonly insertEvents: Statement<[string]>;

  constructor(db: Database) {
    this.selectTimeZones = db.prepare(
      'SELECT canteen_id, time_zone FROM canteens WHERE canteen_id IN (SELECT value FROM json_each(?))',
    );
    this.insertEvents = db.prepare(`INSERT INTO webhook_outbox (event_id, event_type, occurred_at, data)
      SELECT value ->> 0, value ->> 1, value ->> 2, value ->> 3 FROM json_each(?) ORDER BY key`);
  }

  /** The time zone of each of the canteens that exists. */
  timeZonesOf(canteenIds: Iterable<CanteenId>): Map<CanteenId, string> {
    const rows = this.selectTimeZones.all(JSON.stringify([...new Set(canteenIds)]));
    return new Map(rows.map((row) => [row.canteen_id, row.time_zone]));
  }

  /**
   * Records the events, in their order, each with a new id, occurred at `at`. Call it inside the write's transaction.
   */
  record(events: readonly WebhookEvent[], at: Date): void {
    if (events.length === 0) return;
    this.insertEvents.run(
      JSON.stringify(
        events.map((event) => [eventIdOf(randomUUID()), event.type, at.getTime(), storedEventData(event)]),
      ),
    );
  }
}
