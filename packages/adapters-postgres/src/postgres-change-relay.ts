import { randomUUID } from 'node:crypto';
import {
  isAvailabilityStatus,
  type Availability,
  type MenuChange,
  type MenuChangeHub,
  type MenuChangeOrigin,
} from '@canteen-meals/domain';
import pg from 'pg';

/** The channel every instance of one database notifies and listens on. */
export const changeChannel = 'meal_changes';

/** PostgreSQL refuses a NOTIFY payload of 8000 bytes or more; a change that would not fit goes as `menus`. */
const maxPayloadBytes = 7999;

const notifyMany = 'SELECT pg_notify($1, payload) FROM unnest($2::text[]) AS payload';

/** Timers, a port so that tests drive the backoff and the send interval without waiting. */
export interface RelayScheduler {
  setTimeout(callback: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

const realTimers: RelayScheduler = {
  setTimeout: (callback, ms) => setTimeout(callback, ms),
  clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};

/** What the relay tells its owner (the server logs it). */
export type ChangeRelayEvent =
  /** LISTEN is in place; `reconnected`: after a lost or failed connection, and `menus` was published locally. */
  | { readonly type: 'listening'; readonly reconnected: boolean }
  /** The listening connection failed or could not be made; the next attempt follows after `retryInMs`. */
  | { readonly type: 'disconnected'; readonly error: string; readonly attempt: number; readonly retryInMs: number }
  /** A local change could not be sent: the other instances learn of it only when their menu cache expires. */
  | { readonly type: 'notify-failed'; readonly error: string }
  /** A notification on the channel that is not a change this relay understands (skipped). */
  | { readonly type: 'bad-payload'; readonly payload: string };

export interface ChangeRelayOptions {
  /**
   * Where to LISTEN: a direct connection to PostgreSQL (or a session-pooling proxy), never a transaction-pooling one
   * such as PgBouncer in `transaction` mode, which would hand the LISTEN session to other clients.
   */
  readonly connectionString: string;
  /**
   * Sends the NOTIFYs of local changes: the instance's pool (after the commit; one query for all the changes of a
   * turn).
   */
  readonly notifier: Pick<pg.Pool, 'query'>;
  readonly hub: MenuChangeHub;
  readonly onEvent?: (event: ChangeRelayEvent) => void;
  /** The first retry of a lost connection waits up to this (full jitter), each further one twice as long; 250 ms. */
  readonly retryBaseMs?: number;
  /** No retry waits longer than this; 30 s. */
  readonly retryMaxMs?: number;
  readonly scheduler?: RelayScheduler;
  /** In [0, 1): the jitter; Math.random by default. */
  readonly random?: () => number;
  /** Tags this instance's notifications so that it skips them when they come back; random by default. */
  readonly instanceId?: string;
  readonly channel?: string;
  /**
   * At most one NOTIFY query per this many milliseconds: the changes published meanwhile wait and go together, a
   * meal's rating changes as its last one (latestOfEachMeal). 20 by default. A change after a quiet moment goes at
   * once; under a rating load this sends some 50 queries a second instead of one per batch written, each of which
   * costs a round trip and wakes every listening instance (the live streams coalesce for 250 ms anyway).
   */
  readonly minSendIntervalMs?: number;
  /** Milliseconds of a monotonic clock, for the send interval; performance.now by default. */
  readonly now?: () => number;
}

export interface ChangeRelay {
  /** Resolves when LISTEN is first in place (it may take retries); never rejects. */
  readonly ready: Promise<void>;
  /** Stops relaying: sends what is queued, stops listening and closes the connection. */
  stop(): Promise<void>;
}

interface Envelope {
  readonly v: 1;
  readonly from: string;
  /** The sender's sequence number of the change (readers need not look at it). */
  readonly n?: number | undefined;
  readonly change: MenuChange;
}

/**
 * Relays menu changes between the instances that share one PostgreSQL database: each change this instance's hub
 * publishes is sent with `pg_notify`, and each change another instance sent is published into the hub as remote
 * (so caches and live streams act on it, and this relay does not send it again).
 *
 * Notifications are sent after the write committed, from a hub listener, in the order of the hub (those of one turn,
 * such as a batch of ratings, in one query; at most one query per `minSendIntervalMs`): a process that dies between a
 * commit and its NOTIFY loses that notification, and the other instances then show the
 * change once their menu caches expire (MENU_CACHE_TTL_MS). Changes are listened for on one connection of its own
 * (not from the pool), which is reopened with exponential backoff and full jitter when it fails; after a reconnect,
 * `menus` is published locally, because changes sent while it was away are lost.
 */
export function startChangeRelay(options: ChangeRelayOptions): ChangeRelay {
  const channel = options.channel ?? changeChannel;
  const instanceId = options.instanceId ?? randomUUID();
  const scheduler = options.scheduler ?? realTimers;
  const random = options.random ?? Math.random;
  const baseMs = options.retryBaseMs ?? 250;
  const maxMs = options.retryMaxMs ?? 30_000;
  const tell = options.onEvent ?? (() => {});
  const minSendIntervalMs = options.minSendIntervalMs ?? 20;
  const now = options.now ?? (() => performance.now());
  // This instance's notifications come back to it: recognised by their start, without parsing them.
  const ownPrefix = payloadPrefixOf(instanceId);

  let stopped = false;
  let sequence = 0;
  let client: pg.Client | null = null;
  let retryTimer: unknown = null;
  let failures = 0;
  let everListening = false;
  let markReady: () => void = () => {};
  const ready = new Promise<void>((resolve) => (markReady = resolve));

  // Sending: one query at a time, so that another instance receives a meal's changes in the order they were made.
  // The changes published while one is under way (or in the same turn) go together in the next: one round trip for
  // all of them, however many ratings a batch commits.
  let queued: MenuChange[] = [];
  let sending: Promise<void> = Promise.resolve();
  let sendScheduled = false;
  let lastSentAt = -Infinity;
  // The wait for the send interval, ended early by stop.
  let waiting: { handle: unknown; resolve: () => void } | null = null;
  const sendTurn = (): Promise<void> =>
    new Promise<void>((resolve) => {
      const wait = lastSentAt + minSendIntervalMs - now();
      if (wait <= 0 || stopped) {
        setImmediate(resolve);
        return;
      }
      const handle = scheduler.setTimeout(() => {
        waiting = null;
        resolve();
      }, wait);
      waiting = { handle, resolve };
    });
  const sendQueued = async (): Promise<void> => {
    sendScheduled = false;
    lastSentAt = now();
    const payloads = latestOfEachMeal(queued).map((change) => payloadOf(instanceId, change, sequence++));
    queued = [];
    try {
      // unnest keeps the array's order, and notifications of one transaction are delivered in the order sent.
      await options.notifier.query(notifyMany, [channel, payloads]);
    } catch (error) {
      tell({ type: 'notify-failed', error: messageOf(error) });
    }
  };
  const send = (change: MenuChange, origin: MenuChangeOrigin): void => {
    if (origin === 'remote' || stopped) return;
    queued.push(change);
    if (sendScheduled) return;
    sendScheduled = true;
    sending = sending.then(sendTurn).then(sendQueued);
  };
  const unsubscribe = options.hub.subscribe(send);

  const receive = (message: pg.Notification): void => {
    if (stopped || message.channel !== channel || message.payload?.startsWith(ownPrefix) === true) return;
    const envelope = envelopeOf(message.payload ?? '');
    if (envelope === null) {
      tell({ type: 'bad-payload', payload: (message.payload ?? '').slice(0, 200) });
      return;
    }
    if (envelope.from === instanceId) return;
    options.hub.publishRemote(envelope.change);
  };

  const connect = async (): Promise<void> => {
    retryTimer = null;
    if (stopped) return;
    const attempt = new pg.Client({
      connectionString: options.connectionString,
      application_name: 'meals-listen',
      keepAlive: true,
    });
    client = attempt;
    let lost = false;
    const onLost = (error: unknown) => {
      if (lost) return;
      lost = true;
      // A client that failed may still emit: keep a listener, or the process would crash on an unhandled 'error'.
      attempt.removeAllListeners();
      attempt.on('error', () => {});
      attempt.end().catch(() => {});
      if (client === attempt) client = null;
      if (!stopped) retryLater(error);
    };
    attempt.on('error', onLost);
    attempt.on('end', () => onLost(new Error('the listening connection ended')));
    attempt.on('notification', receive);
    try {
      await attempt.connect();
      await attempt.query(`LISTEN ${pg.escapeIdentifier(channel)}`);
    } catch (error) {
      onLost(error);
      return;
    }
    if (lost || stopped) return;
    const reconnected = everListening || failures > 0;
    everListening = true;
    failures = 0;
    // Whatever was sent while nobody listened is lost: caches drop their answers, live streams send snapshots.
    if (reconnected) options.hub.publishRemote({ kind: 'menus' });
    tell({ type: 'listening', reconnected });
    markReady();
  };

  const retryLater = (error: unknown): void => {
    failures += 1;
    const ceiling = Math.min(maxMs, baseMs * 2 ** Math.min(failures - 1, 30));
    const retryInMs = Math.round(ceiling * random());
    tell({ type: 'disconnected', error: messageOf(error), attempt: failures, retryInMs });
    retryTimer = scheduler.setTimeout(() => void connect(), retryInMs);
  };

  void connect();

  let stopping: Promise<void> | undefined;
  return {
    ready,
    stop: () =>
      (stopping ??= (async () => {
        stopped = true;
        unsubscribe();
        if (retryTimer !== null) scheduler.clearTimeout(retryTimer);
        retryTimer = null;
        if (waiting !== null) {
          // What waits for the send interval goes now.
          scheduler.clearTimeout(waiting.handle);
          waiting.resolve();
          waiting = null;
        }
        markReady();
        const open = client;
        client = null;
        if (open !== null) {
          open.removeAllListeners();
          open.on('error', () => {});
          await open.end().catch(() => {});
        }
        await sending;
      })()),
  };
}

/**
 * The changes to send, without the rating changes of a meal that a later one in the list supersedes: a rating change
 * carries the meal's and its dish's whole histograms, so the last one of a meal tells every listener all the earlier
 * ones did. Under load this is one notification per rated meal and send instead of one per rating (each notification
 * wakes every listening backend and instance). The others keep their order.
 */
export function latestOfEachMeal(changes: readonly MenuChange[]): MenuChange[] {
  const last = new Map<number, number>();
  changes.forEach((change, index) => {
    if (change.kind === 'rating') last.set(change.mealId, index);
  });
  return changes.filter((change, index) => change.kind !== 'rating' || last.get(change.mealId) === index);
}

/** The notification of one change; one that would be too long for NOTIFY goes as `menus` (any menu may differ). */
/** How every payload of one instance begins (payloadOf: `v` and `from` are its first two keys). */
export function payloadPrefixOf(instanceId: string): string {
  return `{"v":1,"from":${JSON.stringify(instanceId)},`;
}

export function payloadOf(instanceId: string, change: MenuChange, n?: number): string {
  const payload = JSON.stringify({ v: 1, from: instanceId, n, change } satisfies Envelope);
  if (Buffer.byteLength(payload) <= maxPayloadBytes) return payload;
  return JSON.stringify({ v: 1, from: instanceId, n, change: { kind: 'menus' } } satisfies Envelope);
}

function envelopeOf(payload: string): Envelope | null {
  let parsed: unknown;
  try {
    parsed = JSON.parse(payload);
  } catch {
    return null;
  }
  if (typeof parsed !== 'object' || parsed === null) return null;
  const { v, from, change } = parsed as Record<string, unknown>;
  if (v !== 1 || typeof from !== 'string' || !isMenuChange(change)) return null;
  // JSON carries the instant as text: the listeners get a Date, as from a local change.
  if (change.kind === 'availability') {
    const { changedAt } = change.availability as { changedAt: string | null };
    return {
      v,
      from,
      change: {
        ...change,
        availability: {
          status: change.availability.status,
          changedAt: changedAt === null ? null : new Date(changedAt),
        },
      },
    };
  }
  return { v, from, change };
}

function isMenuChange(value: unknown): value is MenuChange {
  if (typeof value !== 'object' || value === null) return false;
  const change = value as Record<string, unknown>;
  if (change.kind === 'menus') return true;
  if (change.kind === 'availability') return Number.isSafeInteger(change.mealId) && isAvailability(change.availability);
  if (change.kind !== 'rating' || !Number.isSafeInteger(change.mealId) || !isHistogram(change.histogram)) return false;
  if (change.dish === null) return true;
  if (typeof change.dish !== 'object' || change.dish === undefined) return false;
  const dish = change.dish as Record<string, unknown>;
  return Number.isSafeInteger(dish.id) && isHistogram(dish.histogram);
}

function isAvailability(value: unknown): value is Availability {
  if (typeof value !== 'object' || value === null) return false;
  const { status, changedAt } = value as Record<string, unknown>;
  return (
    isAvailabilityStatus(status) &&
    (changedAt === null || (typeof changedAt === 'string' && !Number.isNaN(Date.parse(changedAt))))
  );
}

function isHistogram(value: unknown): boolean {
  return (
    Array.isArray(value) && value.length === 5 && value.every((count) => Number.isSafeInteger(count) && count >= 0)
  );
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
