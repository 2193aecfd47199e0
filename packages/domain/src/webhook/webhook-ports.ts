import type { AuditNote } from '../audit/audit-entry.js';
import type { RecordedEvent } from './webhook-event.js';
import type { Webhook, WebhookDefinition, WebhookId } from './webhook.js';

/** The admin's endpoints. */
export interface WebhookRepository {
  /**
   * Creates or replaces the endpoint at `at`. A replaced endpoint keeps its `createdAt` and its delivery log, and is
   * enabled again (`failingSince` and `disabledAt` cleared). Answers whether it was created. With `audit`, the records
   * it answers are appended to the audit trail in the same unit of work.
   */
  save(
    definition: WebhookDefinition,
    at: Date,
    audit?: AuditNote<{ readonly webhook: Webhook; readonly created: boolean }>,
  ): Promise<{ readonly webhook: Webhook; readonly created: boolean }>;
  find(id: WebhookId): Promise<Webhook | undefined>;
  /** Every endpoint, by id. */
  list(): Promise<readonly Webhook[]>;
  /**
   * Removes the endpoint and its pending deliveries and log; answers whether it existed. With `audit`, when it existed,
   * the records it answers are appended to the audit trail in the same unit of work.
   */
  remove(id: WebhookId, audit?: AuditNote<{ readonly id: WebhookId }>): Promise<boolean>;
}

export type DeliveryState = 'pending' | 'delivered' | 'failed';

/** One event on its way to one endpoint. */
export interface Delivery {
  readonly webhookId: WebhookId;
  readonly event: RecordedEvent;
  readonly state: DeliveryState;
  /** Attempts made so far. */
  readonly attempts: number;
  /** When the next attempt is due (pending), else null. */
  readonly nextAttemptAt: Date | null;
  readonly lastAttemptAt: Date | null;
  /** The last attempt's HTTP status, or null when it got none (timeout, refused address, connection error). */
  readonly lastStatus: number | null;
  /** A short reason for the last failure, for the admin's log (never the receiver's body). */
  readonly lastError: string | null;
  readonly createdAt: Date;
}

/** A delivery an instance claimed: nobody else attempts it until `leasedUntil`. */
export interface ClaimedDelivery {
  readonly webhook: Webhook;
  readonly delivery: Delivery;
  readonly leasedUntil: Date;
}

/**
 * How many deliveries of each endpoint a claim may take: at most `perEndpoint`, less what the endpoint already has
 * under way in the claiming instance (`busy`; an endpoint at or above `perEndpoint` there, such as one backed off, gets
 * none). One slow endpoint then holds at most `perEndpoint` of the instance's attempts, not all of them.
 */
export interface ClaimRoom {
  readonly perEndpoint: number;
  readonly busy: ReadonlyMap<WebhookId, number>;
}

/** What one attempt came to, recorded by `WebhookOutbox.record`. */
export type AttemptOutcome =
  | { readonly kind: 'delivered'; readonly status: number }
  /** `retryAt` null: given up (past the retry period); the delivery becomes `failed`. */
  | { readonly kind: 'failed'; readonly status: number | null; readonly error: string; readonly retryAt: Date | null };

/**
 * The transactional outbox and its deliveries. Events are recorded by the menu writers (MealCatalog.upsertMany and
 * .withdraw, MealSourceRepository.importMenu) in the same transaction as the change; this port moves them on.
 */
export interface WebhookOutbox {
  /**
   * One unit of work: takes up to `limit` recorded events in the order they were recorded, makes one pending delivery
   * (due at `at`) per enabled endpoint subscribed to the event's type, derives the `favourites.upcoming` events of
   * `menu.published` ones (added meals served after `at` whose dish some users marked at any serving; one event per
   * user and canteen day) and fans those out the same way, and removes the events it took. Answers how many recorded
   * events it took (0: nothing left). On PostgreSQL two instances never take the same event.
   */
  fanOut(at: Date, limit: number): Promise<number>;
  /**
   * Claims up to `limit` pending deliveries due at `at` (oldest due first) of enabled endpoints, leasing them until
   * `at + leaseMs`: a claimed delivery is not claimed again before its lease ends, by this instance or another (on
   * PostgreSQL: FOR UPDATE SKIP LOCKED in the claiming statement). A lease that ends without a `record` (a crash)
   * makes the delivery due again: at least once. With `room`, no endpoint gets more than its room (see ClaimRoom): the
   * oldest due deliveries of the endpoints that have room, still oldest first.
   */
  claimDue(at: Date, limit: number, leaseMs: number, room?: ClaimRoom): Promise<readonly ClaimedDelivery[]>;
  /**
   * Records an attempt of a claimed delivery at `at` and ends its lease: delivered; failed with a retry at `retryAt`;
   * or failed for good. Also keeps the endpoint's `failingSince` (set on a failure when null, cleared on a success)
   * and disables it (`disabledAt = at`) when `disable` is true. A record for a delivery that no longer exists (its
   * endpoint was removed meanwhile) is ignored.
   */
  record(webhookId: string, eventId: string, outcome: AttemptOutcome, at: Date, disable: boolean): Promise<void>;
  /**
   * The endpoint's deliveries, newest first, a page at a time (`before`: the `createdAt`/event id cursor of the last
   * one seen).
   */
  deliveries(
    webhookId: string,
    page: { readonly limit: number; readonly before?: { readonly createdAt: Date; readonly eventId: string } },
  ): Promise<readonly Delivery[]>;
  /**
   * The earliest instant a pending delivery of an enabled endpoint is due or a recorded event waits (null: none);
   * the deliveries of the endpoints in `except` (backed off by the asking instance) do not count.
   */
  nextDueAt(except?: ReadonlySet<WebhookId>): Promise<Date | null>;
  /**
   * How many deliveries wait for an attempt (pending, of any endpoint, a disabled one's too): a gauge for operators.
   */
  pendingCount(): Promise<number>;
}
