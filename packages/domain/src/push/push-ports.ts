import type { CanteenId } from '../canteen/canteen.js';
import type { DishId } from '../dish/dish.js';
import type { LabelCode } from '../label/label.js';
import type { MealId } from '../meal/meal.js';
import type { LocalDate } from '../menu/local-time.js';
import type { UserId } from '../shared/user-id.js';
import type { NotificationSettingsRepository } from './notification-settings.js';
import type { NewPushSubscription, PushSubscription } from './push-subscription.js';

export interface PushSubscriptionRepository {
  /**
   * Saves a subscription by its endpoint: a known endpoint keeps its id and creation time, takes the new keys, and
   * moves to `userId` when another person had it (a shared browser). Past `maxPerPerson` the person's oldest go.
   */
  save(
    subscription: NewPushSubscription,
    at: Date,
    maxPerPerson: number,
  ): Promise<{ readonly subscription: PushSubscription; readonly created: boolean }>;
  /** The person's subscriptions, oldest first. */
  subscriptionsOf(userId: UserId): Promise<readonly PushSubscription[]>;
  /** The subscriptions of many people, by user id then age. */
  subscriptionsOfUsers(userIds: readonly UserId[]): Promise<readonly PushSubscription[]>;
  /** Removes the person's subscription with that endpoint (never another's); answers whether there was one. */
  remove(userId: UserId, endpoint: string): Promise<boolean>;
  /** Removes a subscription the push service says is gone (404, 410), with its messages still waiting. */
  removeGone(subscriptionId: string): Promise<void>;
  /** GDPR art. 17: every subscription of the person; answers how many. */
  eraseAll(userId: UserId): Promise<number>;
}

/** A notification to one subscription, waiting in the outbox. */
export interface PushEntry {
  readonly subscriptionId: string;
  /** The JSON payload `{title, body, url, tag}`, at most 3 KB. */
  readonly payload: string;
  /** Replaces an undelivered message of the same topic at the push service (RFC 8030 §5.4). */
  readonly topic: string;
  readonly dueAt: Date;
  /** The end of its use (the end of the day it is about): no attempt after it. */
  readonly expiresAt: Date;
}

/** A claimed entry: this instance's to send until its lease ends. */
export interface ClaimedPush extends PushEntry {
  readonly id: string;
  readonly subscription: PushSubscription;
  /** Attempts made before this one. */
  readonly attempts: number;
}

/** How an attempt ended, as the outbox records it. */
export type PushSettlement =
  | { readonly kind: 'delivered'; readonly status: number }
  /** Refused for good (a 4xx other than 404, 410, 429): recorded, not retried. */
  | { readonly kind: 'failed'; readonly status: number | null; readonly error: string }
  /** No attempt before the message expired. */
  | { readonly kind: 'expired'; readonly status: number | null; readonly error: string };

/**
 * The durable outbox of notifications (at least once, across restarts and instances): what a digest or a sold-out
 * notice decided to send is written in one transaction with the key that makes it happen once.
 */
export interface PushOutbox {
  /**
   * Writes the entries unless `key` was used before (a canteen's digest of a day, a meal's sold-out notice); answers
   * whether it wrote them. The key is kept even with no entry: that digest is done.
   */
  enqueueOnce(key: string, entries: readonly PushEntry[], at: Date): Promise<boolean>;
  /**
   * Whether an enqueueOnce wrote `key` already: a check asks before it reads the people a digest goes to, so that the
   * checks after a digest's time (every PUSH_POLL_MS, for two hours) cost a lookup, not the digest's reads again.
   */
  usedOnce(key: string): Promise<boolean>;
  /** Writes entries now (no key: the test notification goes out directly, not through here). */
  enqueue(entries: readonly PushEntry[]): Promise<void>;
  /**
   * Up to `limit` entries due at `now` (not expired, not leased), each leased to the caller for `leaseMs`, with its
   * subscription; entries whose subscription is gone are dropped.
   */
  claim(now: Date, limit: number, leaseMs: number): Promise<readonly ClaimedPush[]>;
  /** The attempt's end: the entry leaves the queue (a failure or an expiry stays recorded). */
  settle(id: string, settlement: PushSettlement, at: Date): Promise<void>;
  /** Another attempt at `at` (a 429, a 5xx, no answer), the lease ended. */
  retry(id: string, at: Date, status: number | null, error: string): Promise<void>;
  /** Entries waiting (due or not): the outbox's depth, for the metrics. */
  depth(): Promise<number>;
}

/** A serving of a dish someone marked (any serving of it), as a digest reads them. */
export interface MarkedServing {
  readonly userId: UserId;
  readonly mealId: MealId;
  readonly dishId: DishId;
  readonly name: string;
  readonly labels: readonly LabelCode[];
  readonly servedAt: Date;
}

/** Who to notify: the adapters answer these in one query each (SQL where they have it). */
export interface PushAudience {
  /**
   * The servings of a canteen's day (`from` to `to`: its start and end) not withdrawn, each with every person who
   * marked any serving of its dish; by person, then serving time, then meal id.
   */
  markedServingsOn(
    canteenId: CanteenId,
    date: LocalDate,
    window: { readonly from: Date; readonly to: Date },
  ): Promise<readonly MarkedServing[]>;
  /** The people who marked this meal. */
  markersOf(mealId: MealId): Promise<readonly UserId[]>;
}

/** What one attempt to send a notification came to (an adapter: encryption, VAPID, the network). */
export interface PushSendOutcome {
  /** The push service's status; null: no answer (timeout, refused address, connection error). */
  readonly status: number | null;
  /** A 429's or 503's Retry-After, in milliseconds. */
  readonly retryAfterMs?: number;
  readonly error?: string;
}

export interface PushSender {
  send(
    subscription: PushSubscription,
    message: { readonly payload: string; readonly ttlSeconds: number; readonly topic: string },
  ): Promise<PushSendOutcome>;
}

/** Everything push keeps, from one database: what an adapter package provides beside its repositories. */
export interface PushStore {
  readonly pushSubscriptions: PushSubscriptionRepository;
  readonly notificationSettings: NotificationSettingsRepository;
  readonly pushOutbox: PushOutbox;
  readonly pushAudience: PushAudience;
}
