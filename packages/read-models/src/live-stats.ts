import { randomBytes } from 'node:crypto';
import {
  ratingStatistics,
  type Availability,
  type DishId,
  type MealId,
  type MenuChange,
  type MenuDays,
  type PublicMenu,
  type RatingHistogram,
  type Result,
} from '@canteen-meals/domain';
import { availabilityFieldsOf, distributionDataOf } from './meal-data.js';
import { LiveFanOut, snapshotKey, type Defer, type FanOutStream } from './live-fan-out.js';

/** The events of a stream: `snapshot` first, `stats` of ratings, `availability` of the kitchen's changes. */
type LiveEventName = 'snapshot' | 'stats' | 'availability';

/**
 * Time, as the live streams need it: the coalescing windows and the heartbeat are timers. A port, so that tests fire
 * them by hand instead of sleeping.
 */
export interface LiveScheduler {
  setTimeout(callback: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

/** Node's timers, unreferenced: an open stream keeps the process alive through its socket, not through its timers. */
export const realTimers: LiveScheduler = {
  setTimeout: (callback, ms) => setTimeout(callback, ms).unref(),
  clearTimeout: (handle) => clearTimeout(handle as NodeJS.Timeout),
};

/** One client's stream, as the registry sees it: where its frames go. The HTTP route writes them to the socket. */
export interface LiveSubscriber extends FanOutStream {
  /** Server-Sent Events frames: events (`id:`, `event:`, `data:` lines) or comments, each with its blank line. */
  send(frames: string): void;
  /** The stream is over (the server closes, the canteen is gone): end the response. */
  end(): void;
}

export interface LiveStatsSettings {
  /** A meal's `stats` events are at least this far apart; changes within one window go out as one, the last state. */
  readonly coalesceMs: number;
  /** A comment goes to every stream this often, so that proxies and load balancers do not take it for idle. */
  readonly heartbeatMs: number;
  /** How many recent events each (canteen, day) keeps for `Last-Event-ID`; a client further behind gets a snapshot. */
  readonly replayEvents: number;
  readonly scheduler: LiveScheduler;
  /** Runs the fan-out's next batch on a later turn of the event loop; default: setImmediate. */
  readonly defer?: Defer;
  /** Streams written to per turn of the event loop; default 64. */
  readonly writeBatch?: number;
  /** Passes over a channel's streams begin at most this often (ms); the first change after a quiet moment at once. */
  readonly fanOutIntervalMs?: number;
}

/**
 * About a millisecond of socket writes per turn: requests that arrive during a burst wait at most that long for one.
 */
const defaultWriteBatch = 64;
/**
 * A burst of taps reaches each stream at most 10 times a second: without it, 100 taps a second to 500 streams were
 * 50 000 socket writes a second, and other requests' p99 doubled; a wall still shows "sold out" within 0.1 s.
 */
const defaultFanOutIntervalMs = 100;

export type LiveMenuRefusal = 'canteen_not_found' | 'invalid_menu_range';
export type LiveMenuRead = (days: MenuDays) => Promise<Result<PublicMenu, LiveMenuRefusal>>;

/** What a stream shows of one meal: its histogram and that of its dish, from which every figure follows. */
interface MealFigures {
  readonly mealId: MealId;
  histogram: RatingHistogram;
  readonly dishId: DishId;
  dishHistogram: RatingHistogram;
  availability: Availability;
}

interface KeptEvent {
  readonly n: number;
  readonly frame: string;
}

/**
 * The streams of one canteen's day. Event ids are `<token>.<n>`: the token is new with every channel (a channel is
 * dropped with its last stream, and the process may restart), so an id handed out by another channel, instance or
 * process never resumes here by accident.
 */
class Channel {
  readonly token = randomBytes(6).toString('base64url');
  /** The number of the last event; a snapshot carries it without taking a new one (it shows the state as of it). */
  seq = 0;
  /** Events numbered up to this are no longer kept (or were never sent to this channel's streams). */
  forgottenUpTo = 0;
  readonly kept: KeptEvent[] = [];
  /** In menu order. */
  meals = new Map<MealId, MealFigures>();
  readonly subscribers = new Set<LiveSubscriber>();
  /** Streams waiting for the channel's first read: the channel stays while they wait. */
  joining = 0;
  /** The meals whose figures changed since their last `stats` event; sent when the window closes. */
  readonly pending = new Set<MealId>();
  flushTimer: unknown = null;
  /** The read under way (first load or reload); changes that arrive meanwhile are kept to apply after it. */
  reading: Promise<Result<void, LiveMenuRefusal>> | null = null;
  missed: MenuChange[] | null = null;
  private snapshot: { readonly seq: number; readonly frame: string } | null = null;

  constructor(
    readonly key: string,
    readonly days: MenuDays,
    private readonly fanOut: LiveFanOut<LiveSubscriber>,
  ) {}

  /** The dishes its meals are servings of. */
  dishIds(): Set<DishId> {
    return new Set([...this.meals.values()].map((figures) => figures.dishId));
  }

  /** Takes a serving's new availability; answers whether the channel shows the meal (and its state moved). */
  applyAvailability(change: Extract<MenuChange, { kind: 'availability' }>): MealFigures | undefined {
    const own = this.meals.get(change.mealId);
    if (own === undefined) return undefined;
    own.availability = change.availability;
    this.snapshot = null;
    return own;
  }

  /** Takes a rating's histograms into the figures; answers the meals whose figures moved. */
  apply(change: Extract<MenuChange, { kind: 'rating' }>): MealId[] {
    const moved: MealId[] = [];
    const own = this.meals.get(change.mealId);
    if (own !== undefined) {
      own.histogram = change.histogram;
      moved.push(own.mealId);
    }
    if (change.dish !== null) {
      for (const figures of this.meals.values()) {
        if (figures.dishId !== change.dish.id) continue;
        figures.dishHistogram = change.dish.histogram;
        if (figures !== own) moved.push(figures.mealId);
      }
    }
    if (moved.length > 0) this.snapshot = null;
    return moved;
  }

  replaceMeals(menu: PublicMenu): void {
    this.meals = new Map(
      menu.meals.map((reading) => [
        reading.meal.id,
        {
          mealId: reading.meal.id,
          histogram: reading.distribution,
          dishId: reading.dish.id,
          dishHistogram: reading.dish.histogram,
          availability: reading.availability,
        },
      ]),
    );
    this.pending.clear();
    this.snapshot = null;
  }

  /** The snapshot as of the last event, serialized once for every stream that joins until the next change. */
  snapshotFrame(): string {
    if (this.snapshot === null || this.snapshot.seq !== this.seq) {
      const meals = [...this.meals.values()].map((figures) => ({
        ...statsDataOf(figures),
        ...availabilityFieldsOf(figures.availability),
      }));
      this.snapshot = { seq: this.seq, frame: frameOf(this.idOf(this.seq), 'snapshot', { meals }) };
    }
    return this.snapshot.frame;
  }

  idOf(n: number): string {
    return `${this.token}.${n}`;
  }

  /**
   * Numbers and keeps one event, and queues it for every stream under `key`: a stream not yet written to since the
   * last event of that key gets this one instead (the last state wins).
   */
  publish(event: LiveEventName, key: string, build: (id: string) => string, keepAtMost: number): void {
    this.fanOut.queue(this, key, this.record(event, build, keepAtMost));
  }

  /** Numbers and keeps one event; answers its frame. */
  record(event: LiveEventName, build: (id: string) => string, keepAtMost: number): string {
    this.seq += 1;
    const frame = build(this.idOf(this.seq));
    this.kept.push({ n: this.seq, frame });
    if (this.kept.length > keepAtMost) this.forgottenUpTo = this.kept.shift()!.n;
    if (event === 'snapshot') this.snapshot = { seq: this.seq, frame };
    return frame;
  }

  /**
   * What a joining stream is sent first: the events after `lastEventId` when every one of them is still kept, else a
   * snapshot. An id of another channel (an earlier one, another instance's) always gets a snapshot.
   */
  catchUp(lastEventId: string | undefined): string[] {
    const n = lastEventId === undefined ? undefined : this.numberOf(lastEventId);
    if (n === undefined || n < this.forgottenUpTo || n > this.seq) return [this.snapshotFrame()];
    return this.kept.filter((event) => event.n > n).map((event) => event.frame);
  }

  private numberOf(id: string): number | undefined {
    const [token, n] = id.split('.');
    if (token !== this.token || n === undefined || !/^\d{1,15}$/.test(n)) return undefined;
    return Number(n);
  }
}

/**
 * The live statistics of every (canteen, day) that some stream watches, kept up to date from the menu changes of this
 * process: each channel is read once (GetPublicMenu) when its first stream joins, then follows the ratings' histograms
 * (which a change carries whole, so applying one twice or late is harmless), is read again on a `menus` change, and
 * is dropped with its last stream. Another source of changes (PostgreSQL LISTEN/NOTIFY across instances) plugs in by
 * calling `onChange` with the changes it receives.
 */
export class LiveStats {
  private readonly channels = new Map<string, Channel>();
  private readonly channelOf = new Map<LiveSubscriber, Channel>();
  /**
   * The channels that show each meal and each dish: a rating (or an erasure's figures) finds the few channels it
   * concerns at once, instead of every channel looking through its meals.
   */
  private readonly byMeal = new Map<MealId, Set<Channel>>();
  private readonly byDish = new Map<DishId, Set<Channel>>();
  /** The channels being read (first read or reload): they keep every change that arrives meanwhile. */
  private readonly reading = new Set<Channel>();

  private heartbeat: unknown = null;
  private closed = false;
  private readonly fanOut: LiveFanOut<LiveSubscriber>;

  constructor(
    private readonly read: LiveMenuRead,
    private readonly settings: LiveStatsSettings,
  ) {
    const intervalMs = settings.fanOutIntervalMs ?? defaultFanOutIntervalMs;
    this.fanOut = new LiveFanOut(settings.defer ?? setImmediate, settings.writeBatch ?? defaultWriteBatch, {
      intervalMs,
      setTimeout: (callback, ms) => settings.scheduler.setTimeout(callback, ms),
    });
  }

  /** Streams with frames not yet written to them. */
  get streamsBehind(): number {
    return this.fanOut.streamsBehind;
  }

  /** How many streams are open: the instance limit counts these. */
  get streams(): number {
    return this.channelOf.size;
  }

  /** How many (canteen, day) channels are kept: none once every stream has ended. */
  get channelCount(): number {
    return this.channels.size;
  }

  get isClosed(): boolean {
    return this.closed;
  }

  /** Whether a channel of `days` is kept (a stream joining it opens no new one). */
  hasChannel(days: MenuDays): boolean {
    return this.channels.has(keyOf(days));
  }

  /**
   * Reads the channel of `days` if no stream watches it yet, then, without yielding, calls `start` (which begins the
   * HTTP answer) and joins the subscriber it answers: no change can slip between the read and the join. `start` is
   * not called on a refusal, nor once the registry is closed; it may answer undefined to join nothing (the client
   * left meanwhile). Answers whether a subscriber joined.
   */
  async subscribe(
    days: MenuDays,
    lastEventId: string | undefined,
    start: () => LiveSubscriber | undefined,
  ): Promise<Result<boolean, LiveMenuRefusal>> {
    const key = keyOf(days);
    let channel = this.channels.get(key);
    if (channel === undefined) {
      channel = new Channel(key, days, this.fanOut);
      this.channels.set(key, channel);
      channel.reading = this.load(channel);
    }
    // A channel that is being read again after a `menus` change is joined at once: its snapshot follows.
    if (channel.subscribers.size === 0 && channel.reading !== null) {
      channel.joining += 1;
      let loaded: Result<void, LiveMenuRefusal> | undefined;
      try {
        loaded = await channel.reading;
      } finally {
        channel.joining -= 1;
        // A channel whose first read was refused or failed has nobody to tell: it goes with its last waiting stream.
        if (loaded?.ok !== true) this.dropIfUnwatched(channel);
      }
      if (!loaded.ok) return loaded;
    }
    const subscriber = this.closed ? undefined : start();
    if (subscriber === undefined) {
      this.dropIfUnwatched(channel);
      return { ok: true, value: false };
    }
    channel.subscribers.add(subscriber);
    this.channelOf.set(subscriber, channel);
    for (const frame of channel.catchUp(lastEventId)) subscriber.send(frame);
    this.fanOut.join(channel, subscriber);
    this.heartbeat ??= this.settings.scheduler.setTimeout(this.beat, this.settings.heartbeatMs);
    return { ok: true, value: true };
  }

  /** A stream ended (the client left, or was dropped): forget it, and its channel when it was the last one. */
  leave(subscriber: LiveSubscriber): void {
    const channel = this.channelOf.get(subscriber);
    if (channel === undefined) return;
    this.channelOf.delete(subscriber);
    channel.subscribers.delete(subscriber);
    this.fanOut.leave(subscriber);
    this.dropIfUnwatched(channel);
    if (this.channelOf.size === 0 && this.heartbeat !== null) {
      this.settings.scheduler.clearTimeout(this.heartbeat);
      this.heartbeat = null;
    }
  }

  /** The stream's socket took what was written to it: the frames it waits for, coalesced meanwhile, follow. */
  drained(subscriber: LiveSubscriber): void {
    if (this.channelOf.has(subscriber)) this.fanOut.drained(subscriber);
  }

  /** Ends every stream and refuses new ones: the server is shutting down. */
  close(): void {
    this.closed = true;
    for (const subscriber of [...this.channelOf.keys()]) {
      this.leave(subscriber);
      subscriber.end();
    }
  }

  /** The listener of the menu changes: of this process's use cases, and of any other source of them. */
  readonly onChange = (change: MenuChange): void => {
    for (const channel of this.reading) channel.missed?.push(change);
    if (change.kind === 'menus') {
      for (const channel of this.channels.values()) if (!this.reading.has(channel)) this.reload(channel);
      return;
    }
    if (change.kind === 'availability') {
      // No window: the wall must show "sold out" at once. A burst is coalesced per stream (the meal's last state).
      for (const channel of this.byMeal.get(change.mealId) ?? []) {
        if (this.reading.has(channel)) continue;
        const figures = channel.applyAvailability(change);
        if (figures === undefined) continue;
        const data = { meal_id: figures.mealId, ...availabilityFieldsOf(figures.availability) };
        const frame = (id: string) => frameOf(id, 'availability', data);
        channel.publish('availability', `availability:${figures.mealId}`, frame, this.settings.replayEvents);
      }
      return;
    }
    const showing = new Set(this.byMeal.get(change.mealId));
    if (change.dish !== null) for (const channel of this.byDish.get(change.dish.id) ?? []) showing.add(channel);
    for (const channel of showing) {
      if (this.reading.has(channel)) continue;
      for (const mealId of channel.apply(change)) channel.pending.add(mealId);
      channel.flushTimer ??= this.settings.scheduler.setTimeout(() => this.flush(channel), this.settings.coalesceMs);
    }
  };

  /** The window closed: one `stats` event per changed meal, with its figures as they are now. */
  private flush(channel: Channel): void {
    channel.flushTimer = null;
    if (channel.pending.size === 0 || this.channels.get(channel.key) !== channel) return;
    // The fan-out writes the window's events to each stream in one write: with thousands of streams, a write per
    // event and stream would cost more than the events themselves.
    for (const mealId of channel.pending) {
      const figures = channel.meals.get(mealId);
      if (figures === undefined) continue;
      const frame = (id: string) => frameOf(id, 'stats', statsDataOf(figures));
      channel.publish('stats', `stats:${mealId}`, frame, this.settings.replayEvents);
    }
    channel.pending.clear();
    // The next window starts now: changes arriving in it wait for its end, so each meal gets at most one event per
    // window.
    channel.flushTimer = this.settings.scheduler.setTimeout(() => this.flush(channel), this.settings.coalesceMs);
  }

  /**
   * Reads the channel's menu. Changes published during the read are kept and applied after it: a rating carries its
   * histograms whole, so one the read already saw changes nothing; a `menus` change means reading once more (up to
   * three reads: an import that announces changes without pause must not keep a stream from starting).
   */
  private async load(channel: Channel): Promise<Result<void, LiveMenuRefusal>> {
    this.reading.add(channel);
    try {
      for (let attempt = 0; ; attempt += 1) {
        channel.missed = [];
        const menu = await this.read(channel.days);
        const missed = channel.missed;
        channel.missed = null;
        if (!menu.ok) return menu;
        this.unindex(channel);
        channel.replaceMeals(menu.value);
        this.index(channel);
        const menusChanged = missed.some((change) => change.kind === 'menus');
        if (menusChanged && attempt < 2) continue;
        for (const change of missed) {
          if (change.kind === 'rating') channel.apply(change);
          else if (change.kind === 'availability') channel.applyAvailability(change);
        }
        return { ok: true, value: undefined };
      }
    } catch (error) {
      channel.missed = null;
      throw error;
    } finally {
      this.reading.delete(channel);
      channel.reading = null;
    }
  }

  private index(channel: Channel): void {
    for (const mealId of channel.meals.keys()) addTo(this.byMeal, mealId, channel);
    for (const dishId of channel.dishIds()) addTo(this.byDish, dishId, channel);
  }

  private unindex(channel: Channel): void {
    for (const mealId of channel.meals.keys()) removeFrom(this.byMeal, mealId, channel);
    for (const dishId of channel.dishIds()) removeFrom(this.byDish, dishId, channel);
  }

  /** A `menus` change: read the channel again and send its streams a snapshot; a canteen that is gone ends them. */
  private reload(channel: Channel): void {
    channel.reading = this.load(channel);
    channel.reading.then(
      (loaded) => {
        if (this.channels.get(channel.key) !== channel) return;
        if (!loaded.ok) this.endChannel(channel);
        else channel.publish('snapshot', snapshotKey, () => channel.snapshotFrame(), this.settings.replayEvents);
        // Its last stream may have left during the read.
        this.dropIfUnwatched(channel);
      },
      // The database failed: the streams keep the figures they have; the next `menus` change reads again.
      () => this.dropIfUnwatched(channel),
    );
  }

  private endChannel(channel: Channel): void {
    for (const subscriber of [...channel.subscribers]) {
      this.leave(subscriber);
      subscriber.end();
    }
  }

  private dropIfUnwatched(channel: Channel): void {
    if (channel.subscribers.size > 0 || channel.joining > 0 || channel.reading !== null) return;
    if (this.channels.get(channel.key) === channel) this.channels.delete(channel.key);
    this.unindex(channel);
    if (channel.flushTimer !== null) this.settings.scheduler.clearTimeout(channel.flushTimer);
    channel.flushTimer = null;
  }

  private readonly beat = (): void => {
    this.heartbeat = null;
    this.fanOut.queueEverywhere('heartbeat', ': heartbeat\n\n');
    if (this.channelOf.size > 0)
      this.heartbeat = this.settings.scheduler.setTimeout(this.beat, this.settings.heartbeatMs);
  };
}

function keyOf(days: MenuDays): string {
  return `${days.canteenId}\u0000${days.from}\u0000${days.to}`;
}

function addTo<K>(index: Map<K, Set<Channel>>, key: K, channel: Channel): void {
  const channels = index.get(key);
  if (channels === undefined) index.set(key, new Set([channel]));
  else channels.add(channel);
}

function removeFrom<K>(index: Map<K, Set<Channel>>, key: K, channel: Channel): void {
  const channels = index.get(key);
  if (channels === undefined) return;
  channels.delete(channel);
  if (channels.size === 0) index.delete(key);
}

function statsDataOf(figures: MealFigures) {
  const meal = ratingStatistics(figures.histogram);
  const dish = ratingStatistics(figures.dishHistogram);
  return {
    meal_id: figures.mealId,
    rating_count: meal.count,
    rating_average: meal.average,
    rating_median: meal.median,
    rating_distribution: distributionDataOf(figures.histogram),
    dish: {
      dish_id: figures.dishId,
      rating_count: dish.count,
      rating_average: dish.average,
      rating_median: dish.median,
    },
  };
}

/** One event: JSON has no raw line breaks, so the data is a single `data:` line. */
function frameOf(id: string, event: string, data: unknown): string {
  return `id: ${id}\nevent: ${event}\ndata: ${JSON.stringify(data)}\n\n`;
}
