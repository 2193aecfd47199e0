/** How a single-flight cache keeps its answers. */
export interface SingleFlightSettings {
  /** How many answers are kept; 0 keeps none (reads of the same key at the same time still share one read). */
  readonly entries: number;
  /**
   * How long an answer that `touch` outdated may still be served, counted from when it was read; 0 drops it at once.
   * A read under way that was touched may be joined only when this is above 0.
   */
  readonly touchedMaxAgeMs: number;
}

/** What one read gives: its value, and whether (and until when) the value may be kept. */
export type ReadResult<V> =
  | { readonly value: V; readonly keep: false }
  | {
      readonly value: V;
      readonly keep: true;
      /** The instant (ms) the value stops being servable, whatever happens meanwhile. */
      readonly expiresAt: number;
      /** What a change can touch in it (e.g. `meal:1`): `touch` and `invalidate` find the value by these. */
      readonly items?: readonly string[];
    };

interface Entry<V> {
  readonly value: V;
  readonly items: readonly string[];
  readonly readAt: number;
  readonly expiresAt: number;
  readonly epoch: number;
  /** When `touch` first reached it; null: never. */
  touchedAt: number | null;
}

interface Flight<V> {
  readonly promise: Promise<V>;
  readonly epoch: number;
  touchedAt: number | null;
  /** A change that must show at once came while it read: what it reads is neither kept nor joined. */
  superseded: boolean;
}

/**
 * Answers kept per key, with reads of the same key at the same time sharing one read (single flight). An answer is
 * served until its own expiry; `invalidateAll` drops every answer and every read under way, `invalidate(item)` the
 * answers showing an item, and `touch(item)` lets those be served late, at most `touchedMaxAgeMs` after their read.
 * Full, it drops the answer kept longest. No timers: the caller passes the instant (its clock's).
 */
export class SingleFlightCache<V> {
  private readonly kept = new Map<string, Entry<V>>();
  /** The keys of the kept answers that show each item: a change finds them at once. */
  private readonly showing = new Map<string, Set<string>>();
  private readonly flights = new Map<string, Flight<V>>();
  /** Counts `invalidateAll`: an answer read before the last one is never kept nor served. */
  private epoch = 0;

  constructor(private readonly settings: SingleFlightSettings) {}

  /** The answer kept for `key` and servable at `now`, or undefined (which does not mean there is none: ask `get`). */
  peek(key: string, now: number): V | undefined {
    const entry = this.kept.get(key);
    return entry !== undefined && this.servable(entry, now) ? entry.value : undefined;
  }

  /** The kept answer (synchronously), else the read under way of the same key, else a new read begun at `now`. */
  get(key: string, now: number, read: () => Promise<ReadResult<V>>): V | Promise<V> {
    const entry = this.kept.get(key);
    if (entry !== undefined && this.servable(entry, now)) return entry.value;
    const flight = this.flights.get(key);
    if (flight !== undefined && this.joinable(flight)) return flight.promise;
    return this.readAndKeep(key, now, read);
  }

  /** Drops every kept answer; the reads under way are neither kept nor joined. */
  invalidateAll(): void {
    this.epoch += 1;
    this.kept.clear();
    this.showing.clear();
    this.flights.clear();
  }

  /** Drops the answers showing `item` at once; the reads under way (which may have read before) are not kept. */
  invalidate(item: string): void {
    for (const key of [...(this.showing.get(item) ?? [])]) this.drop(key);
    for (const flight of this.flights.values()) flight.superseded = true;
  }

  /**
   * The answers showing any of `items` become outdated at `now` (see `touchedMaxAgeMs`), and so do the reads under way.
   */
  touch(items: readonly string[], now: number): void {
    for (const key of items.flatMap((item) => [...(this.showing.get(item) ?? [])])) {
      const entry = this.kept.get(key);
      if (entry === undefined) continue;
      if (this.settings.touchedMaxAgeMs === 0) this.drop(key);
      else entry.touchedAt ??= now;
    }
    for (const flight of this.flights.values()) flight.touchedAt ??= now;
  }

  /** How many answers are kept. */
  get size(): number {
    return this.kept.size;
  }

  private joinable(flight: Flight<V>): boolean {
    return (
      flight.epoch === this.epoch &&
      !flight.superseded &&
      (flight.touchedAt === null || this.settings.touchedMaxAgeMs > 0)
    );
  }

  private servable(entry: Pick<Entry<V>, 'epoch' | 'readAt' | 'expiresAt' | 'touchedAt'>, now: number): boolean {
    if (entry.epoch !== this.epoch || now >= entry.expiresAt) return false;
    return entry.touchedAt === null || now - entry.readAt < this.settings.touchedMaxAgeMs;
  }

  private readAndKeep(key: string, readAt: number, read: () => Promise<ReadResult<V>>): Promise<V> {
    const flight: Flight<V> = {
      epoch: this.epoch,
      touchedAt: null,
      superseded: false,
      promise: read()
        .then((result) => {
          if (!result.keep || this.settings.entries === 0 || flight.superseded) return result.value;
          const entry: Entry<V> = {
            value: result.value,
            items: result.items ?? [],
            readAt,
            expiresAt: result.expiresAt,
            epoch: flight.epoch,
            touchedAt: flight.touchedAt,
          };
          if (this.servable(entry, readAt)) this.keep(key, entry);
          return result.value;
        })
        .finally(() => {
          if (this.flights.get(key) === flight) this.flights.delete(key);
        }),
    };
    this.flights.set(key, flight);
    return flight.promise;
  }

  private keep(key: string, entry: Entry<V>): void {
    this.drop(key);
    // Full: the answer kept longest goes (a Map iterates in insertion order).
    if (this.kept.size >= this.settings.entries) this.drop(this.kept.keys().next().value!);
    this.kept.set(key, entry);
    for (const item of entry.items) {
      let keys = this.showing.get(item);
      if (keys === undefined) this.showing.set(item, (keys = new Set()));
      keys.add(key);
    }
  }

  private drop(key: string): void {
    const entry = this.kept.get(key);
    if (entry === undefined) return;
    this.kept.delete(key);
    for (const item of entry.items) {
      const keys = this.showing.get(item);
      keys?.delete(key);
      if (keys?.size === 0) this.showing.delete(item);
    }
  }
}
